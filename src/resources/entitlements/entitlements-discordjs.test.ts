/**
 * The monetization sandbox through an unmodified discord.js `Client`, as a premium bot uses it:
 * `application.fetchSKUs()`, `entitlements.createTest({ sku, user })` and its ENTITLEMENT_CREATE
 * (`entitlementCreate`), `entitlements.fetch()` with its filters, a command gated on
 * `interaction.entitlements` answering "premium" only once the user holds the SKU, `consume()` of a
 * consumable (`entitlementUpdate`), and `deleteTest()` (`entitlementDelete`), after which the
 * command is gated again. Every wait is on an event.
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
  type Entitlement,
  type Interaction,
} from 'discord.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

const PREMIUM_SKU = '1400000000000000001';
const COINS_SKU = '1400000000000000002';

interface Answered {
  id: string;
  content: string;
}

/** The bot: `/premium` answers by what `interaction.entitlements` holds. */
async function answer(interaction: Interaction, answered: Inbox<Answered>): Promise<void> {
  if (!interaction.isChatInputCommand() && !interaction.isButton()) return;
  const premium = interaction.entitlements.some((e) => e.skuId === PREMIUM_SKU && e.isActive());
  const content = premium ? 'premium: welcome' : 'premium only';
  const again = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId('again').setLabel('Again').setStyle(ButtonStyle.Primary),
  );
  await interaction.reply({ content, components: [again] });
  answered.push({ id: interaction.id, content });
}

describe('entitlements and SKUs with an unmodified discord.js Client', () => {
  let server: TestServer;
  let client: Client<true>;
  let command: Json;
  const answered = new Inbox<Answered>((a) => `answer to ${a.id}`);
  const events = new Inbox<{ t: string; entitlement: Entitlement }>((e) => `${e.t} ${e.entitlement.id}`);

  before(async () => {
    server = await startServer();
    const skus = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}/skus`, {
      auth: ADMIN_AUTH,
      body: [
        { id: PREMIUM_SKU, type: 2, name: 'Premium' },
        { id: COINS_SKU, type: 3, name: '100 coins' },
      ],
    });
    assert.equal(skus.status, 200, skus.text);
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'premium', description: 'For premium users' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0];
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => void answer(interaction, answered));
    client.on(Events.EntitlementCreate, (entitlement) => events.push({ t: 'create', entitlement }));
    client.on(Events.EntitlementUpdate, (_old, entitlement) => events.push({ t: 'update', entitlement }));
    client.on(Events.EntitlementDelete, (entitlement) => events.push({ t: 'delete', entitlement }));
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

  /** Alice invokes /premium; the bot's answer. */
  async function invokePremium(): Promise<string> {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.id, name: command.name, type: 1, version: command.version },
      },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    return (await answered.find((a) => a.id === id, `the answer to ${id}`)).content;
  }

  /** Alice clicks Again on the bot's newest answer; the bot's answer to the click. */
  async function clickAgain(): Promise<string> {
    const read = await server.request('GET', `/channels/${GENERAL}/messages?limit=1`, { auth: ALICE_TOKEN });
    const message = (read.body as Json[])[0];
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 3,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        message_id: message.id,
        data: { custom_id: 'again', component_type: 2 },
      },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    return (await answered.find((a) => a.id === id, `the answer to click ${id}`)).content;
  }

  test('fetchSKUs(): the SKUs the admin API defined, as v10 objects', async () => {
    const skus = await client.application.fetchSKUs();
    assert.deepEqual(
      [...skus.values()].map((sku) => [sku.id, sku.type, sku.name, sku.slug]),
      [
        [PREMIUM_SKU, 2, 'Premium', 'premium'],
        [COINS_SKU, 3, '100 coins', '100-coins'],
      ],
    );
  });

  test('a command gated on interaction.entitlements: refused, then granted by a test entitlement', async () => {
    assert.equal(await invokePremium(), 'premium only');
    const created = await client.application.entitlements.createTest({ sku: PREMIUM_SKU, user: ALICE_ID });
    assert.equal(created.userId, ALICE_ID);
    assert.equal(created.skuId, PREMIUM_SKU);
    assert.ok(created.isTest(), 'a test entitlement (type 4)');
    const told = await events.find((e) => e.t === 'create' && e.entitlement.id === created.id, 'entitlementCreate');
    assert.equal(told.entitlement.skuId, PREMIUM_SKU);
    assert.equal(await invokePremium(), 'premium: welcome');
    assert.equal(await clickAgain(), 'premium: welcome', "a button's click carries the entitlements too");

    const listed = await client.application.entitlements.fetch({ user: ALICE_ID, skus: [PREMIUM_SKU] });
    assert.deepEqual([...listed.keys()], [created.id]);
    const none = await client.application.entitlements.fetch({ guild: TEST_GUILD_ID });
    assert.equal(none.size, 0, 'no guild entitlement');
    const one = await client.application.entitlements.fetch({ entitlement: created.id, force: true });
    assert.equal(one.id, created.id);

    await client.application.entitlements.deleteTest(created);
    const deleted = await events.find((e) => e.t === 'delete' && e.entitlement.id === created.id, 'entitlementDelete');
    assert.equal(deleted.entitlement.deleted, true);
    assert.equal(await invokePremium(), 'premium only');
    assert.equal(await clickAgain(), 'premium only');
    const active = await client.application.entitlements.fetch({ user: ALICE_ID, excludeDeleted: true });
    assert.equal(active.size, 0, 'a deleted entitlement is left out');
  });

  test('consume(): a consumable is consumed once (entitlementUpdate); a durable one cannot be', async () => {
    const coins = await client.application.entitlements.createTest({ sku: COINS_SKU, user: ALICE_ID });
    await events.find((e) => e.t === 'create' && e.entitlement.id === coins.id, 'entitlementCreate');
    await client.application.entitlements.consume(coins.id);
    const updated = await events.find((e) => e.t === 'update' && e.entitlement.id === coins.id, 'entitlementUpdate');
    assert.equal(updated.entitlement.consumed, true);
    const read = await client.application.entitlements.fetch({ entitlement: coins.id, force: true });
    assert.equal(read.consumed, true);

    const premium = await client.application.entitlements.createTest({ sku: PREMIUM_SKU, user: ALICE_ID });
    await assert.rejects(client.application.entitlements.consume(premium.id), (error: Json) => {
      assert.equal(error.status, 400);
      assert.equal(error.code, 50035);
      return true;
    });
  });
});
