/**
 * The audit log through discord.js (`guild.fetchAuditLogs`) against slashd: a moderation bot's
 * bans and unbans are entries carrying their `X-Audit-Log-Reason`, filtered by action and by who
 * acted; reading needs VIEW_AUDIT_LOG (50013); another bot with VIEW_AUDIT_LOG and GUILD_MODERATION
 * gets GUILD_AUDIT_LOG_ENTRY_CREATE for each, and one without VIEW_AUDIT_LOG gets none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditLogEvent, GatewayIntentBits, type Client, type Guild } from 'discord.js';
import { restBot, v10Error, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits, installBot } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  BOT,
  CAROL_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const BAN_MEMBERS = 1n << 2n;
const VIEW_AUDIT_LOG = 1n << 7n;
const MANAGE_GUILD = 1n << 5n;

describe('a discord.js bot reads the audit log of its moderation', () => {
  let server: TestServer;
  let moderator: Client;
  let guild: Guild;
  let reader: Client;
  let blind: Client;
  const readerEvents = new Inbox<RawDispatch>((p) => `${p.t}`);
  const blindEvents = new Inbox<RawDispatch>((p) => `${p.t}`);

  before(async () => {
    server = await startServer();
    await installBot(server, TEST_GUILD_ID, OTHER_APP_ID, VIEW_AUDIT_LOG);
    await installBot(server, TEST_GUILD_ID, ACTIVITY_APP_ID, 0n);
    reader = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration],
      readerEvents,
    );
    blind = await watchingBot(
      server,
      ACTIVITY_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration],
      blindEvents,
    );
    moderator = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
    guild = await moderator.guilds.fetch(TEST_GUILD_ID);
  });
  after(async () => {
    await Promise.all([moderator?.destroy(), reader?.destroy(), blind?.destroy()]);
    await server?.close();
  });

  test('without VIEW_AUDIT_LOG the log is refused (50013)', async () => {
    await assert.rejects(guild.fetchAuditLogs(), v10Error(403, 50013));
  });

  test('a ban and its lifting are entries with their reasons; the bots that may read the log are told', async () => {
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, BAN_MEMBERS | VIEW_AUDIT_LOG);
    await guild.members.ban(CAROL_ID, { reason: 'spamming links' });
    await guild.members.unban(CAROL_ID, 'appealed: it was a friend’s joke');

    const told = await readerEvents.findMany(2, (p) => p.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE', 'two entries');
    assert.deepEqual(
      told.map((p) => [p.d.guild_id, p.d.action_type, p.d.user_id, p.d.target_id, p.d.reason]),
      [
        [TEST_GUILD_ID, AuditLogEvent.MemberBanAdd, DEMO_APP_ID, CAROL_ID, 'spamming links'],
        [TEST_GUILD_ID, AuditLogEvent.MemberBanRemove, DEMO_APP_ID, CAROL_ID, 'appealed: it was a friend’s joke'],
      ],
    );
    // The blind bot got the unban (dispatched after the ban's entry) and no entry before or with it.
    await blindEvents.find((p) => p.t === 'GUILD_BAN_REMOVE', 'GUILD_BAN_REMOVE');
    assert.deepEqual(
      blindEvents.all().filter((p) => p.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE'),
      [],
      'no VIEW_AUDIT_LOG, no entry',
    );

    const bans = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberBanAdd });
    const ban = bans.entries.first();
    assert.equal(bans.entries.size, 1);
    assert.equal(ban?.reason, 'spamming links');
    assert.equal(ban?.targetId, CAROL_ID);
    assert.equal(ban?.executorId, DEMO_APP_ID);
    assert.equal(ban?.id, told[0]!.d.id, 'the entry the bots were told of');

    const byBot = await guild.fetchAuditLogs({ user: DEMO_APP_ID });
    assert.deepEqual(
      [...byBot.entries.values()].map((e) => e.action),
      [AuditLogEvent.MemberBanRemove, AuditLogEvent.MemberBanAdd],
      'newest first',
    );
    assert.equal(byBot.entries.first()?.executor?.id, DEMO_APP_ID, 'the bot is among the users');
    assert.equal((await guild.fetchAuditLogs({ user: CAROL_ID })).entries.size, 0, 'Carol did nothing');
    const older = await guild.fetchAuditLogs({ before: byBot.entries.first()!.id, limit: 1 });
    assert.deepEqual([...older.entries.keys()], [ban?.id]);
  });

  test('a bulk ban writes one MEMBER_BAN_ADD per user banned, each with the reason', async () => {
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, MANAGE_GUILD);
    const result = await guild.bans.bulkCreate([CAROL_ID, ERIN_ID], { reason: 'raid' });
    assert.deepEqual(result.bannedUsers, [CAROL_ID, ERIN_ID]);
    const bans = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberBanAdd, limit: 2 });
    assert.deepEqual(
      [...bans.entries.values()].map((e) => [e.targetId, e.reason]),
      [
        [ERIN_ID, 'raid'],
        [CAROL_ID, 'raid'],
      ],
    );
  });

  test('a bad query is 50035 at its parameter', async () => {
    for (const [param, value] of [
      ['limit', '0'],
      ['limit', '101'],
      ['action_type', 'kick'],
      ['before', 'yesterday'],
      ['user_id', '-1'],
    ] as const) {
      const response = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?${param}=${value}`, {
        auth: BOT,
      });
      assert.equal(response.status, 400, `${param}=${value}: ${response.text}`);
      assert.equal(response.body.code, 50035);
      assert.ok((response.body.errors as Record<string, unknown>)[param], response.text);
    }
  });
});
