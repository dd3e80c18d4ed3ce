/**
 * Components and modals with an unmodified discord.js `Client` over the gateway ("Must show"):
 * the bot answers a command with a button and a string select (`reply` with components); the user
 * clicks (type 3) and the bot's `interaction.update()` (7) changes the message read back from the
 * channel; the select sends its values; a button's `showModal()` (9) shows in
 * `GET /interactions/{id}`, the user submits it (type 5) and the bot's `reply()` is readable;
 * the channel's MESSAGE_UPDATE reaches the bot. Every wait is on an event, with a guard for failure only.
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
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

interface Handled {
  id: string;
  error: unknown;
}

/** The bot: discord.js's own builders and interaction methods, nothing else. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isChatInputCommand()) {
    const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('ok').setLabel('OK').setStyle(ButtonStyle.Primary),
      new ButtonBuilder().setCustomId('form').setLabel('Form').setStyle(ButtonStyle.Secondary),
    );
    const select = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
      new StringSelectMenuBuilder()
        .setCustomId('pick')
        .setMinValues(1)
        .setMaxValues(2)
        .addOptions(
          { label: 'Red', value: 'red' },
          { label: 'Blue', value: 'blue' },
          { label: 'Green', value: 'green' },
        ),
    );
    await interaction.reply({ content: 'Panel', components: [buttons, select] });
    return;
  }
  if (interaction.isButton() && interaction.customId === 'ok') {
    await interaction.update({ content: `OK pressed by ${interaction.user.username} on ${interaction.message.id}` });
    return;
  }
  if (interaction.isStringSelectMenu()) {
    await interaction.update({ content: `picked ${interaction.values.join(' and ')}` });
    return;
  }
  if (interaction.isButton() && interaction.customId === 'form') {
    const topic = new TextInputBuilder().setCustomId('topic').setLabel('Topic').setStyle(TextInputStyle.Short);
    await interaction.showModal(
      new ModalBuilder()
        .setCustomId('feedback')
        .setTitle('Feedback')
        .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(topic)),
    );
    return;
  }
  if (interaction.isModalSubmit()) {
    await interaction.reply(`thanks for "${interaction.fields.getTextInputValue('topic')}" (${interaction.customId})`);
  }
}

describe('components and modals with an unmodified discord.js Client over the gateway', () => {
  let server: TestServer;
  let client: Client;
  let command: Json;
  let panelId: string;
  const handled = new Inbox<Handled>((h) => `handled ${h.id}`);
  const raw = new Inbox<Json>((p) => `${p.t}`);

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'panel', description: 'A panel' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0];
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      rest: { api: `${server.url}/api` },
    });
    client.on(Events.Raw, (packet: Json) => raw.push(packet));
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        () => handled.push({ id: interaction.id, error: null }),
        (error: unknown) => handled.push({ id: interaction.id, error }),
      );
    });
    const ready = new Inbox<Client<true>>(() => 'ready');
    client.once(Events.ClientReady, (c) => ready.push(c));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** Sends an interaction as alice; resolves with its id once the bot's handler has finished. */
  async function send(body: Json): Promise<string> {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: { application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, channel_id: GENERAL, ...body },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const done = await handled.find((h) => h.id === id, `the bot's handling of interaction ${id}`);
    assert.equal(done.error, null, `the bot's answer failed: ${String(done.error)}`);
    return id;
  }

  async function messages(): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function message(id: string): Promise<Json> {
    const found = (await messages()).find((m) => m.id === id);
    assert.ok(found, `message ${id} is in the channel`);
    return found;
  }

  const click = (customId: string, componentType: number, values?: string[]): Json => ({
    type: 3,
    message_id: panelId,
    data: { custom_id: customId, component_type: componentType, ...(values ? { values } : {}) },
  });

  test("the bot's reply carries a button and a select", async () => {
    const id = await send({
      type: 2,
      data: { id: command.id, name: 'panel', type: 1, version: command.version },
    });
    const panel = (await messages()).find((m) => m.interaction_metadata?.id === id);
    assert.ok(panel, 'the panel is in the channel');
    panelId = panel.id;
    assert.equal(panel.components[0].components[0].custom_id, 'ok');
    assert.equal(panel.components[1].components[0].type, 3);
  });

  test('a click reaches the bot as a ButtonInteraction; its update() edits the message', async () => {
    await send(click('ok', 2));
    const updated = await message(panelId);
    assert.equal(updated.content, `OK pressed by alice on ${panelId}`);
    assert.equal(updated.components.length, 2, 'the components stay');
    const dispatch = await raw.find(
      (p) => p.t === 'MESSAGE_UPDATE' && p.d.id === panelId && p.d.content === updated.content,
      'MESSAGE_UPDATE of the panel',
    );
    assert.equal(dispatch.d.channel_id, GENERAL);
  });

  test("a select's values reach the bot", async () => {
    await send(click('pick', 3, ['red', 'green']));
    assert.equal((await message(panelId)).content, 'picked red and green');
  });

  test('showModal() opens a modal; the submission reaches the bot, whose reply is readable', async () => {
    const opened = await send(click('form', 2));
    const status = await server.request('GET', `/interactions/${opened}`, { auth: ALICE });
    assert.equal(status.body.response.type, 9);
    assert.equal(status.body.response.data.custom_id, 'feedback');
    const input = status.body.response.data.components[0].components[0];
    assert.equal(input.custom_id, 'topic');

    const submitted = await send({
      type: 5,
      data: {
        custom_id: 'feedback',
        components: [{ type: 1, components: [{ type: 4, custom_id: 'topic', value: 'gateway' }] }],
      },
    });
    const reply = (await messages()).find((m) => m.interaction_metadata?.id === submitted);
    assert.ok(reply, 'the reply is in the channel');
    assert.equal(reply.content, 'thanks for "gateway" (feedback)');

    const again = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: {
        type: 5,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: {
          custom_id: 'feedback',
          components: [{ type: 1, components: [{ type: 4, custom_id: 'topic', value: 'twice' }] }],
        },
      },
    });
    assert.equal(again.status, 400, 'a modal is submitted once');
  });
});
