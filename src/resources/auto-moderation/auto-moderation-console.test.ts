/**
 * Auto moderation in the web console (Debian's Chromium, a real slashd): the demo bot makes a
 * keyword rule over the API; carol types a message with its keyword and presses Enter; the console
 * says AutoMod blocked it, with the rule's custom message, and keeps her text in the box; nothing is
 * posted, and bob (in his own page) never sees it. Her next message, without the keyword, is posted.
 * Takes docs/images/console-automod-blocked.png (through screenshots/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  composer,
  messageWith,
  openConsole,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, CAROL_TOKEN, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

describe("the console: a bot's auto moderation rule blocks a user's message", () => {
  let server: TestServer;
  let browser: Browser;
  let carol: Page;
  let bob: Page;

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageGuild);
    const rule = await server.request('POST', `/guilds/${TEST_GUILD_ID}/auto-moderation/rules`, {
      auth: BOT,
      body: {
        name: 'No spoilers',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['spoiler*'] },
        actions: [{ type: 1, metadata: { custom_message: 'No spoilers before Friday, please!' } }],
        enabled: true,
      },
    });
    assert.equal(rule.status, 200, rule.text);
    browser = await launchBrowser();
    carol = await openConsole(browser, server.url);
    bob = await openConsole(browser, server.url);
    await signInAs(carol, 'carol');
    await signInAs(bob, 'bob');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('carol’s message with the keyword is blocked, the custom message shown, her text kept', async () => {
    const text = 'Spoilers: the butler did it';
    await composer(carol).click();
    await composer(carol).fill(text);
    await composer(carol).press('Enter');
    const alert = carol.getByRole('alert').filter({ hasText: 'blocked by AutoMod' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /No spoilers before Friday, please!/);
    assert.equal(await composer(carol).inputValue(), text, 'the text stays in the box');
    await screenshot(carol, 'console-automod-blocked');
    await assertAccessible(carol, 'the chat screen with a blocked message');

    const recent = await server.request('GET', `/channels/${GENERAL}/messages?limit=20`, { auth: CAROL_TOKEN });
    assert.ok(!(recent.body as Json[]).some((m) => m.content === text), 'nothing was posted');

    await composer(carol).fill('The butler is innocent');
    await composer(carol).press('Enter');
    await messageWith(carol, 'The butler is innocent').waitFor();
    await messageWith(bob, 'The butler is innocent').waitFor();
    assert.equal(await messageWith(bob, 'butler did it').count(), 0, 'bob never saw the blocked one');
  });
});
