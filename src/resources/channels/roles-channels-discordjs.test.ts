/**
 * A discord.js bot manages roles and channels through its own API (`guild.roles.create`,
 * `role.edit`, `role.setPosition`, `role.delete`, `guild.channels.create` with overwrites,
 * `channel.permissionOverwrites.edit/delete`, `channel.edit`, `channel.delete`) against slashd: what
 * users observe changes at once (a channel they are denied, a command permission whose role is
 * gone), another bot in the guild gets GUILD_ROLE_* and CHANNEL_*, and each refusal is v10's
 * (50013 without the permission or above the bot, 50028 for @everyone, 10003, 50035 at the field).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import {
  ChannelType,
  GatewayIntentBits,
  OverwriteType,
  PermissionFlagsBits,
  type Client,
  type Guild,
  type Role,
  type TextChannel,
} from 'discord.js';
import type { Guild as WorldGuild } from '../../core/world/types.js';
import { ROOT } from '../../../test/helpers/cli-process.js';
import { restBot, v10Error, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  GUILD_BASE,
  MODERATOR_ROLE,
  NOBODY,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** The demo bot's own role (v10's managed bot role), between Moderator and Muted. */
const BOT_ROLE = '1345183757107200009';
const BOT_ROLE_BITS =
  PermissionFlagsBits.ManageRoles |
  PermissionFlagsBits.ManageChannels |
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.ViewAuditLog;

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_roles_channels.py');
const run = promisify(execFile);

