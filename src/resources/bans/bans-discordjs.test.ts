/**
 * A discord.js moderation bot bans through its own API (`guild.members.ban`, `guild.bans.fetch`,
 * `guild.bans.bulkCreate`, `guild.members.unban`) against slashd, logged in over the gateway with
 * GUILD_MODERATION: each refusal is v10's (50013 without BAN_MEMBERS, at or above the bot in the
 * hierarchy, the owner; 10026 for a ban that is not there), a banned member is gone and cannot be
 * added again, and the bot gets GUILD_BAN_ADD, GUILD_MEMBER_REMOVE and GUILD_BAN_REMOVE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Guild, type GuildBan, type User } from 'discord.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_ID,
  BOB_ID,
  CAROL_ID,
  DAVE_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const ADMIN = `Bearer ${ADMIN_TOKEN}`;
/** BAN_MEMBERS and MANAGE_GUILD (a bulk ban needs both), added to the bot's install. */
const BAN_BITS = (1n << 2n) | (1n << 5n);

describe('a discord.js bot bans, lists and lifts bans', () => {
  let server: TestServer;
  let client: Client;
  let guild: Guild;
  const bans = new Inbox<{ t: 'add' | 'remove'; ban: GuildBan }>((e) => `${e.t} ${e.ban.user.id}`);
  const removed = new Inbox<User>((user) => user.id);

  before(async () => {
    server = await startServer();
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration, GatewayIntentBits.GuildMembers],
      rest: { api: `${server.url}/api` },
    });
    client.on(Events.GuildBanAdd, (ban) => bans.push({ t: 'add', ban }));
    client.on(Events.GuildBanRemove, (ban) => bans.push({ t: 'remove', ban }));
    client.on(Events.GuildMemberRemove, (member) => removed.push(member.user));
    const ready = new Inbox<Client<true>>(() => 'ready');
    client.once(Events.ClientReady, (c) => ready.push(c));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    guild = await client.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  function grantBans(): Promise<void> {
    return grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, BAN_BITS);
  }

  test('without BAN_MEMBERS: 50013, and nothing is banned', async () => {
    await assert.rejects(guild.members.ban(CAROL_ID, { reason: 'no rights' }), v10Error(403, 50013));
    await assert.rejects(guild.bans.fetch({ user: CAROL_ID, force: true }), v10Error(403, 50013));
    assert.equal((await guild.members.fetch({ user: CAROL_ID, force: true })).id, CAROL_ID, 'still a member');
  });

  test('the hierarchy: not the owner, not a member with a role at or above the bot’s', async () => {
    await grantBans();
    await assert.rejects(guild.members.ban(ALICE_ID), v10Error(403, 50013), 'the owner');
    await assert.rejects(guild.members.ban(BOB_ID), v10Error(403, 50013), 'a moderator');
    await assert.rejects(guild.members.ban(DAVE_ID), v10Error(403, 50013), 'even the lowest role');
    await assert.rejects(guild.bans.fetch({ user: BOB_ID, force: true }), v10Error(404, 10026));
  });

  test('a ban with a reason: the member is gone, the bot is told, the ban is listed and cannot be undone by re-adding', async () => {
    await guild.members.ban(CAROL_ID, { reason: 'spamming links', deleteMessageSeconds: 3600 });
    const added = await bans.find((e) => e.t === 'add' && e.ban.user.id === CAROL_ID, 'GUILD_BAN_ADD');
    assert.equal(added.ban.guild.id, TEST_GUILD_ID);
    assert.equal((await removed.find((user) => user.id === CAROL_ID, 'GUILD_MEMBER_REMOVE')).id, CAROL_ID);

    const fetched = await guild.bans.fetch({ user: CAROL_ID, force: true });
    assert.equal(fetched.reason, 'spamming links');
    assert.equal(fetched.user.username, 'carol');
    const all = await guild.bans.fetch();
    assert.deepEqual([...all.keys()], [CAROL_ID]);
    await assert.rejects(guild.members.fetch({ user: CAROL_ID, force: true }), v10Error(404, 10007));

    const readd = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, {
      auth: ADMIN,
      body: { roles: [], nick: null, joined_at: '2026-01-01T00:00:00.000Z' },
    });
    assert.equal(readd.status, 403, readd.text);
    assert.equal(readd.body.code, 40007);
  });

  test('a body out of range is 50035 at its field, and bans nothing', async () => {
    const response = await server.request('PUT', `/guilds/${TEST_GUILD_ID}/bans/${DEMO_APP_ID}`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
      body: { delete_message_seconds: 604_801 },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.code, 50035);
    assert.ok((response.body.errors as Record<string, unknown>).delete_message_seconds);
    await assert.rejects(guild.bans.fetch({ user: DEMO_APP_ID, force: true }), v10Error(404, 10026));
  });

  test('unban: GUILD_BAN_REMOVE, the ban is gone (10026 after), and the user may be added again', async () => {
    await guild.members.unban(CAROL_ID, 'appealed');
    await bans.find((e) => e.t === 'remove' && e.ban.user.id === CAROL_ID, 'GUILD_BAN_REMOVE');
    await assert.rejects(guild.bans.fetch({ user: CAROL_ID, force: true }), v10Error(404, 10026));
    await assert.rejects(guild.members.unban(CAROL_ID), v10Error(404, 10026));
    const readd = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, {
      auth: ADMIN,
      body: { roles: [], nick: null, joined_at: '2026-01-01T00:00:00.000Z' },
    });
    assert.equal(readd.status, 200, readd.text);
  });

  test('bulk ban: those the bot may ban are banned, the others listed as failed', async () => {
    const result = await guild.bans.bulkCreate([CAROL_ID, BOB_ID], { reason: 'raid' });
    assert.deepEqual(result, { bannedUsers: [CAROL_ID], failedUsers: [BOB_ID] });
    assert.equal((await guild.bans.fetch({ user: CAROL_ID, force: true })).reason, 'raid');
    await assert.rejects(guild.bans.bulkCreate([BOB_ID, ALICE_ID]), v10Error(400, 500000), 'no one banned');
  });
});
