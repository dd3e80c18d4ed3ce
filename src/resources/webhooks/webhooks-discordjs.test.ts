/**
 * discord.js as its users drive webhooks, against slashd: a bot logged in over the gateway with
 * GUILD_WEBHOOKS makes one with `channel.createWebhook({ name, avatar })` (refused with 50013
 * before it holds MANAGE_WEBHOOKS), is told WEBHOOKS_UPDATE, finds it with `guild.fetchWebhooks()`
 * and `channel.fetchWebhooks()`, sends through it with `webhook.send({ content, files, embeds })`
 * (its MESSAGE_CREATE carries `webhook_id`), edits with `webhook.editMessage`, and deletes it with
 * `webhook.delete()`. A `WebhookClient` posts with the id and token alone (`rest.api` pointing at
 * slashd); its `url` form parses only discord.com URLs, so it takes a discord.com URL whose id and
 * token are slashd's, and refuses slashd's own URL before any request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  WebhookClient,
  type Message,
  type TextChannel,
  type Webhook,
} from 'discord.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

describe('discord.js webhooks: createWebhook, fetchWebhooks, send, editMessage, delete, WebhookClient', () => {
  let server: TestServer;
  let client: Client;
  let channel: TextChannel;
  let hook: Webhook;
  const updates = new Inbox<string>((channelId) => channelId);
  const created = new Inbox<Message>((message) => message.id);
  const avatar = pngImage(4, 4);

  before(async () => {
    server = await startServer();
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.GuildWebhooks,
        GatewayIntentBits.MessageContent,
      ],
      rest: { api: `${server.url}/api`, cdn: server.url },
    });
    client.on(Events.WebhooksUpdate, (updated) => updates.push(updated.id));
    client.on(Events.MessageCreate, (message) => created.push(message));
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    const fetched = await client.channels.fetch(GENERAL);
    assert.equal(fetched?.type, ChannelType.GuildText);
    channel = fetched;
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  test('createWebhook without MANAGE_WEBHOOKS: 50013', async () => {
    await assert.rejects(channel.createWebhook({ name: 'Deploys' }), v10Error(403, 50013));
  });

  test('createWebhook({ name, avatar }): the webhook with its token; WEBHOOKS_UPDATE; the avatar at avatarURL()', async () => {
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
    hook = await channel.createWebhook({ name: 'Deploys', avatar, reason: 'CI notices' });
    assert.equal(hook.name, 'Deploys');
    assert.equal(hook.channelId, GENERAL);
    assert.equal(hook.guildId, TEST_GUILD_ID);
    assert.equal(hook.applicationId, DEMO_APP_ID);
    assert.equal(hook.owner?.id, DEMO_APP_ID);
    assert.equal(hook.token?.length, 68);
    assert.ok(hook.isIncoming());
    assert.equal(await updates.find((id) => id === GENERAL, 'WEBHOOKS_UPDATE'), GENERAL);
    const url = hook.avatarURL({ extension: 'png' });
    assert.ok(url?.startsWith(`${server.url}/avatars/${hook.id}/`), String(url));
    const image = await fetch(url!);
    assert.equal(image.status, 200);
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), avatar);
  });

  test('a bad name: 50035 at name', async () => {
    await assert.rejects(channel.createWebhook({ name: 'discord bot' }), (error: any) => {
      v10Error(400, 50035)(error);
      assert.equal(error.rawError.errors.name._errors[0].code, 'WEBHOOK_INVALID_USERNAME');
      return true;
    });
  });

  test('guild.fetchWebhooks() and channel.fetchWebhooks() find it (without its token)', async () => {
    const inGuild = await channel.guild.fetchWebhooks();
    assert.deepEqual([...inGuild.keys()], [hook.id]);
    const inChannel = await channel.fetchWebhooks();
    assert.equal(inChannel.get(hook.id)?.name, 'Deploys');
    assert.equal(inChannel.get(hook.id)?.token, null);
  });

  let sent: Message;
  test('webhook.send({ content, files, embeds }): the message written by the webhook, told as MESSAGE_CREATE', async () => {
    sent = await hook.send({
      content: 'deploy done',
      files: [{ attachment: Buffer.from('all green\n'), name: 'build.log' }],
      embeds: [{ title: 'v1.2.3', description: 'shipped' }],
      username: 'Release bot',
    });
    assert.equal(sent.webhookId, hook.id);
    assert.equal(sent.author.id, hook.id);
    assert.equal(sent.author.username, 'Release bot');
    assert.equal(sent.author.bot, true);
    assert.equal(sent.content, 'deploy done');
    assert.equal(sent.embeds[0]?.title, 'v1.2.3');
    const file = sent.attachments.first();
    assert.equal(file?.name, 'build.log');
    assert.equal(await (await fetch(file.url)).text(), 'all green\n');
    const dispatched = await created.find((message) => message.id === sent.id, 'MESSAGE_CREATE');
    assert.equal(dispatched.webhookId, hook.id);
    assert.equal(dispatched.channelId, GENERAL);
  });

  test('webhook.editMessage and webhook.fetchMessage', async () => {
    const edited = await hook.editMessage(sent, { content: 'deploy done (edited)' });
    assert.equal(edited.content, 'deploy done (edited)');
    assert.ok(edited.editedTimestamp);
    const fetched = await hook.fetchMessage(sent.id);
    assert.equal(fetched.content, 'deploy done (edited)');
    assert.equal(fetched.attachments.size, 1, 'an edit keeps the files');
  });

  test('new WebhookClient({ id, token }, { rest: { api } }) posts as the webhook', async () => {
    const webhookClient = new WebhookClient(
      { id: hook.id, token: hook.token! },
      { rest: { api: `${server.url}/api` } },
    );
    try {
      const message = await webhookClient.send({ content: 'from a WebhookClient' });
      assert.equal(message.webhook_id, hook.id);
      assert.equal(message.author.username, 'Deploys');
      await webhookClient.deleteMessage(message.id);
      await assert.rejects(webhookClient.fetchMessage(message.id), v10Error(404, 10008));
    } finally {
      webhookClient.destroy();
    }
  });

  test('WebhookClient({ url }): a discord.com URL carrying slashd’s id and token works; slashd’s own URL is refused by discord.js', async () => {
    const viaDiscordUrl = new WebhookClient(
      { url: `https://discord.com/api/webhooks/${hook.id}/${hook.token}` },
      { rest: { api: `${server.url}/api` } },
    );
    try {
      const message = await viaDiscordUrl.send({ content: 'through a discord.com URL' });
      assert.equal(message.webhook_id, hook.id);
    } finally {
      viaDiscordUrl.destroy();
    }
    assert.throws(
      () => new WebhookClient({ url: `${server.url}/api/webhooks/${hook.id}/${hook.token}` }),
      (error: any) => error.code === 'WebhookURLInvalid',
    );
  });

  test('webhook.delete(): gone, WEBHOOKS_UPDATE again, its token answers 10015', async () => {
    const token = hook.token!;
    await hook.delete('no longer needed');
    assert.equal((await updates.findMany(2, (id) => id === GENERAL, 'the second WEBHOOKS_UPDATE')).length, 2);
    assert.equal((await channel.fetchWebhooks()).size, 0);
    const stale = new WebhookClient({ id: hook.id, token }, { rest: { api: `${server.url}/api` } });
    try {
      await assert.rejects(stale.send('still there?'), v10Error(404, 10015));
    } finally {
      stale.destroy();
    }
  });
});