describe('a discord.js bot manages roles, channels and overwrites', () => {
  let server: TestServer;
  let bot: Client;
  let other: Client;
  let guild: Guild;
  const seen = new Inbox<RawDispatch>((p) => `${p.t} ${JSON.stringify(p.d).slice(0, 80)}`);
  let created: Role;
  let staff: TextChannel;

  /** The other bot's dispatch of this name about this id (a role's or a channel's). */
  function otherGets(t: string, id: string): Promise<RawDispatch> {
    return seen.find((p) => p.t === t && (p.d.id === id || p.d.role?.id === id || p.d.role_id === id), `${t} ${id}`);
  }

  before(async () => {
    server = await startServer();
    const stored = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: ADMIN_AUTH });
    const world = stored.body as unknown as WorldGuild;
    // Admin > Moderator > Demo Bot > Muted > @everyone; the other bot joins with no permission of its own.
    world.roles.splice(3, 0, {
      id: BOT_ROLE,
      name: 'Demo Bot',
      permissions: String(BOT_ROLE_BITS),
      bot_id: DEMO_APP_ID,
    });
    world.installs.push({ application_id: OTHER_APP_ID, scopes: ['bot'], permissions: null });
    const put = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: ADMIN_AUTH,
      body: world,
    });
    assert.equal(put.status, 200, put.text);
    other = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.Guilds], seen);
    bot = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
    guild = await bot.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
  });
  after(async () => {
    await other?.destroy();
    await bot?.destroy();
    await server?.close();
  });

  test('a bot without MANAGE_ROLES or MANAGE_CHANNELS: 50013, and nothing is created', async () => {
    const otherGuild = await other.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
    await assert.rejects(otherGuild.roles.create({ name: 'nope' }), v10Error(403, 50013));
    await assert.rejects(otherGuild.channels.create({ name: 'nope' }), v10Error(403, 50013));
    const roles = await guild.roles.fetch(undefined, { force: true });
    assert.ok(![...roles.values()].some((r) => r.name === 'nope'));
  });

  test('guild.roles.create: the role at position 1, read back, and GUILD_ROLE_CREATE to the other bot', async () => {
    created = await guild.roles.create({
      name: 'Helpers',
      colors: { primaryColor: 0x3498db },
      hoist: true,
      reason: 'tickets',
    });
    assert.equal(created.name, 'Helpers');
    assert.equal(created.color, 0x3498db);
    assert.equal(created.hoist, true);
    assert.equal(created.position, 1);
    const event = await otherGets('GUILD_ROLE_CREATE', created.id);
    assert.equal(event.d.role.name, 'Helpers');
    const read = await server.request('GET', `/guilds/${TEST_GUILD_ID}/roles/${created.id}`, { auth: CAROL_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.name, 'Helpers');
  });

  test('role.edit and role.setPosition below the bot; above it, or granting what it lacks: 50013', async () => {
    const edited = await created.edit({ name: 'Helpers+', permissions: [PermissionFlagsBits.ViewChannel] });
    assert.equal(edited.name, 'Helpers+');
    assert.equal((await otherGets('GUILD_ROLE_UPDATE', created.id)).d.role.name, 'Helpers+');
    await created.setPosition(2);
    const positions = await server.request('GET', `/guilds/${TEST_GUILD_ID}/roles`, { auth: BOT });
    const byName = new Map(
      (positions.body as unknown as { name: string; position: number }[]).map((r) => [r.name, r.position]),
    );
    assert.deepEqual([byName.get('Demo Bot'), byName.get('Helpers+'), byName.get('Muted')], [3, 2, 1]);

    await assert.rejects(created.setPosition(4), v10Error(403, 50013), 'to the bot’s own height');
    await assert.rejects(guild.roles.edit(MODERATOR_ROLE, { name: 'mods' }), v10Error(403, 50013), 'a role above');
    await assert.rejects(
      created.edit({ permissions: [PermissionFlagsBits.Administrator] }),
      v10Error(403, 50013),
      'a permission the bot lacks',
    );
    await assert.rejects(guild.roles.create({ permissions: [PermissionFlagsBits.BanMembers] }), v10Error(403, 50013));
    await assert.rejects(guild.roles.everyone.delete(), v10Error(400, 50028));
  });

  test('a body out of v10’s bounds is 50035 at its field', async () => {
    const response = await server.request('POST', `/guilds/${TEST_GUILD_ID}/roles`, {
      auth: BOT,
      body: { name: 'x'.repeat(101), colors: { primary_color: 0x1000000 } },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.code, 50035);
    const errors = response.body.errors as Record<string, any>;
    assert.ok(errors.name._errors, response.text);
    assert.ok(errors.colors.primary_color._errors, response.text);
    const channel = await server.request('POST', `/guilds/${TEST_GUILD_ID}/channels`, {
      auth: BOT,
      body: { name: 'ok', parent_id: GENERAL, permission_overwrites: [{ id: 'nope', type: 0 }] },
    });
    assert.equal(channel.status, 400, channel.text);
    assert.ok((channel.body.errors as Record<string, any>).permission_overwrites['0'].id._errors, channel.text);
  });

  test('guild.channels.create with overwrites: only the role sees it, and the command picker follows', async () => {
    staff = await guild.channels.create({
      name: 'staff',
      type: ChannelType.GuildText,
      parent: CATEGORY,
      topic: 'for helpers',
      permissionOverwrites: [
        { id: TEST_GUILD_ID, deny: [PermissionFlagsBits.ViewChannel] },
        { id: created.id, allow: [PermissionFlagsBits.ViewChannel] },
      ],
    });
    assert.equal(staff.parentId, CATEGORY);
    assert.equal(staff.topic, 'for helpers');
    assert.equal(staff.permissionOverwrites.cache.size, 2);
    const picker = () =>
      server.request('GET', `/channels/${staff.id}/application-command-index`, { auth: CAROL_TOKEN });
    assert.equal((await picker()).body.code, 50001, 'Carol has no role that may see it');
    const member = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, {
      auth: ADMIN_AUTH,
    });
    const given = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, {
      auth: ADMIN_AUTH,
      body: { ...member.body, roles: [created.id] },
    });
    assert.equal(given.status, 200, given.text);
    assert.equal((await picker()).status, 200, 'the role lets her see it');
  });

  test('a command permission for a role stops applying once the role is deleted', async () => {
    const command = await server.request('POST', GUILD_BASE, {
      auth: BOT,
      body: { name: 'helpdesk', description: 'for helpers', default_member_permissions: '0' },
    });
    assert.equal(command.status, 201, command.text);
    const allowed = await server.request('PUT', `${GUILD_BASE}/${command.body.id}/permissions`, {
      auth: ALICE_TOKEN,
      body: { permissions: [{ id: created.id, type: 1, permission: true }] },
    });
    assert.equal(allowed.status, 200, allowed.text);
    const names = async () => {
      const index = await server.request('GET', `/channels/${GENERAL}/application-command-index`, {
        auth: CAROL_TOKEN,
      });
      assert.equal(index.status, 200, index.text);
      return (index.body.application_commands as { name: string }[]).map((c) => c.name);
    };
    assert.ok((await names()).includes('helpdesk'), 'her role is allowed');
    await created.delete('no longer needed');
    await otherGets('GUILD_ROLE_DELETE', created.id);
    assert.ok(!(await names()).includes('helpdesk'), 'the role is gone from her');
    const carol = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, { auth: BOT });
    assert.deepEqual(carol.body.roles, []);
    // The bot no longer sees #staff (only the deleted role was allowed): the guild's list shows it.
    const channels = (await server.request('GET', `/guilds/${TEST_GUILD_ID}/channels`, { auth: BOT })).body;
    const overwrites = (channels as unknown as { id: string; permission_overwrites: { id: string }[] }[]).find(
      (c) => c.id === staff.id,
    )?.permission_overwrites;
    assert.deepEqual(
      overwrites?.map((o) => o.id),
      [TEST_GUILD_ID],
      'no channel keeps an overwrite for it',
    );
  });

  test('an overwrite denying VIEW_CHANNEL: the user can no longer read, open the picker or invoke there', async () => {
    const general = (await bot.channels.fetch(GENERAL)) as TextChannel;
    const read = () => server.request('GET', `/channels/${GENERAL}/messages`, { auth: CAROL_TOKEN });
    assert.equal((await read()).status, 200);
    await general.permissionOverwrites.edit(CAROL_ID, { ViewChannel: false }, { type: OverwriteType.Member });
    assert.equal((await otherGets('CHANNEL_UPDATE', GENERAL)).d.permission_overwrites.length, 1);
    assert.equal((await read()).body.code, 50001);
    const command = await server.request('POST', GUILD_BASE, {
      auth: BOT,
      body: { name: 'ping', description: 'pong' },
    });
    const invoked = await server.request('POST', '/interactions', {
      auth: CAROL_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.body.id, name: 'ping', type: 1, version: command.body.version },
      },
    });
    // An invocation names no channel the user cannot see (as for any hidden channel).
    assert.equal(invoked.status, 404, invoked.text);
    assert.equal(invoked.body.code, 10003);
    const picker = await server.request('GET', `/channels/${GENERAL}/application-command-index`, { auth: CAROL_TOKEN });
    assert.equal(picker.body.code, 50001);
    await general.permissionOverwrites.delete(CAROL_ID);
    assert.equal((await read()).status, 200, 'the overwrite is gone');
    await assert.rejects(general.permissionOverwrites.delete(CAROL_ID), v10Error(404, 10009));
    await assert.rejects(
      general.permissionOverwrites.edit(CAROL_ID, { BanMembers: true }, { type: OverwriteType.Member }),
      v10Error(403, 50013),
      'a permission the bot does not have',
    );
  });

  test('channel.edit and channel.delete: CHANNEL_UPDATE and CHANNEL_DELETE, its messages gone, then 10003', async () => {
    const open = await guild.channels.create({ name: 'lobby', type: ChannelType.GuildText });
    await otherGets('CHANNEL_CREATE', open.id);
    const edited = await open.edit({ name: 'lounge', topic: 'chat', nsfw: true, rateLimitPerUser: 30 });
    assert.deepEqual([edited.name, edited.topic, edited.nsfw, edited.rateLimitPerUser], ['lounge', 'chat', true, 30]);
    assert.equal((await otherGets('CHANNEL_UPDATE', open.id)).d.name, 'lounge');
    const message = await edited.send('soon gone');
    await edited.delete('cleanup');
    await otherGets('CHANNEL_DELETE', open.id);
    await assert.rejects(bot.channels.fetch(open.id, { force: true }), v10Error(404, 10003));
    const gone = await server.request('GET', `/channels/${open.id}/messages/${message.id}`, { auth: BOT });
    assert.equal(gone.body.code, 10003);
    const unknown = await server.request('PATCH', `/channels/${NOBODY}`, { auth: BOT, body: { name: 'x' } });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.code, 10003);
  });

  test('the audit log holds an entry of each action, with its reason', async () => {
    const entries = async (type: number) => {
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?action_type=${type}`, { auth: BOT });
      assert.equal(log.status, 200, log.text);
      return log.body.audit_log_entries as { target_id: string; reason?: string; user_id: string }[];
    };
    const roleCreate = (await entries(30)).find((e) => e.target_id === created.id);
    assert.deepEqual([roleCreate?.user_id, roleCreate?.reason], [DEMO_APP_ID, 'tickets']);
    assert.equal((await entries(32)).find((e) => e.target_id === created.id)?.reason, 'no longer needed');
    assert.ok(
      (await entries(31)).some((e) => e.target_id === created.id),
      'the edit',
    );
    assert.ok(
      (await entries(10)).some((e) => e.target_id === staff.id),
      'the channel created',
    );
    assert.equal((await entries(12)).length, 1, 'the channel deleted');
    assert.equal((await entries(12))[0]?.reason, 'cleanup');
    assert.ok(
      (await entries(13)).some((e) => e.target_id === GENERAL),
      'Carol’s overwrite set',
    );
    assert.ok(
      (await entries(15)).some((e) => e.target_id === GENERAL),
      'and removed',
    );
  });

  test('discord.py: guild.create_role, guild.create_text_channel(overwrites=...), channel.set_permissions', async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import discord'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `discord.py is missing (Debian package python3-discord): ${probe.stderr ?? ''}`);
    const args = [SCRIPT, server.api, DEMO_BOT_TOKEN, TEST_GUILD_ID, CAROL_ID, BOT_ROLE];
    const { stdout } = await run(PYTHON, args, { timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    const [roleId, roleName, color, mentionable, position] = result.role;
    assert.deepEqual([roleName, color, mentionable, position], ['Triage', 0x2ecc71, true, 1]);
    assert.equal((await otherGets('GUILD_ROLE_CREATE', roleId)).d.role.name, 'Triage');
    const [channelId, channelName, topic] = result.channel;
    assert.deepEqual([channelName, topic], ['triage', 'tickets']);
    const view = String(PermissionFlagsBits.ViewChannel);
    const viewAndSend = String(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages);
    // Both lists are sorted by id, as the script sorts them.
    assert.deepEqual(
      result.created_overwrites,
      [
        [roleId, [viewAndSend, '0']],
        [BOT_ROLE, [view, '0']],
        [TEST_GUILD_ID, ['0', view]],
      ].sort(),
    );
    // Carol may read #triage (her member overwrite) but not send there; the role's overwrite is gone.
    assert.deepEqual(
      result.edited_overwrites,
      [
        [CAROL_ID, [view, String(PermissionFlagsBits.SendMessages)]],
        [BOT_ROLE, [view, '0']],
        [TEST_GUILD_ID, ['0', view]],
      ].sort(),
    );
    assert.equal((await server.request('GET', `/channels/${channelId}/messages`, { auth: CAROL_TOKEN })).status, 200);
    const sent = await server.request('POST', `/channels/${channelId}/messages`, {
      auth: CAROL_TOKEN,
      body: { content: 'may I?' },
    });
    assert.equal(sent.body.code, 50013, sent.text);
    assert.deepEqual(result.refused, [403, 50013], 'a role with a permission the bot lacks');
  });
});
