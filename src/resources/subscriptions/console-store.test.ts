/**
 * The console's Store and premium buttons in Debian's Chromium. alice opens Store: the demo app's
 * SKUs for sale; she buys a consumable (ENTITLEMENT_CREATE) and consumes it (ENTITLEMENT_UPDATE,
 * consumed), subscribes (SUBSCRIPTION_CREATE) and cancels (SUBSCRIPTION_UPDATE, ending: it still
 * runs to its period's end), and buys the durable one, which then shows as Owned. bob, in #general,
 * sees the bot's message with a premium button labelled with its SKU's name; it opens the sandbox
 * purchase dialog, whose Buy subscribes him (SUBSCRIPTION_CREATE) and his Store then shows it.
 * Screenshots are taken for the docs (console-store, console-premium-button).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  messageWith,
  openConsole,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  BOB_ID,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
} from '../../../test/helpers/world.js';

const PREMIUM = '1400000000000000001';
const COINS = '1400000000000000002';
const MONTHLY = '1400000000000000003';

describe('the console: Store and premium buttons', () => {
  let server: TestServer;
  let bot: Client;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const raw = new Inbox<RawDispatch>((p) => `${p.t}`);

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    const put = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}/skus`, {
      auth: ADMIN_AUTH,
      body: [
        { id: PREMIUM, type: 2, name: 'Premium' },
        { id: COINS, type: 3, name: '100 coins' },
        { id: MONTHLY, type: 5, name: 'Monthly' },
      ],
    });
    assert.equal(put.status, 200, put.text);
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw);
    const posted = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: {
        content: 'Unlock forecasts for the whole week with Monthly.',
        components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: MONTHLY }] }],
      },
    });
    assert.equal(posted.status, 200, posted.text);
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url, { height: 760 });
    bob = await openConsole(browser, server.url, { height: 640 });
  });

  after(async () => {
    await browser?.close();
    await bot?.destroy();
    await server?.close();
  });

  const list = (page: Page, name: string) => page.getByRole('list', { name: `Demo Bot: ${name}` });
  const item = (page: Page, name: string, text: string) =>
    list(page, name).getByRole('listitem').filter({ hasText: text });

  async function openStore(page: Page, username: string): Promise<void> {
    await signInAs(page, username);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Store' }).click();
    await list(page, 'for sale').waitFor();
  }

  test('alice buys and consumes coins, subscribes and cancels, buys Premium', async () => {
    await openStore(alice, 'alice');
    assert.deepEqual(await list(alice, 'for sale').locator('.store-name').allInnerTexts(), [
      '◆ Premium',
      '◆ 100 coins',
      '◆ Monthly',
    ]);
    await alice.getByRole('button', { name: 'Buy 100 coins' }).click();
    const coins = item(alice, 'your items', '100 coins');
    await coins.getByRole('button', { name: 'Consume 100 coins' }).waitFor();
    const created = await raw.find(
      (p) => p.t === 'ENTITLEMENT_CREATE' && p.d.sku_id === COINS && p.d.user_id === ALICE_ID,
      'ENTITLEMENT_CREATE (coins)',
    );
    await coins.getByRole('button', { name: 'Consume 100 coins' }).click();
    await coins.locator('.store-state', { hasText: 'Consumed' }).waitFor();
    await raw.find(
      (p) => p.t === 'ENTITLEMENT_UPDATE' && p.d.id === created.d.id && p.d.consumed,
      'ENTITLEMENT_UPDATE',
    );

    await alice.getByRole('button', { name: 'Buy Monthly' }).click();
    const monthly = item(alice, 'your subscriptions', 'Monthly');
    await monthly.locator('.store-state', { hasText: 'Active' }).waitFor();
    const subscribed = await raw.find(
      (p) => p.t === 'SUBSCRIPTION_CREATE' && p.d.user_id === ALICE_ID,
      'SUBSCRIPTION_CREATE (alice)',
    );
    assert.deepEqual(subscribed.d.sku_ids, [MONTHLY]);
    assert.equal(await alice.getByRole('button', { name: 'Buy Monthly' }).innerText(), 'Owned');
    await monthly.getByRole('button', { name: 'Cancel Monthly' }).click();
    await monthly.locator('.store-state', { hasText: 'Ending' }).waitFor();
    const ending = await raw.find(
      (p) => p.t === 'SUBSCRIPTION_UPDATE' && p.d.id === subscribed.d.id && p.d.status === 2,
      'SUBSCRIPTION_UPDATE (ending)',
    );
    assert.ok(ending.d.canceled_at);
    assert.match(await monthly.innerText(), /Ends /);
    assert.equal(await monthly.getByRole('button', { name: 'Cancel Monthly' }).count(), 0, 'canceled once');

    await alice.getByRole('button', { name: 'Buy Premium' }).click();
    await alice.getByRole('button', { name: 'Buy Premium' }).and(alice.locator(':disabled')).waitFor();
    assert.equal(await alice.getByRole('button', { name: 'Buy Premium' }).innerText(), 'Owned');
    await raw.find((p) => p.t === 'ENTITLEMENT_CREATE' && p.d.sku_id === PREMIUM, 'ENTITLEMENT_CREATE (premium)');
    await assertAccessible(alice, 'the store screen');
    await screenshot(alice, 'console-store');
    assert.deepEqual(pageErrors(alice), []);
  });

  test("bob clicks the bot's premium button: the purchase dialog subscribes him", async () => {
    await signInAs(bob, 'bob');
    const message = messageWith(bob, 'Unlock forecasts');
    const button = message.getByRole('button', { name: 'Monthly' });
    await button.waitFor();
    assert.match((await button.getAttribute('class')) ?? '', /premium/);
    await button.click();
    const dialog = bob.getByRole('dialog', { name: 'Monthly' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Subscription/);
    assert.match(await dialog.innerText(), /Demo Bot/);
    await assertAccessible(bob, 'the purchase dialog');
    await screenshot(bob, 'console-premium-button');
    await dialog.getByRole('button', { name: 'Buy' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Purchased' }).waitFor();
    const created = await raw.find(
      (p) => p.t === 'SUBSCRIPTION_CREATE' && p.d.user_id === BOB_ID,
      'SUBSCRIPTION_CREATE (bob)',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await bob.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Store' }).click();
    await item(bob, 'your subscriptions', 'Monthly').locator('.store-state', { hasText: 'Active' }).waitFor();
    const listed = await server.request('GET', `/skus/${MONTHLY}/subscriptions?user_id=${BOB_ID}`, { auth: BOT });
    assert.deepEqual(
      (listed.body as { id: string }[]).map((s) => s.id),
      [created.d.id],
    );
    assert.deepEqual(pageErrors(bob), []);
  });

  test('bob at 360 px in the dark theme: his Store, one column, accessible', async () => {
    const narrow = await openConsole(browser, server.url, { width: 360, height: 760, colorScheme: 'dark' });
    await openStore(narrow, 'bob');
    await item(narrow, 'your subscriptions', 'Monthly').getByRole('button', { name: 'Cancel Monthly' }).waitFor();
    await screenshot(narrow, 'console-store-360-dark');
    const width = await narrow
      .locator('.frame')
      .evaluate((frame) => (frame as unknown as { scrollWidth: number }).scrollWidth);
    assert.ok(width <= 360, `the screens and the store fit in 360 px (${width} px)`);
    await assertAccessible(narrow, 'the store screen, dark, 360 px');
    assert.deepEqual(pageErrors(narrow), []);
  });
});
