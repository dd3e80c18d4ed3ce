/**
 * Premium buttons and subscriptions through an unmodified discord.js `Client`, as a premium bot
 * uses them: the bot answers `/shop` with a premium button (`ButtonStyle.Premium`, `setSKUId`) of
 * its subscription SKU, and is refused (50035 at the button's `sku_id`) a premium button of
 * another app's SKU in a reply, a follow-up, a channel message and an edit; the user "clicks" the
 * premium button through the console's API (a sandbox purchase), the bot is told
 * (`subscriptionCreate`, `entitlementCreate`) and then sees the entitlement in
 * `interaction.entitlements`; `application.subscriptions.fetch()` lists and reads it; the admin
 * API's cancel and end are `subscriptionUpdate`s, after which the entitlement is gone from clicks.
 * Every wait is on an event.
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
  SubscriptionStatus,
  type Interaction,
  type Subscription,
  type TextChannel,
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
  OTHER_APP_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

const MONTHLY = '1400000000000000003';
const OTHERS_SKU = '1400000000000000031';

function premiumRow(skuId: string): ActionRowBuilder<ButtonBuilder> {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setStyle(ButtonStyle.Premium).setSKUId(skuId),
    new ButtonBuilder().setCustomId('check').setLabel('Check').setStyle(ButtonStyle.Secondary),
  );
}

/** What a refused call was refused with: its status, code and the paths of its field errors. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'accepted';
  } catch (error) {
    const e = error as Json;
    const paths: string[] = [];
    const walk = (node: Json, at: string[]) => {
      if (node?._errors) paths.push(at.join('.'));
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...at, k]);
    };
    walk(e.rawError?.errors, []);
    return `${e.status} ${e.code} ${paths.join(',')}`;
  }
}

interface Answered {
  id: string;
  content: string;
  refusals: string[];
}

/** The bot: `/shop` offers the subscription (after trying another app's SKU), Check says what the user holds. */
async function answer(interaction: Interaction, answered: Inbox<Answered>): Promise<void> {
  if (interaction.isChatInputCommand() && interaction.commandName === 'shop') {
    const refusals = [await refusal(interaction.reply({ content: 'Buy', components: [premiumRow(OTHERS_SKU)] }))];
    await interaction.reply({ content: 'Subscribe to Monthly', components: [premiumRow(MONTHLY)] });
    refusals.push(await refusal(interaction.followUp({ content: 'or', components: [premiumRow(OTHERS_SKU)] })));
    refusals.push(await refusal(interaction.editReply({ components: [premiumRow(OTHERS_SKU)] })));
    answered.push({ id: interaction.id, content: 'shop', refusals });
  } else if (interaction.isButton() && interaction.customId === 'check') {
    const held = interaction.entitlements.filter((e) => e.skuId === MONTHLY && e.isActive());
    const content = held.size > 0 ? `subscribed (${[...held.keys()].join(',')})` : 'not subscribed';
    await interaction.reply({ content });
    answered.push({ id: interaction.id, content, refusals: [] });
  }
}

