/**
 * An unmodified discord.js bot sends files the way its users write it: `interaction.reply({files})`,
 * `deferReply` + `editReply({files})`, `followUp({files})` and `channel.send({files})`; a user reads
 * each message and downloads the same bytes from its attachment's URL, and a user who may not view
 * the channel cannot without the signed URL. A user's file given to a command is sent back with
 * `new AttachmentBuilder(attachment.url)`, which downloads it with no token. An oversize file fails
 * in the bot with v10's 40005. Every wait is on an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AttachmentBuilder, Client, DiscordAPIError, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { ATTACHMENT_FILE_BYTES_MAX } from './rules/limits.js';
import { attachmentWorld, download, unsigned } from '../../../test/helpers/attachments.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

const NAMES = ['file-reply', 'file-edit', 'file-follow-up', 'file-send', 'file-too-big'];
/** A command with an ATTACHMENT option: the bot downloads what the user attached and sends it back. */
const ECHO = {
  name: 'file-echo',
  description: 'Echoes a file',
  options: [{ type: 11, name: 'file', description: 'The file', required: true }],
};
const PNG = pngImage(30, 20);
const NOTES = Buffer.from('notes from discord.js\n'.repeat(500));

interface Handled {
  id: string;
  error: unknown;
}

describe('discord.js sends files', () => {
  let server: TestServer;
  let client: Client;
  const commands: Record<string, Json> = {};
  const handled = new Inbox<Handled>((h) => `handled ${h.id}`);
  let sentByChannel: Json = null;

  async function answer(interaction: Interaction): Promise<void> {
    if (!interaction.isChatInputCommand()) return;
    switch (interaction.commandName) {
      case 'file-reply':
        await interaction.reply({
          content: 'a chart',
          files: [new AttachmentBuilder(PNG, { name: 'chart.png', description: 'the chart' })],
          embeds: [{ title: 'chart', image: { url: 'attachment://chart.png' } }],
        });
        return;
      case 'file-edit':
        await interaction.deferReply();
        await interaction.editReply({
          content: 'later, with notes',
          files: [{ attachment: NOTES, name: 'notes.txt' }],
        });
        return;
      case 'file-follow-up':
        await interaction.reply('first');
        await interaction.followUp({ content: 'the file', files: [{ attachment: PNG, name: 'again.png' }] });
        return;
      case 'file-send': {
        const channel = await client.channels.fetch(interaction.channelId);
        if (!channel?.isSendable()) throw new Error('not sendable');
        sentByChannel = await channel.send({ content: 'posted', files: [{ attachment: NOTES, name: 'posted.txt' }] });
        await interaction.reply('done');
        return;
      }
      case 'file-echo': {
        const attachment = interaction.options.getAttachment('file', true);
        // As bots write it: discord.js downloads the URL itself, with no Authorization header.
        await interaction.reply({
          content: `${attachment.name} ${attachment.size} ${attachment.contentType} ${attachment.width}x${attachment.height}`,
          files: [new AttachmentBuilder(attachment.url, { name: `echo-${attachment.name}` })],
        });
        return;
      }
      case 'file-too-big':
        await interaction.deferReply();
        await interaction.editReply({
          files: [{ attachment: Buffer.alloc(ATTACHMENT_FILE_BYTES_MAX + 1), name: 'big.bin' }],
        });
        return;
    }
  }

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [...NAMES.map((name) => ({ name, description: name })), ECHO],
    });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        () => handled.push({ id: interaction.id, error: null }),
        (error: unknown) => handled.push({ id: interaction.id, error }),
      );
    });
    const ready = new Inbox<boolean>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push(true));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** Alice invokes a command in #general; resolves with what the bot's handler ended with. */
  async function invoke(name: string): Promise<{ id: string; error: unknown }> {
    const command = commands[name]!;
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.id, name: command.name, type: command.type, version: command.version },
      },
    });
    assert.equal(response.status, 200, response.text);
    return handled.find((h) => h.id === response.body.id, `the bot's handling of ${name}`);
  }

  /** Alice invokes `file-echo` with a file, as a client uploads one: multipart, the option naming `files[0]`. */
  async function invokeWithFile(bytes: Buffer, filename: string): Promise<{ id: string; error: unknown }> {
    const command = commands['file-echo']!;
    const form = new FormData();
    form.append(
      'payload_json',
      JSON.stringify({
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: {
          id: command.id,
          name: command.name,
          type: 1,
          version: command.version,
          options: [{ name: 'file', type: 11, value: 0 }],
        },
      }),
    );
    form.append('files[0]', new Blob([bytes]), filename);
    const response = await fetch(`${server.api}/interactions`, {
      method: 'POST',
      headers: { authorization: ALICE_TOKEN },
      body: form,
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    return handled.find((h) => h.id === body.id, 'the bot echoing the file');
  }

  async function answersTo(id: string): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE_TOKEN });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).filter((m) => m.interaction_metadata?.id === id).reverse();
  }

  test('reply({files}): the user reads the message, its image with dimensions, and downloads the same bytes', async () => {
    const { id, error } = await invoke('file-reply');
    assert.equal(error, null, String(error));
    const [message] = await answersTo(id);
    assert.equal(message.content, 'a chart');
    const [file] = message.attachments;
    assert.deepEqual(
      [file.filename, file.size, file.content_type, file.width, file.height, file.description],
      ['chart.png', PNG.length, 'image/png', 30, 20, 'the chart'],
    );
    assert.equal(message.embeds[0].image.url, file.url);
    assert.deepEqual((await download(file.url, ALICE_TOKEN)).bytes, PNG);
    assert.deepEqual((await download(file.url, BOB_TOKEN)).bytes, PNG, 'another member downloads it too');
    assert.equal(
      (await download(unsigned(file.url), CAROL_TOKEN)).status,
      403,
      'carol may not view #general without the signed URL',
    );
  });

  test('deferReply + editReply({files}): the edited answer has the file', async () => {
    const { id, error } = await invoke('file-edit');
    assert.equal(error, null, String(error));
    const [message] = await answersTo(id);
    assert.equal(message.content, 'later, with notes');
    assert.equal(message.attachments[0].filename, 'notes.txt');
    assert.deepEqual((await download(message.attachments[0].url, ALICE_TOKEN)).bytes, NOTES);
  });

  test('followUp({files}): the follow-up carries the file', async () => {
    const { id, error } = await invoke('file-follow-up');
    assert.equal(error, null, String(error));
    const messages = await answersTo(id);
    assert.deepEqual(
      messages.map((m) => m.content),
      ['first', 'the file'],
    );
    assert.deepEqual(messages[0].attachments, []);
    assert.deepEqual((await download(messages[1].attachments[0].proxy_url, ALICE_TOKEN)).bytes, PNG);
  });

  test('channel.send({files}): discord.js reads back the attachment, the user downloads it', async () => {
    const { error } = await invoke('file-send');
    assert.equal(error, null, String(error));
    const attachment = sentByChannel.attachments.first();
    assert.equal(attachment.name, 'posted.txt');
    assert.equal(attachment.size, NOTES.length);
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sentByChannel.id}`, {
      auth: ALICE_TOKEN,
    });
    assert.equal(read.body.attachments[0].url, attachment.url);
    assert.deepEqual((await download(attachment.url, ALICE_TOKEN)).bytes, NOTES);
  });

  test('an oversize file fails in the bot with v10 413 / 40005', async () => {
    const { error } = await invoke('file-too-big');
    assert.ok(error instanceof DiscordAPIError, `a DiscordAPIError, got ${String(error)}`);
    assert.equal(error.status, 413);
    assert.equal(error.code, 40005);
  });

  test('a user attaches a file to an ATTACHMENT option: the bot re-uploads it with new AttachmentBuilder(attachment.url), no token', async () => {
    const { id, error } = await invokeWithFile(PNG, 'photo.png');
    assert.equal(error, null, String(error));
    const [message] = await answersTo(id);
    assert.equal(message.content, `photo.png ${PNG.length} image/png 30x20`);
    assert.equal(message.attachments[0].filename, 'echo-photo.png');
    assert.deepEqual(
      (await download(message.attachments[0].url, ALICE_TOKEN)).bytes,
      PNG,
      'the same bytes, round trip',
    );
  });
});
