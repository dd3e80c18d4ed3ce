/**
 * discord.py, unmodified (Debian's python3-discord with the system interpreter), over slashd's
 * gateway: only `Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` point at slashd (the gateway URL
 * read from `GET /gateway`). It connects with zlib-stream, `on_ready` fires with its guild, and when
 * a user invokes its `app_commands` it answers with `interaction.response.send_message`, and deferred
 * with a follow-up; the user reads both. The bot reports what it did as JSON lines on its stdout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';
import { startDiscordPyBot, type DiscordPyBot } from './helpers/discordpy.js';

type Json = any;

describe('unmodified discord.py over the slashd gateway', () => {
  let server: TestServer;
  let bot: DiscordPyBot;
  let lines: Inbox<Json>;
  let ready: Json;

  before(async () => {
    server = await startServer();
    const discovery = await server.request('GET', '/gateway');
    assert.equal(discovery.status, 200, discovery.text);
    bot = await startDiscordPyBot('discord_gateway.py', [
      server.api,
      discovery.body.url,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
    ]);
    lines = bot.lines;
    ready = bot.ready;
  });

  after(async () => {
    await bot?.stop();
    await server?.close();
  });

  /** Alice invokes a deployed command in #general; resolves once the bot reports its answer sent. */
  async function invoke(name: string, options?: Json[]): Promise<string> {
    const list = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
    });
    const command = (list.body as Json[]).find((c) => c.name === name);
    assert.ok(command, `the bot synced /${name}: ${list.text}; the bot said ${JSON.stringify(lines.all())}`);
    const response = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: invocationBody(command, { data: options ? { options } : {} }),
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const done = await lines.find(
      (l) => l.interaction_id === id || l.event === 'exited',
      `discord.py's answer to interaction ${id}`,
    );
    assert.equal(done.event, 'answered', `discord.py failed: ${JSON.stringify(done)}\n${bot.stderr()}`);
    return id;
  }

  async function answersTo(id: string): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).filter((m) => m.interaction_metadata?.id === id).reverse();
  }

  test('connects with zlib-stream to the gateway slashd advertises, and on_ready fires', () => {
    assert.equal(ready.user_id, DEMO_APP_ID);
    assert.equal(ready.application_id, DEMO_APP_ID);
    assert.deepEqual(ready.guilds, [TEST_GUILD_ID]);
    assert.deepEqual(ready.guild_names, ['Test Guild']);
    assert.match(ready.url, /[?&]compress=zlib-stream(&|$)/, 'discord.py asked for zlib-stream');
    assert.match(ready.url, /[?&]v=10(&|$)/);
    assert.ok(ready.frames.binary > 0, 'the payloads arrived as zlib-stream binary frames');
    assert.equal(ready.frames.text, 0, 'no payload arrived uncompressed');
  });

  test('an app_commands command answers with interaction.response.send_message; the user reads it', async () => {
    const id = await invoke('ping');
    const status = await server.request('GET', `/interactions/${id}`, { auth: ALICE });
    assert.equal(status.body.state, 'responded');
    assert.deepEqual(status.body.response.type, 4);
    const [message] = await answersTo(id);
    assert.equal(message?.content, 'pong for alice from discord.py');
    assert.equal(message.author.id, DEMO_APP_ID);
    assert.equal(message.interaction_metadata.user.id, ALICE_ID);
  });

  test('a deferred answer with a follow-up: the user reads the follow-up', async () => {
    const id = await invoke('slow', [{ name: 'what', type: 3, value: 'tea' }]);
    const status = await server.request('GET', `/interactions/${id}`, { auth: ALICE });
    // The original stays the loading message (only editing @original fills it in: docs/decisions.md).
    assert.equal(status.body.state, 'acknowledged');
    assert.equal(status.body.response.type, 5, 'deferred');
    const contents = (await answersTo(id)).map((m) => m.content);
    assert.ok(contents.includes('later: tea'), `the follow-up is readable (have ${JSON.stringify(contents)})`);
  });
});
