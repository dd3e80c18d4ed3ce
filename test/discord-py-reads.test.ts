/**
 * discord.py, unmodified (Debian's python3-discord), reads the world and sends messages through
 * slashd's REST reads: fetch_guild, fetch_channels, fetch_roles, fetch_member, fetch_user,
 * fetch_channel, send (with an embed), history, fetch_message, edit and delete.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import {
  BOB_ID,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { runDiscordPy } from './helpers/discordpy.js';

describe('discord.py reads the world and sends messages', () => {
  let server: TestServer;
  let result: any;

  before(async () => {
    server = await startServer();
    result = await runDiscordPy('discord_reads.py', [server.api, DEMO_BOT_TOKEN, TEST_GUILD_ID, GENERAL, BOB_ID]);
  });
  after(() => server?.close());

  test('the guild, its channels, roles, a member and a user', () => {
    assert.deepEqual(result.guild, ['Test Guild', 5]);
    assert.deepEqual(result.channels, ['Text', 'announcements', 'general', 'nsfw-lounge']);
    assert.deepEqual(result.roles, [
      ['@everyone', 0],
      ['Admin', 3],
      ['Moderator', 2],
      ['Muted', 1],
    ]);
    assert.deepEqual(result.member, ['bob', 'Bobby', [TEST_GUILD_ID, MODERATOR_ROLE]]);
    assert.equal(result.user, 'bob');
    assert.deepEqual(result.channel, ['general', CATEGORY]);
  });

  test('send, history, fetch_message, edit, delete', () => {
    assert.deepEqual(result.sent, ['from discord.py', DEMO_APP_ID, 'An embed']);
    assert.deepEqual(result.history, ['from discord.py', 'hello world']);
    assert.equal(result.fetched, 'from discord.py');
    assert.deepEqual(result.edited, ['edited by discord.py', true]);
    assert.deepEqual(result.after_delete, ['hello world']);
  });
});
