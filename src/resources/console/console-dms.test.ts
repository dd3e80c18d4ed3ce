/**
 * A user's DMs in the web console (Debian's Chromium, a real slashd): once the demo bot has sent
 * carol a DM, the console's channel list holds it under "Direct messages", named by the bot, and
 * picking it shows the bot's message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { messageWith, openConsole, signInAs } from '../../../test/helpers/console-page.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, CAROL_ID } from '../../../test/helpers/world.js';

describe("the console lists a user's DMs", () => {
  let server: TestServer;
  let browser: Browser;
  let carol: Page;

  before(async () => {
    server = await startServer({ world: gatewayWorld(), config: { sandboxSignIn: true } });
    const dm = await server.request('POST', '/users/@me/channels', { auth: BOT, body: { recipient_id: CAROL_ID } });
    const sent = await server.request('POST', `/channels/${(dm.body as { id: string }).id}/messages`, {
      auth: BOT,
      body: { content: 'your reminder, from the demo bot' },
    });
    if (sent.status !== 200) throw new Error(sent.text);
    browser = await launchBrowser();
    carol = await openConsole(browser, server.url);
    await signInAs(carol, 'carol');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the DM is in the channel list and shows its messages', async () => {
    const channel = carol.getByLabel('Channel');
    await channel.locator('optgroup[label="Direct messages"] option').first().waitFor({ state: 'attached' });
    const option = channel.locator('optgroup[label="Direct messages"] option').first();
    assert.equal(await option.textContent(), '@Demo Bot', 'named by the bot at its other end');
    const value = await option.getAttribute('value');
    await channel.selectOption(value);
    await messageWith(carol, 'your reminder, from the demo bot').waitFor();
  });
});
