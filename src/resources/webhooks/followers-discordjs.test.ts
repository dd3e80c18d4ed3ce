/**
 * discord.js as its users drive issue 37's second half, against slashd over the gateway: an
 * announcement channel's `addFollower(#general)` makes a channel follower webhook; `message.crosspost()`
 * publishes a message (MESSAGE_UPDATE with CROSSPOSTED, the copy's MESSAGE_CREATE in #general with
 * IS_CROSSPOST and a reference to the original); `webhook.send({ poll })` and a `WebhookClient` made
 * from a webhook URL post polls users vote in; `interaction.reply({ poll })` and
 * `interaction.followUp({ poll })` do too; `avatarURL` shows on the author; and a button on an app's
 * webhook message, clicked by a user, reaches the bot as a ButtonInteraction whose `update()` edits it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  PermissionFlagsBits,
  WebhookClient,
  type Interaction,
  type Message,
  type NewsChannel,
  type PartialMessage,
  type TextChannel,
  type Webhook,
} from 'discord.js';
import type { World } from '../../core/world/types.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { announcementWorld } from '../../../test/helpers/announcement-world.js';

type Json = any;

const SEND_POLLS = 1n << 49n;

/** #announcements an announcement channel; everyone may send polls. */
function world(): World {
  const made = announcementWorld();
  const everyone = made.guilds.find((g) => g.id === TEST_GUILD_ID)!.roles.find((r) => r.id === TEST_GUILD_ID)!;
  everyone.permissions = (BigInt(everyone.permissions) | SEND_POLLS).toString();
  return made;
}

const POLL = {
  question: { text: 'Ship it?' },
  answers: [{ text: 'Yes' }, { text: 'No' }],
  duration: 4,
  allowMultiselect: false,
};

