/**
 * An unmodified discord.js `Client` over the gateway, sending what its own builders would have
 * caught (raw component JSON, as many bots do): `interaction.reply()` with a button without
 * `custom_id` rejects with discord.js's DiscordAPIError 50035 naming
 * `data.components[0].components[0].custom_id`, and the same interaction then takes a valid reply;
 * `channel.send()` with a `javascript:` embed link rejects at `embeds[0].url`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, DiscordAPIError, Events, GatewayIntentBits, type Interaction, type TextChannel } from 'discord.js';
import * as codes from '../../core/io/codes.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import type { Json } from '../../../test/helpers/json.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

interface Handled {
  id: string;
  refusal: unknown;
}

/** A row whose button has no custom_id, typed loosely as in a JavaScript bot (TypeScript's types catch it). */
const NO_CUSTOM_ID: any = { type: 1, components: [{ type: 2, style: 1, label: 'Go' }] };

/** The bot: a first reply with a button that has no custom_id, then a valid one. */
async function answer(interaction: Interaction): Promise<unknown> {
  if (!interaction.isChatInputCommand()) return null;
  let refusal: unknown = null;
  try {
    await interaction.reply({ content: 'Panel', components: [NO_CUSTOM_ID] });
  } catch (error) {
    refusal = error;
  }
  await interaction.reply({
    content: 'Panel',
    components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }],
  });
  return refusal;
}

describe('discord.js gets v10 refusals of bad components and embeds', () => {
  let server: TestServer;
  let client: Client;
  let command: Json;
  const handled = new Inbox<Handled>((h) => `handled ${h.id}`);

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'panel', description: 'A panel' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0]!;
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        (refusal) => handled.push({ id: interaction.id, refusal }),
        (error: unknown) => handled.push({ id: interaction.id, refusal: error }),
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

  test('reply() with a button without custom_id: DiscordAPIError 50035 at its path; the valid reply follows', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: invocationBody(command),
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const { refusal } = await handled.find((h) => h.id === id, `the bot's handling of ${id}`);
    assert.ok(refusal instanceof DiscordAPIError, `a DiscordAPIError, got ${String(refusal)}`);
    assert.equal(refusal.code, 50035);
    assert.equal(refusal.status, 400);
    assert.match(
      refusal.message,
      /data\.components\[0\]\.components\[0\]\.custom_id\[BUTTON_COMPONENT_CUSTOM_ID_REQUIRED\]: A custom id is required/,
    );
    const errors = (refusal.rawError as Json).errors;
    assert.equal(
      errors.data.components['0'].components['0'].custom_id._errors[0].code,
      codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED,
    );

    const messages = await server.request('GET', `/channels/${GENERAL}/messages?limit=50`, { auth: ALICE });
    const answers = (messages.body as Json[]).filter((m) => m.interaction_metadata?.id === id);
    assert.equal(answers.length, 1, 'only the valid reply is in the channel');
    assert.equal(answers[0]!.components[0].components[0].custom_id, 'go');
  });

  test('channel.send() with a javascript: embed link: DiscordAPIError at embeds[0].url', async () => {
    const channel = (await client.channels.fetch(GENERAL)) as TextChannel;
    const refusal = await channel
      .send({ embeds: [{ title: 'Click me', url: 'javascript:alert(document.cookie)' }] })
      .then(
        () => null,
        (error: unknown) => error,
      );
    assert.ok(refusal instanceof DiscordAPIError, `a DiscordAPIError, got ${String(refusal)}`);
    assert.equal(refusal.code, 50035);
    assert.match(refusal.message, /embeds\[0\]\.url\[URL_TYPE_INVALID_SCHEME\]/);
    const sent = await channel.send({ embeds: [{ title: 'Click me', url: 'https://example.com' }] });
    assert.equal(sent.embeds[0]?.url, 'https://example.com');
  });
});
