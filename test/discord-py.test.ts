/**
 * discord.py, unmodified (Debian's python3-discord with the system interpreter), against slashd:
 * login, `tree.sync()` global and per guild (a group, context menus, default permissions),
 * `fetch_commands`, and an invalid command read as `HTTPException.code` 50035. discord.py parses a
 * body as JSON only when `Content-Type` is exactly `application/json`, so this is that check too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';
import { runDiscordPy } from './helpers/discordpy.js';

describe('discord.py against slashd', () => {
  let server: TestServer;
  let result: any;

  before(async () => {
    server = await startServer();
    result = await runDiscordPy('discord_sync.py', [`${server.api}`, DEMO_BOT_TOKEN, TEST_GUILD_ID]);
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