/** What the bot does with an interaction: discord.js's own methods only. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isChatInputCommand()) {
    await interaction.reply({ poll: POLL });
    await interaction.followUp({ poll: { ...POLL, question: { text: 'And the docs?' } } });
    return;
  }
  if (interaction.isButton()) {
    await interaction.update({ content: `approved by ${interaction.user.username}` });
  }
}

describe('discord.js: addFollower, crosspost, polls through webhooks and interactions, clicks on webhook messages', () => {
  let server: TestServer;
  let client: Client;
  let news: NewsChannel;
  let general: TextChannel;
  let hook: Webhook;
  let command: Json;
  const created = new Inbox<Message>((m) => `${m.channelId}/${m.id}`);
  const updated = new Inbox<Message | PartialMessage>((m) => m.id);
  const votes = new Inbox<{ messageId: string; answerId: number; userId: string }>((v) => `${v.messageId} ${v.userId}`);
  const handled = new Inbox<{ id: string; error: unknown }>((h) => h.id);

  before(async () => {
    server = await startServer({ world: world() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'vote', description: 'A poll' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = deployed.body[0];
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.GuildWebhooks,
        GatewayIntentBits.MessageContent,
        GatewayIntentBits.GuildMessagePolls,
      ],
      rest: { api: `${server.url}/api`, cdn: server.url },
    });
    client.on(Events.MessageCreate, (message) => created.push(message));
    client.on(Events.MessageUpdate, (_old, message) => updated.push(message));
    client.on(Events.MessagePollVoteAdd, (pollAnswer, userId) =>
      votes.push({ messageId: pollAnswer.poll.messageId, answerId: pollAnswer.id, userId }),
    );
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        () => handled.push({ id: interaction.id, error: null }),
        (error: unknown) => handled.push({ id: interaction.id, error }),
      );
    });
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    const announcements = await client.channels.fetch(ANNOUNCEMENTS);
    assert.equal(announcements?.type, ChannelType.GuildAnnouncement);
    news = announcements;
    general = (await client.channels.fetch(GENERAL)) as TextChannel;
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** A user's interaction; resolves once the bot's handler has finished without error. */
  async function invoke(body: Json): Promise<string> {
    const sent = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: { application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, channel_id: GENERAL, ...body },
    });
    assert.equal(sent.status, 200, sent.text);
    const done = await handled.find((h) => h.id === sent.body.id, `the bot's answer to ${sent.body.id}`);
    assert.equal(done.error, null, `the bot's answer failed: ${String(done.error)}`);
    return sent.body.id;
  }

  function vote(messageId: string, answerIds: number[]) {
    return server.request('PUT', `/channels/${GENERAL}/polls/${messageId}/answers/@me`, {
      auth: BOB_TOKEN,
      body: { answer_ids: answerIds },
    });
  }

  /** Bob votes for the first answer; the bot is told, and the count reads back on the message. */
  async function voteWorks(messageId: string): Promise<void> {
    assert.equal((await vote(messageId, [1])).status, 204);
    await votes.find((v) => v.messageId === messageId && v.userId === BOB_ID, `Bob's vote on ${messageId}`);
    const fetched = await general.messages.fetch({ message: messageId, force: true });
    assert.equal(fetched.poll?.answers.get(1)?.voteCount, 1);
  }

  test('news.addFollower(#general): a channel follower webhook in #general', async () => {
    assert.equal(await news.addFollower(GENERAL, 'mirror the news'), news);
    const hooks = await general.fetchWebhooks();
    const follower = hooks.find((w) => w.isChannelFollower());
    assert.ok(follower, 'a type 2 webhook in #general');
    assert.equal(follower.sourceChannel?.id, ANNOUNCEMENTS);
    assert.equal(follower.sourceGuild?.id, TEST_GUILD_ID);
  });

  test('message.crosspost(): CROSSPOSTED on the original, the copy in #general', async () => {
    const message = await news.send('Version 3 released');
    assert.equal(message.crosspostable, true);
    await message.crosspost();
    const update = await updated.find(
      (m) => m.id === message.id && m.flags?.has(MessageFlags.Crossposted) === true,
      'MESSAGE_UPDATE with CROSSPOSTED',
    );
    assert.equal(update.channelId, ANNOUNCEMENTS);
    const copy = await created.find(
      (m) => m.channelId === GENERAL && m.reference?.messageId === message.id,
      'the copy’s MESSAGE_CREATE',
    );
    assert.equal(copy.content, 'Version 3 released');
    assert.ok(copy.flags.has(MessageFlags.IsCrosspost));
    assert.equal(copy.reference?.channelId, ANNOUNCEMENTS);
    assert.equal(copy.reference?.guildId, TEST_GUILD_ID);
    assert.ok(copy.webhookId, 'written by the follower webhook');
    await assert.rejects(message.crosspost(), (error: any) => error.code === 40033);
  });

  test('webhook.send({ poll }): the poll reads back, and votes count', async () => {
    hook = await general.createWebhook({ name: 'Polls' });
    const message = await hook.send({ poll: POLL, avatarURL: 'https://images.example/owl.png' });
    assert.equal(message.poll?.question.text, 'Ship it?');
    assert.deepEqual(
      [...message.poll.answers.values()].map((a) => a.text),
      ['Yes', 'No'],
    );
    const hash = createHash('sha256').update('https://images.example/owl.png').digest('hex').slice(0, 32);
    assert.equal(message.author.avatar, hash, 'the avatarURL override shows on the author');
    await voteWorks(message.id);
  });

  test('a WebhookClient from the webhook’s URL sends a poll', async () => {
    const webhookClient = new WebhookClient(
      { url: `https://discord.com/api/webhooks/${hook.id}/${hook.token}` },
      { rest: { api: `${server.url}/api` } },
    );
    try {
      const message = await webhookClient.send({ poll: { ...POLL, question: { text: 'Lunch?' } } });
      assert.equal(message.poll?.question.text, 'Lunch?');
      assert.equal(message.webhook_id, hook.id);
      await voteWorks(message.id);
    } finally {
      webhookClient.destroy();
    }
  });

  test('interaction.reply({ poll }) and followUp({ poll }): both polls stored, both voted in', async () => {
    const id = await invoke({ type: 2, data: { id: command.id, name: 'vote', type: 1, version: command.version } });
    const listed = await server.request('GET', `/channels/${GENERAL}/messages?limit=20`, { auth: BOT });
    const answers = (listed.body as Json[]).filter((m) => m.interaction_metadata?.id === id);
    assert.deepEqual(answers.map((m) => m.poll?.question.text).sort(), ['And the docs?', 'Ship it?']);
    for (const message of answers) await voteWorks(message.id);
  });

  test('a button on the app’s webhook message: the click reaches the bot, whose update() edits it', async () => {
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('approve').setLabel('Approve').setStyle(ButtonStyle.Success),
    );
    const message = await hook.send({ content: 'Deploy to production?', components: [row] });
    assert.equal(message.components.length, 1);
    await invoke({ type: 3, message_id: message.id, data: { custom_id: 'approve', component_type: 2 } });
    const fetched = await general.messages.fetch({ message: message.id, force: true });
    assert.equal(fetched.content, 'approved by alice');
    assert.equal(fetched.webhookId, hook.id, 'still the webhook’s message');
  });
});
