/**
 * discord.py (Debian's python3-discord, unmodified, over slashd's gateway) as a prefix-command bot:
 * alice posts "!ping" with her own token, its `on_message` answers with `message.reply`, and alice
 * reads the reply pointing at her message. A moderating bot then bulk deletes both, and discord.py's
 * `on_raw_bulk_message_delete` receives their ids (MESSAGE_DELETE_BULK).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import type { World } from '../src/core/world/types.js';
import { gatewayWorld } from './helpers/gateway-world.js';
import { GENERAL } from './helpers/world.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { spawnDiscordPy } from './helpers/discordpy.js';

type Json = any;

/** The gateway world (Other App may read content) with the demo bot installed as an administrator. */
function world(): World {
  const w = gatewayWorld();
  const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = '8';
  return w;
}

describe('discord.py on_message: a prefix command answered with message.reply', () => {
  let server: TestServer;
  let bot: ChildProcess;
  let stderr = '';
  const lines = new Inbox<Json>();

  before(async () => {
    server = await startServer({ world: world() });
    const discovery = await server.request('GET', '/gateway');
    assert.equal(discovery.status, 200, discovery.text);
    bot = spawnDiscordPy('discord_on_message.py', [server.api, discovery.body.url, OTHER_BOT_TOKEN]);
    bot.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    createInterface({ input: bot.stdout! }).on('line', (line) => {
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push({ event: 'unparsed', line });
      }
    });
    bot.once('exit', (code) => lines.push({ event: 'exited', code, stderr }));
    const ready = await lines.find((l) => ['ready', 'exited', 'crashed'].includes(l.event), 'on_ready');
    assert.equal(ready.event, 'ready', `discord.py did not become ready: ${JSON.stringify(ready)}\n${stderr}`);
    assert.equal(ready.user_id, OTHER_APP_ID);
  });

  after(async () => {
    if (bot && bot.exitCode === null) {
      const exited = lines.find((l) => l.event === 'exited', 'the bot to exit');
      bot.stdin!.end('quit\n');
      await exited.catch(() => bot.kill('SIGKILL'));
    }
    await server?.close();
  });

  test('alice posts "!ping"; discord.py replies; alice reads it; a bulk delete reaches discord.py', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: ALICE_TOKEN,
      body: { content: '!ping' },
    });
    assert.equal(sent.status, 200, sent.text);
    const replied = await lines
      .find((l) => ['replied', 'crashed', 'error'].includes(l.event), 'the reply')
      .catch((error: Error) => assert.fail(`${error.message}\ndiscord.py said: ${stderr}`));
    assert.equal(replied.event, 'replied', `${JSON.stringify(replied)}\n${stderr}`);
    assert.equal(replied.to, sent.body.id);
    assert.equal(replied.reference, sent.body.id);

    const read = await server.request('GET', `/channels/${GENERAL}/messages/${replied.reply}`, { auth: ALICE_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.content, 'pong for alice');
    assert.equal(read.body.author.id, OTHER_APP_ID);
    assert.equal(read.body.message_reference.message_id, sent.body.id);
    assert.deepEqual(
      read.body.mentions.map((u: Json) => u.id),
      [ALICE_ID],
    );

    const ids = [sent.body.id as string, replied.reply as string];
    const bulk = await server.request('POST', `/channels/${GENERAL}/messages/bulk-delete`, {
      auth: BOT,
      body: { messages: ids },
    });
    assert.equal(bulk.status, 204, bulk.text);
    const deleted = await lines.find((l) => l.event === 'bulk_deleted', 'on_raw_bulk_message_delete');
    assert.deepEqual(deleted, { event: 'bulk_deleted', ids: [...ids].sort(), channel_id: GENERAL });
  });
});