describe('premium buttons and subscriptions with an unmodified discord.js Client', () => {
  let server: TestServer;
  let client: Client<true>;
  let command: Json;
  let shopMessage: Json;
  const answered = new Inbox<Answered>((a) => `answer to ${a.id}`);
  const subscriptionEvents = new Inbox<{ t: string; subscription: Subscription }>(
    (e) => `${e.t} ${e.subscription.id} ${e.subscription.status}`,
  );
  const entitlementEvents = new Inbox<{ t: string; id: string; skuId: string }>((e) => `${e.t} ${e.id}`);

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    for (const [app, skus] of [
      [DEMO_APP_ID, [{ id: MONTHLY, type: 5, name: 'Monthly' }]],
      [OTHER_APP_ID, [{ id: OTHERS_SKU, type: 2, name: 'Not yours' }]],
    ] as const) {
      const put = await server.request('PUT', `${server.url}/admin/applications/${app}/skus`, {
        auth: ADMIN_AUTH,
        body: skus,
      });
      assert.equal(put.status, 200, put.text);
    }
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'shop', description: 'The shop' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0];
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => void answer(interaction, answered));
    client.on(Events.SubscriptionCreate, (subscription) => subscriptionEvents.push({ t: 'create', subscription }));
    client.on(Events.SubscriptionUpdate, (_old, subscription) =>
      subscriptionEvents.push({ t: 'update', subscription }),
    );
    client.on(Events.EntitlementCreate, (e) => entitlementEvents.push({ t: 'create', id: e.id, skuId: e.skuId }));
    client.on(Events.EntitlementUpdate, (_o, e) => entitlementEvents.push({ t: 'update', id: e.id, skuId: e.skuId }));
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

  async function interact(body: Json): Promise<Answered> {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: { application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, channel_id: GENERAL, ...body },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    return answered.find((a) => a.id === id, `the answer to ${id}`);
  }

  const clickCheck = () =>
    interact({ type: 3, message_id: shopMessage.id, data: { custom_id: 'check', component_type: 2 } });

  test("a reply with a premium button of the app's SKU; another app's SKU is refused everywhere", async () => {
    const shop = await interact({
      type: 2,
      data: { id: command.id, name: command.name, type: 1, version: command.version },
    });
    const refused = '400 50035 data.components.0.components.0.sku_id';
    assert.deepEqual(shop.refusals, [
      refused,
      '400 50035 components.0.components.0.sku_id',
      '400 50035 components.0.components.0.sku_id',
    ]);
    const read = await server.request('GET', `/channels/${GENERAL}/messages?limit=2`, { auth: ALICE_TOKEN });
    shopMessage = (read.body as Json[]).find((m) => m.content === 'Subscribe to Monthly');
    assert.ok(shopMessage, 'the reply is in the channel, unedited');
    assert.deepEqual(shopMessage.components[0].components[0], { type: 2, style: 6, sku_id: MONTHLY, id: 2 });
    const later = await server.request('GET', `/channels/${GENERAL}/messages?after=${shopMessage.id}`, {
      auth: ALICE_TOKEN,
    });
    assert.deepEqual(later.body, [], 'the refused follow-up wrote nothing');

    const channel = (await client.channels.fetch(GENERAL)) as TextChannel;
    assert.equal(
      await refusal(channel.send({ content: 'x', components: [premiumRow(OTHERS_SKU)] })),
      '400 50035 components.0.components.0.sku_id',
    );
    const own = await channel.send({ content: 'Monthly is here', components: [premiumRow(MONTHLY)] });
    assert.equal(
      await refusal(own.edit({ components: [premiumRow(OTHERS_SKU)] })),
      '400 50035 components.0.components.0.sku_id',
    );
    assert.equal(await refusal(own.edit({ components: [premiumRow(MONTHLY)] })), 'accepted');
  });

  test('the user buys through the premium button; the bot is told and sees the entitlement', async () => {
    assert.equal((await clickCheck()).content, 'not subscribed');
    // The console's premium button: its purchase dialog's Buy.
    const bought = await server.request('POST', `${server.url}/console/api/applications/${DEMO_APP_ID}/purchases`, {
      auth: ALICE_TOKEN,
      body: { sku_id: shopMessage.components[0].components[0].sku_id },
    });
    assert.equal(bought.status, 200, bought.text);
    const subscriptionId = bought.body.subscription.id as string;
    const entitlementId = bought.body.entitlement.id as string;
    const created = await subscriptionEvents.find(
      (e) => e.t === 'create' && e.subscription.id === subscriptionId,
      'subscriptionCreate',
    );
    assert.deepEqual(
      [created.subscription.userId, created.subscription.skuIds, created.subscription.status],
      [ALICE_ID, [MONTHLY], SubscriptionStatus.Active],
    );
    await entitlementEvents.find((e) => e.t === 'create' && e.id === entitlementId, 'entitlementCreate');
    assert.equal((await clickCheck()).content, `subscribed (${entitlementId})`);

    const listed = await client.application.subscriptions.fetch({ sku: MONTHLY, user: ALICE_ID });
    assert.deepEqual([...listed.keys()], [subscriptionId]);
    assert.deepEqual(listed.first()!.entitlementIds, [entitlementId]);
    const one = await client.application.subscriptions.fetch({ sku: MONTHLY, subscriptionId });
    assert.equal(one.id, subscriptionId);
    assert.ok(one.currentPeriodEndTimestamp > one.currentPeriodStartTimestamp);

    const admin = `${server.url}/admin/applications/${DEMO_APP_ID}/subscriptions/${subscriptionId}`;
    assert.equal((await server.request('POST', `${admin}/cancel`, { auth: ADMIN_AUTH })).status, 200);
    const ending = await subscriptionEvents.find(
      (e) => e.t === 'update' && e.subscription.status === SubscriptionStatus.Ending,
      'subscriptionUpdate (ending)',
    );
    assert.ok(ending.subscription.canceledAt, 'canceled_at is set');
    assert.equal((await clickCheck()).content, `subscribed (${entitlementId})`, 'it runs to the end of its period');

    assert.equal((await server.request('POST', `${admin}/renew`, { auth: ADMIN_AUTH })).status, 200);
    await subscriptionEvents.find(
      (e) => e.t === 'update' && e.subscription.status === SubscriptionStatus.Inactive,
      'subscriptionUpdate (inactive)',
    );
    await entitlementEvents.find((e) => e.t === 'update' && e.id === entitlementId, 'entitlementUpdate (ended)');
    assert.equal((await clickCheck()).content, 'not subscribed');
  });
});
