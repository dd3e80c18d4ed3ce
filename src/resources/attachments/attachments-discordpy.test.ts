/**
 * discord.py, unmodified (Debian's python3-discord), sends files through its own API:
 * `interaction.response.send_message(file=…)`, `interaction.followup.send(file=…)` and
 * `channel.send(file=…)`; a user reads each message and downloads the same bytes; a user who may
 * not view the channel cannot without the signed URL; a user's file given to a command is read with
 * `Attachment.read()` (no token) and sent back; a file past v10's limit fails in the bot with 413 / 40005.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ATTACHMENT_FILE_BYTES_MAX } from './rules/limits.js';
import { attachmentWorld, download, messageForm, unsigned } from '../../../test/helpers/attachments.js';
import type { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { startDiscordPyBot, type DiscordPyBot } from '../../../test/helpers/discordpy.js';

type Json = any;

/** The bytes discord_files.py sends: i * 7 mod 251 at position i. */
function pattern(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 7) % 251;
  return bytes;
}

describe('discord.py sends files', () => {
  let server: TestServer;
  let bot: DiscordPyBot;
  let lines: Inbox<Json>;

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
    const discovery = await server.request('GET', '/gateway');
    bot = await startDiscordPyBot('discord_files.py', [
      server.api,
      discovery.body.url,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
      String(ATTACHMENT_FILE_BYTES_MAX + 1),
    ]);
    lines = bot.lines;
  });

  after(async () => {
    await bot?.stop();
    await server?.close();
  });

  /** Alice invokes a synced command in #general; resolves with what the bot reported. */
  async function invoke(name: string): Promise<Json> {
    const list = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
    });
    const command = (list.body as Json[]).find((c) => c.name === name);
    assert.ok(command, `the bot synced /${name}: ${list.text}`);
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.id, name, type: 1, version: command.version },
      },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const done = await lines.find(
      (l) => l.interaction_id === id || l.event === 'exited',
      `discord.py's answer to ${id}`,
    );
    assert.equal(done.event, 'answered', `discord.py failed: ${JSON.stringify(done)}\n${bot.stderr()}`);
    return { ...done, id };
  }

  async function answersTo(id: string): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE_TOKEN });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).filter((m) => m.interaction_metadata?.id === id).reverse();
  }

  test('send_message(file=…): the user reads the answer and downloads the same bytes', async () => {
    const { id } = await invoke('pyfile');
    const [message] = await answersTo(id);
    assert.equal(message.content, 'a file from discord.py');
    const [file] = message.attachments;
    assert.equal(file.filename, 'py_data.bin', 'a space in a filename becomes an underscore');
    assert.equal(file.size, 70_000);
    assert.deepEqual((await download(file.url, ALICE_TOKEN)).bytes, pattern(70_000));
    assert.equal(
      (await download(unsigned(file.url), CAROL_TOKEN)).status,
      403,
      'carol may not view #general without the signed URL',
    );
  });

  test('followup.send(file=…): the follow-up has the file and its description', async () => {
    const { id } = await invoke('pyfollow');
    const messages = await answersTo(id);
    const followUp = messages.find((m) => m.content === 'follow-up file');
    assert.ok(followUp, JSON.stringify(messages));
    assert.equal(followUp.attachments[0].description, 'alt text');
    assert.deepEqual((await download(followUp.attachments[0].url, ALICE_TOKEN)).bytes, pattern(300_000));
  });

  test('channel.send(file=…): discord.py reads back the attachment; the user downloads it', async () => {
    const { attachment, message_id } = await invoke('pysend');
    assert.equal(attachment[0], 'posted.bin');
    assert.equal(attachment[1], 1000);
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${message_id}`, { auth: ALICE_TOKEN });
    assert.equal(read.body.attachments[0].url, attachment[2]);
    assert.deepEqual((await download(attachment[2], ALICE_TOKEN)).bytes, pattern(1000));
  });

  test("Attachment.read(): the bot downloads a user's file from its signed URL with no token and sends it back", async () => {
    const list = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
    });
    const command = (list.body as Json[]).find((c) => c.name === 'pyread');
    assert.ok(command, `the bot synced /pyread: ${list.text}`);
    const form = messageForm(
      {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: {
          id: command.id,
          name: 'pyread',
          type: 1,
          version: command.version,
          options: [{ name: 'file', type: 11, value: 0 }],
        },
      },
      [{ name: 'upload.bin', bytes: pattern(5000) }],
    );
    const response = await fetch(`${server.api}/interactions`, {
      method: 'POST',
      headers: { authorization: ALICE_TOKEN },
      body: form,
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    const done = await lines.find((l) => l.interaction_id === body.id || l.event === 'exited', 'discord.py reading');
    assert.equal(done.event, 'answered', `discord.py failed: ${JSON.stringify(done)}\n${bot.stderr()}`);
    assert.equal(done.read, 5000, 'Attachment.read() got the whole file');
    const [message] = await answersTo(body.id);
    assert.equal(message.attachments[0].filename, 'again-upload.bin');
    assert.deepEqual((await download(message.attachments[0].url)).bytes, pattern(5000), 'the same bytes, round trip');
  });

  test('a file past the limit fails in the bot with 413 / 40005', async () => {
    const { refused } = await invoke('pytoobig');
    assert.deepEqual(refused, [413, 40005]);
  });
});
