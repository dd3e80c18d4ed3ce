/**
 * A discord.js moderation bot manages members through its own API against slashd
 * (`member.timeout`, `member.roles.add/remove`, `member.setNickname`, `member.kick`,
 * `guild.members.search`, `guild.members.editMe`): each refusal is v10's (50013 without the
 * permission or against the hierarchy, 10007 for no member, 10011 for no role); another bot gets
 * GUILD_MEMBER_UPDATE, GUILD_MEMBER_REMOVE and GUILD_AUDIT_LOG_ENTRY_CREATE; a timed-out user can
 * neither invoke a command nor post until the timeout is lifted; a kicked user's picker lists
 * nothing of the guild.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditLogEvent, GatewayIntentBits, type Client, type Guild } from 'discord.js';
import { v10Error, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits, installBot, listBotRole } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  ALICE_ID,
  BOB_ID,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DAVE_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  GUILD_BASE,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NOBODY,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const KICK_MEMBERS = 1n << 1n;
const VIEW_AUDIT_LOG = 1n << 7n;
const CHANGE_NICKNAME = 1n << 26n;
const MANAGE_NICKNAMES = 1n << 27n;
const MANAGE_ROLES = 1n << 28n;
const MODERATE_MEMBERS = 1n << 40n;
/** The demo bot's own role (v10's managed bot role), listed between Moderator and Muted. */
const BOT_ROLE = '1345183757107200005';
const HOUR_MS = 60 * 60 * 1000;

