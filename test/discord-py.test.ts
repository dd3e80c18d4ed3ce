/**
 * discord.py, unmodified (Debian's python3-discord with the system interpreter), against slashd:
 * login, `tree.sync()` global and per guild (a group, context menus, default permissions),
 * `fetch_commands`, and an invalid command read as `HTTPException.code` 50035. discord.py parses a
 * body as JSON only when `Content-Type` is exactly `application/json`, so this is that check too.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers/cli-process.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_sync.py');
const run = promisify(execFile);

function assertDiscordPyInstalled(): void {
  const probe = spawnSync(PYTHON, ['-c', 'import discord'], { encoding: 'utf8' });
  assert.equal(
    probe.status,
    0,
    `discord.py is missing: install the Debian package python3-discord (apt-get install python3-discord); ${probe.stderr ?? ''}`,
  );
}

describe('discord.py against slashd', () => {
  let server: TestServer;
  let result: any;

  before(async () => {
    assertDiscordPyInstalled();
    server = await startServer();
    const { stdout } = await run(PYTHON, [SCRIPT, `${server.api}`, DEMO_BOT_TOKEN, TEST_GUILD_ID], {
      timeout: 120_000,
    });
    result = JSON.parse(stdout.trim().split('\n').pop()!);
  });
  after(() => server?.close());

  test('logs in with the bot token', () => {
    assert.equal(result.user_id, DEMO_APP_ID);
    assert.equal(result.application_id, DEMO_APP_ID);
  });

  test('tree.sync() registers slash commands, a group and both context menus, globally and in the guild', async () => {
    const expected = [
      ['Profile', 2],
      ['Quote message', 3],
      ['settings', 1],
      ['tags', 1],
      ['weather', 1],
    ];
    assert.deepEqual(result.synced_global, expected);
    assert.deepEqual(result.synced_guild, expected);
    const global = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
    });
    assert.deepEqual(global.body.map((c: { name: string }) => c.name).sort(), [
      'Profile',
      'Quote message',
      'settings',
      'tags',
      'weather',
    ]);
    const guild = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
    });
    assert.deepEqual(guild.body.map((c: { name: string }) => c.name).sort(), [
      'Profile',
      'Quote message',
      'settings',
      'tags',
      'weather',
    ]);
    const settings = global.body.find((c: { name: string }) => c.name === 'settings');
    assert.equal(settings.default_member_permissions, '32');
  });

  test("fetch_commands reads them back, with the group's subcommands and the default permissions", () => {
    assert.deepEqual(result.fetched_global, ['Profile', 'Quote message', 'settings', 'tags', 'weather']);
    assert.deepEqual(result.fetched_guild, ['Profile', 'Quote message', 'settings', 'tags', 'weather']);
    assert.deepEqual(result.tags_subcommands, ['add', 'remove']);
    assert.equal(result.settings_permissions, 32);
  });

  test('an invalid command is an HTTPException with code 50035', () => {
    assert.deepEqual(result.invalid, { status: 400, code: 50035 });
  });
});
