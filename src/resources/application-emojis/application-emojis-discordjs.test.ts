/**
 * Application emojis through an unmodified discord.js `Client`, as a bot uses them: it makes one
 * with `client.application.emojis.create({ attachment, name })` (its `author` the bot), finds it
 * in `emojis.fetch()`, reads its image at `emoji.imageURL()`, answers a command with it in the
 * reply's content (`${emoji}`) and on a button (`setEmoji`), and reacts with it (`message.react`)
 * on that reply and on a message in a second guild, neither of which holds it; `emoji.edit` and
 * `emoji.delete`. Every wait is on an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  type ApplicationEmoji,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import { grantBotBits, installBot } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

describe('application emojis with an unmodified discord.js Client', () => {
  let server: TestServer;
  let client: Client<true>;
  let emoji: ApplicationEmoji;
  let command: Json;
  const image = pngImage(8, 8);
  const replied = new Inbox<{ interaction: string; message: string }>((r) => `reply to ${r.interaction}`);

  /** The bot: `/mascot` answers with its own emoji in the content and on a button, then reacts with it. */
  async function answer(interaction: Interaction): Promise<void> {
    if (!interaction.isChatInputCommand()) return;
    const mine = await client.application.emojis.fetch(emoji.id);
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('pet').setLabel('Pet').setStyle(ButtonStyle.Primary).setEmoji({ id: mine.id }),
    );
    const response = await interaction.reply({
      content: `Here it is: ${mine.toString()}`,
      components: [row],
      withResponse: true,
    });
    const message = response.resource!.message!;
    await message.react(mine);
    replied.push({ interaction: interaction.id, message: message.id });
  }

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.AddReactions);
    const { ViewChannel, SendMessages, ReadMessageHistory, AddReactions } = PermissionFlagsBits;
    await installBot(
      server,
      SECOND_GUILD_ID,
      DEMO_APP_ID,
      ViewChannel | SendMessages | ReadMessageHistory | AddReactions,
    );
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'mascot', description: 'Shows the mascot' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0];
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.GuildMessageReactions],
      rest: { api: `${server.url}/api`, cdn: server.url },
    });
    client.on(Events.InteractionCreate, (interaction) => void answer(interaction));
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    await client.application.fetch();
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  test('application.emojis.create({ attachment, name }): the emoji, its author the bot, its image; fetch() lists it', async () => {
    emoji = await client.application.emojis.create({ attachment: image, name: 'mascot' });
    assert.equal(emoji.name, 'mascot');
    assert.equal(emoji.animated, false);
    assert.equal(emoji.author?.id, DEMO_APP_ID);
    assert.equal(emoji.author?.bot, true);
    const url = emoji.imageURL({ extension: 'png' });
    assert.equal(url, `${server.url}/emojis/${emoji.id}.png`);
    assert.deepEqual(Buffer.from(await (await fetch(url)).arrayBuffer()), image);
    const listed = await client.application.emojis.fetch();
    assert.deepEqual(
      [...listed.values()].map((e) => [e.id, e.name]),
      [[emoji.id, 'mascot']],
    );
    await assert.rejects(client.application.emojis.create({ attachment: image, name: 'mascot' }), (error: any) => {
      assert.equal(error.rawError.errors.name._errors[0].code, 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN');
      return true;
    });
  });

  test('the reply to a command carries it in content and on a button, and the bot reacts with it', async () => {
    const invoked = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.id, name: command.name, type: 1, version: command.version },
      },
    });
    assert.equal(invoked.status, 200, invoked.text);
    const { message } = await replied.find((r) => r.interaction === invoked.body.id, 'the reply');
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${message}`, { auth: ALICE_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.content, `Here it is: <:mascot:${emoji.id}>`);
    assert.equal(read.body.components[0].components[0].emoji.id, emoji.id);
    assert.deepEqual(
      read.body.reactions.map((r: Json) => [r.emoji.id, r.emoji.name, r.count]),
      [[emoji.id, 'mascot', 1]],
    );
  });

  test('it reacts with it in a second guild too; a rename shows in the reaction, a delete removes it', async () => {
    const channel = (await client.channels.fetch(SECOND_GUILD_CHANNEL)) as TextChannel;
    const sent = await channel.send(`elsewhere ${emoji.toString()}`);
    const reaction = await sent.react(emoji);
    assert.equal(reaction.emoji.id, emoji.id);
    const renamed = await emoji.edit({ name: 'mascot_two' });
    assert.equal(renamed.name, 'mascot_two');
    const fetched = await channel.messages.fetch({ message: sent.id, force: true });
    assert.deepEqual(
      [...fetched.reactions.cache.values()].map((r) => [r.emoji.id, r.emoji.name, r.count, r.me]),
      [[emoji.id, 'mascot_two', 1, true]],
    );
    await renamed.delete();
    assert.equal((await client.application.emojis.fetch(undefined, { force: true })).size, 0);
    await assert.rejects(sent.react(`mascot_two:${emoji.id}`), (error: any) => error.code === 10014);
  });
});
