/**
 * A discord.py bot moderates against slashd through its own API: `member.timeout(...)`,
 * `member.kick()`, `guild.ban()` with a reason, then `guild.audit_logs()` lists each with its
 * reason, newest first, and filtered by action; kicking itself is v10's 50013.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers/cli-process.js';
import { changeWorldGuild, grantBotBits } from './helpers/guild-admin.js';
import { startServer, type TestServer } from './helpers/server.js';
import { CAROL_ID, DAVE_ID, DEMO_APP_ID, DEMO_BOT_TOKEN, MUTED_ROLE, TEST_GUILD_ID } from './helpers/world.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_moderation.py');
const run = promisify(execFile);
/** KICK_MEMBERS, BAN_MEMBERS, VIEW_AUDIT_LOG, MODERATE_MEMBERS. */
const MODERATION_BITS = (1n << 1n) | (1n << 2n) | (1n << 7n) | (1n << 40n);
/** The demo bot's own role, listed just above Muted: Dave (Muted) is below the bot. */
const BOT_ROLE = '1345183757107200005';

describe('a discord.py bot times out, kicks and bans, and reads the audit log', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, MODERATION_BITS);
    await changeWorldGuild(server, TEST_GUILD_ID, (g) => {
      const roles = [...g.roles];
      const bot = { id: BOT_ROLE, name: 'Demo Bot', permissions: '0', bot_id: DEMO_APP_ID };
      roles.splice(
        roles.findIndex((r) => r.id === MUTED_ROLE),
        0,
        bot,
      );
      return { ...g, roles };
    });
  });
  after(() => server?.close());

  test('member.timeout(), member.kick(), guild.ban(), guild.audit_logs()', async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import discord'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `discord.py is missing (Debian package python3-discord): ${probe.stderr ?? ''}`);
    const args = [SCRIPT, server.api, DEMO_BOT_TOKEN, TEST_GUILD_ID, CAROL_ID, DAVE_ID];
    const { stdout } = await run(PYTHON, args, { timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    assert.equal(result.timed_out, true);
    assert.equal(result.kicked_gone, true);
    assert.deepEqual(result.entries, [
      ['ban', CAROL_ID, 'py: banned', DEMO_APP_ID],
      ['kick', DAVE_ID, 'py: kicked', DEMO_APP_ID],
      ['member_update', CAROL_ID, 'py: cooling off', DEMO_APP_ID],
    ]);
    assert.deepEqual(result.bans, [CAROL_ID]);
    assert.equal(result.self_kick, 50013);
  });
});