describe('a discord.js bot moderates members', () => {
  let server: TestServer;
  let moderator: Client;
  let guild: Guild;
  let watcher: Client;
  const seen = new Inbox<RawDispatch>((p) => `${p.t} ${JSON.stringify(p.d).slice(0, 200)}`);

  before(async () => {
    server = await startServer();
    await installBot(server, TEST_GUILD_ID, ACTIVITY_APP_ID, VIEW_AUDIT_LOG);
    await listBotRole(server, TEST_GUILD_ID, { id: BOT_ROLE, name: 'Demo Bot', bot_id: DEMO_APP_ID }, MUTED_ROLE);
    watcher = await watchingBot(
      server,
      ACTIVITY_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers, GatewayIntentBits.GuildModeration],
      seen,
    );
    // Logged in (discord.js edits its own member as `@me`, by the logged-in user's id).
    moderator = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], new Inbox<RawDispatch>());
    guild = await moderator.guilds.fetch(TEST_GUILD_ID);
  });
  after(async () => {
    await Promise.all([moderator?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  const member = (id: string) => guild.members.fetch({ user: id, force: true });

  test('without the permissions: 50013 for each action, and nothing changes', async () => {
    const carol = await member(CAROL_ID);
    await assert.rejects(carol.timeout(HOUR_MS, 'no rights'), v10Error(403, 50013));
    await assert.rejects(carol.roles.add(MUTED_ROLE), v10Error(403, 50013));
    await assert.rejects(carol.setNickname('nope'), v10Error(403, 50013));
    await assert.rejects(carol.kick(), v10Error(403, 50013));
    const again = await member(CAROL_ID);
    assert.equal(again.communicationDisabledUntilTimestamp, null);
    assert.deepEqual([...again.roles.cache.keys()], [TEST_GUILD_ID]);
  });

  test('the hierarchy and unknown objects: 50013, 10007, 10011', async () => {
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      KICK_MEMBERS | VIEW_AUDIT_LOG | CHANGE_NICKNAME | MANAGE_NICKNAMES | MANAGE_ROLES | MODERATE_MEMBERS,
    );
    await assert.rejects((await member(ALICE_ID)).setNickname('boss'), v10Error(403, 50013), 'the owner');
    await assert.rejects((await member(BOB_ID)).timeout(HOUR_MS), v10Error(403, 50013), 'a moderator, above the bot');
    await assert.rejects((await member(CAROL_ID)).roles.add(MODERATOR_ROLE), v10Error(403, 50013), 'a role above');
    await assert.rejects((await member(CAROL_ID)).roles.add(BOT_ROLE), v10Error(403, 50013), 'the bot’s own role');
    await assert.rejects(guild.members.edit(NOBODY, { nick: 'x' }), v10Error(404, 10007));
    await assert.rejects(guild.members.kick(NOBODY), v10Error(404, 10007));
    await assert.rejects((await member(CAROL_ID)).roles.add('1345183757107209999'), v10Error(404, 10011));
  });

  test('a bad body is 50035 at its field', async () => {
    const tooLate = new Date(Date.now() + 29 * 24 * HOUR_MS).toISOString();
    for (const [body, field] of [
      [{ nick: 'n'.repeat(33) }, 'nick'],
      [{ roles: ['not-a-role'] }, 'roles'],
      [{ communication_disabled_until: tooLate }, 'communication_disabled_until'],
      [{ communication_disabled_until: 'tomorrow' }, 'communication_disabled_until'],
      [{ mute: 'yes' }, 'mute'],
    ] as const) {
      const response = await server.request('PATCH', `/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, {
        auth: BOT,
        body,
      });
      assert.equal(response.status, 400, `${field}: ${response.text}`);
      assert.equal(response.body.code, 50035);
      assert.ok((response.body.errors as Record<string, unknown>)[field], response.text);
    }
  });

  test('a timeout: the other bot is told, and the user can neither invoke nor post until it is lifted', async () => {
    const created = await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'ping', description: 'p' } });
    assert.equal(created.status, 201, created.text);
    const invoke = () =>
      server.request('POST', '/interactions', { auth: CAROL_TOKEN, body: invocationBody(created.body) });
    const post = () =>
      server.request('POST', `/channels/${GENERAL}/messages`, { auth: CAROL_TOKEN, body: { content: 'hi' } });

    const carol = await member(CAROL_ID);
    const timedOut = await carol.timeout(HOUR_MS, 'cooling off');
    assert.ok((timedOut.communicationDisabledUntilTimestamp ?? 0) > Date.now());
    const update = await seen.find(
      (p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user.id === CAROL_ID && p.d.communication_disabled_until !== null,
      'GUILD_MEMBER_UPDATE with the timeout',
    );
    assert.equal(update.d.guild_id, TEST_GUILD_ID);
    const entry = await seen.find(
      (p) => p.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE' && p.d.target_id === CAROL_ID,
      'the timeout’s audit entry',
    );
    assert.equal(entry.d.action_type, AuditLogEvent.MemberUpdate);
    assert.equal(entry.d.reason, 'cooling off');
    assert.equal(entry.d.changes[0].key, 'communication_disabled_until');

    for (const refused of [await invoke(), await post()]) {
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
    }
    await carol.timeout(null);
    const invoked = await invoke();
    assert.notEqual(invoked.body.code, 50013, invoked.text);
    assert.equal((await post()).status, 200);
    await assert.rejects((await member(ALICE_ID)).timeout(HOUR_MS), v10Error(403, 50013), 'the owner');
  });

  test('roles given and taken, a nickname set: events, and entries with their changes', async () => {
    const dave = await member(DAVE_ID);
    await dave.roles.remove(MUTED_ROLE, 'served his time');
    await seen.find(
      (p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user.id === DAVE_ID && !p.d.roles.includes(MUTED_ROLE),
      'Dave without Muted',
    );
    const carol = await member(CAROL_ID);
    await carol.roles.add(MUTED_ROLE, 'spam');
    await carol.setNickname('quiet carol', 'renamed');
    const after = await member(CAROL_ID);
    assert.ok(after.roles.cache.has(MUTED_ROLE));
    assert.equal(after.nickname, 'quiet carol');

    const roleEntries = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberRoleUpdate });
    const [added, removed] = [...roleEntries.entries.values()];
    assert.equal(added?.targetId, CAROL_ID);
    assert.equal(added?.reason, 'spam');
    assert.deepEqual(added?.changes, [{ key: '$add', new: [{ id: MUTED_ROLE, name: 'Muted' }] }]);
    assert.equal(removed?.targetId, DAVE_ID);
    assert.equal(removed?.changes[0]?.key, '$remove');
    const nick = (await guild.fetchAuditLogs({ type: AuditLogEvent.MemberUpdate, limit: 1 })).entries.first();
    assert.deepEqual(nick?.changes, [{ key: 'nick', new: 'quiet carol' }]);

    const me = await guild.members.editMe({ nick: 'Mod Bot' });
    assert.equal(me.nickname, 'Mod Bot');
    await seen.find(
      (p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user.id === DEMO_APP_ID && p.d.nick === 'Mod Bot',
      'the bot’s own GUILD_MEMBER_UPDATE',
    );
    assert.equal((await member(DEMO_APP_ID)).nickname, 'Mod Bot');
  });

  test('roles.set with the cached roles (@everyone among them) and a picked one: @everyone is ignored', async () => {
    const dave = await member(DAVE_ID);
    assert.ok(dave.roles.cache.has(TEST_GUILD_ID), 'discord.js caches @everyone among the roles');
    assert.ok(!dave.roles.cache.has(MUTED_ROLE));
    await dave.roles.set([...dave.roles.cache.keys(), MUTED_ROLE]);
    const update = await seen.find(
      (p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user.id === DAVE_ID && p.d.roles.includes(MUTED_ROLE),
      'Dave with Muted',
    );
    assert.ok(!update.d.roles.includes(TEST_GUILD_ID), 'v10 never lists @everyone in a member’s roles');
    const muted = await member(DAVE_ID);
    assert.deepEqual([...muted.roles.cache.keys()].sort(), [MUTED_ROLE, TEST_GUILD_ID].sort());
    const raw = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${DAVE_ID}`, { auth: BOT });
    assert.deepEqual(raw.body.roles, [MUTED_ROLE]);

    await muted.roles.set([...muted.roles.cache.keys()].filter((id) => id !== MUTED_ROLE));
    assert.deepEqual([...(await member(DAVE_ID)).roles.cache.keys()], [TEST_GUILD_ID]);
    // Giving or taking @everyone itself: 204, and the member is as before.
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await server.request(
        method,
        `/guilds/${TEST_GUILD_ID}/members/${DAVE_ID}/roles/${TEST_GUILD_ID}`,
        {
          auth: BOT,
        },
      );
      assert.equal(response.status, 204, response.text);
    }
    const after = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${DAVE_ID}`, { auth: BOT });
    assert.deepEqual(after.body.roles, []);
  });

  test('search: by the start of a username or a nickname, any case, within the limit', async () => {
    const found = await guild.members.search({ query: 'QUIET', limit: 10 });
    assert.deepEqual([...found.keys()], [CAROL_ID]);
    const byName = await guild.members.search({ query: 'b', limit: 10 });
    assert.deepEqual([...byName.keys()], [BOB_ID]);
    const response = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/search?query=a&limit=1001`, {
      auth: BOT,
    });
    assert.equal(response.status, 400, response.text);
    assert.ok((response.body.errors as Record<string, unknown>).limit);
  });

  test('a kick: the member is gone, the other bot is told, the entry carries the reason, the picker is empty', async () => {
    const picker = () => server.request('GET', `/channels/${GENERAL}/application-command-index`, { auth: CAROL_TOKEN });
    assert.equal((await picker()).status, 200);
    await (await member(CAROL_ID)).kick('left the rules behind');
    await seen.find((p) => p.t === 'GUILD_MEMBER_REMOVE' && p.d.user.id === CAROL_ID, 'GUILD_MEMBER_REMOVE');
    const entry = await seen.find(
      (p) => p.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE' && p.d.action_type === AuditLogEvent.MemberKick,
      'the kick’s entry',
    );
    assert.equal(entry.d.reason, 'left the rules behind');
    await assert.rejects(member(CAROL_ID), v10Error(404, 10007));
    const after = await picker();
    assert.equal(after.status, 403, after.text);
    assert.equal(after.body.code, 50001);
    const kicks = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberKick });
    assert.equal(kicks.entries.first()?.reason, 'left the rules behind');
    assert.equal(kicks.entries.first()?.target?.id, CAROL_ID);
  });
});
