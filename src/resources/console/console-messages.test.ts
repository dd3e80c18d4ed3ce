/**
 * Users' own messages in the web console (Debian's Chromium, a real slashd): alice types "!ping" in
 * the message box and presses Enter; her message is posted with her token, an unmodified discord.js
 * prefix-command bot (`messageCreate`, MESSAGE_CONTENT) answers with `message.reply`, and both alice
 * and bob see her message and the answer. A refused message stays in the box with the reason.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { assertAccessible, composer, messageWith, openConsole, signInAs } from '../../../test/helpers/console-page.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { GENERAL } from '../../../test/helpers/world.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, OTHER_BOT_TOKEN } from '../../../test/helpers/world.js';

describe("the console's message box: a user's own messages", () => {
  let server: TestServer;
  let bot: Client;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const replies = new Inbox<string>();

  before(async () => {
    server = await startServer({ world: gatewayWorld(), config: { sandboxSignIn: true } });
    bot = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${server.url}/api` },
    });
    bot.on(Events.MessageCreate, (message: Message) => {
      if (message.author.bot || message.content !== '!ping') return;
      message.reply(`pong, ${message.author.username}`).then(
        (sent) => replies.push(sent.id),
        (error: unknown) => replies.push(`failed: ${String(error)}`),
      );
    });
    const ready = new Inbox<string>();
    bot.once(Events.ClientReady, () => ready.push('ready'));
    await bot.login(OTHER_BOT_TOKEN);
    await ready.find(() => true, 'the bot ready');
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
    bob = await openConsole(browser, server.url);
    await signInAs(alice, 'alice');
    await signInAs(bob, 'bob');
    await alice.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await bot?.destroy();
    await server?.close();
  });

  test('alice sends "!ping" with Enter; the bot replies; alice and bob read both', async () => {
    await composer(alice).click();
    await composer(alice).fill('!ping');
    await composer(alice).press('Enter');
    await messageWith(alice, '!ping').waitFor();
    assert.equal(await composer(alice).inputValue(), '', 'the box is emptied once sent');
    const replyId = await replies.find(() => true, "the bot's reply");
    assert.ok(!replyId.startsWith('failed'), replyId);
    await messageWith(alice, 'pong, alice').waitFor();
    await messageWith(bob, '!ping').waitFor();
    await messageWith(bob, 'pong, alice').waitFor();
    const stored = await server.request('GET', `/channels/${GENERAL}/messages/${replyId}`, { auth: ALICE_TOKEN });
    assert.equal(stored.body.referenced_message?.content, '!ping', stored.text);
    await assertAccessible(alice, 'the chat screen after a message');
  });

  test('a refused message stays in the box with the reason', async () => {
    await composer(bob).click();
    await composer(bob).fill('x'.repeat(2001));
    await composer(bob).press('Enter');
    await bob
      .getByRole('alert')
      .filter({ hasText: /content/ })
      .waitFor();
    assert.equal((await composer(bob).inputValue()).length, 2001);
  });
});
