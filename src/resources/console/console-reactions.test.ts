/**
 * Users react in the web console (Debian's Chromium): alice picks 👍 and the guild's custom :blob:
 * from "Add reaction", her own reactions are pressed, bob's reaction (made elsewhere) shows up live,
 * clicking her chip takes hers back; bob, without ADD_REACTIONS, is told why a new emoji is refused.
 * A screenshot of a message with reactions is taken for the docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Emoji, World } from '../../core/world/types.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  messageWith,
  openConsole,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  exampleWorld,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const ADD_REACTIONS = 1n << 6n;
const BLOB: Emoji = { id: '1345183757107200501', name: 'blob', animated: false, roles: [], available: true };
const reactionPath = (message: string, emoji: string) =>
  `/channels/${GENERAL}/messages/${message}/reactions/${encodeURIComponent(emoji)}`;

/** The example world: the test guild has a custom emoji, and the demo bot may add reactions. */
function reactionsWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.emojis = [BLOB];
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | ADD_REACTIONS).toString();
  return world;
}

describe('the console: users react to messages', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  let messageId: string;

  before(async () => {
    server = await startServer({ world: reactionsWorld(), config: { sandboxSignIn: true } });
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'Release 2.0 is out: react if it works for you' },
    });
    assert.equal(sent.status, 200, sent.text);
    messageId = sent.body.id;
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
    bob = await openConsole(browser, server.url);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const chip = (page: Page, name: RegExp | string) =>
    messageWith(page, 'Release 2.0 is out').getByRole('button', { name });

  test('alice adds 👍 and :blob: from the picker; bob’s 👍 shows live; her chip takes hers back', async () => {
    await signInAs(alice, 'alice');
    const message = messageWith(alice, 'Release 2.0 is out');
    await message.waitFor();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('button', { name: 'React with 👍' }).click();
    const thumbs = chip(alice, '👍, 1 reaction');
    await thumbs.waitFor();
    assert.equal(await thumbs.getAttribute('aria-pressed'), 'true', 'her own reaction is pressed');

    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('button', { name: 'React with :blob:' }).click();
    await chip(alice, ':blob:, 1 reaction').waitFor();
    const users = await server.request('GET', reactionPath(messageId, `blob:${BLOB.id}`), { auth: BOT });
    assert.deepEqual(
      users.body.map((u: { id: string }) => u.id),
      [ALICE_ID],
    );

    // Bob joins 👍 from another client: alice's page is told by its live stream, and re-reads.
    const joined = await server.request('PUT', `${reactionPath(messageId, '👍')}/@me`, { auth: BOB_TOKEN });
    assert.equal(joined.status, 204, joined.text);
    await chip(alice, '👍, 2 reactions').waitFor();

    await chip(alice, '👍, 2 reactions').click();
    const left = chip(alice, '👍, 1 reaction');
    await left.waitFor();
    assert.equal(await left.getAttribute('aria-pressed'), 'false', 'only bob’s is left');
    assert.deepEqual(pageErrors(alice), []);
  });

  test('bob may join an emoji but not add a new one: the refusal is shown', async () => {
    await signInAs(bob, 'bob');
    const message = messageWith(bob, 'Release 2.0 is out');
    await message.waitFor();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('button', { name: 'React with 🔥' }).click();
    await message.getByRole('alert').filter({ hasText: 'Missing Permissions' }).waitFor();
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${messageId}`, { auth: BOT });
    assert.equal(
      read.body.reactions.some((r: { emoji: { name: string } }) => r.emoji.name === '🔥'),
      false,
    );
  });

  test('a message with reactions: accessible, and a screenshot for the docs', async () => {
    const bot = await server.request('PUT', `${reactionPath(messageId, '🎉')}/@me`, { auth: BOT });
    assert.equal(bot.status, 204, bot.text);
    await server.request('PUT', `${reactionPath(messageId, '🎉')}/@me`, { auth: BOB_TOKEN });
    await chip(alice, '🎉, 2 reactions').waitFor();
    await chip(alice, '🎉, 2 reactions').click();
    await chip(alice, '🎉, 3 reactions').waitFor();
    await assertAccessible(alice, 'a message with reactions');
    await screenshot(alice, 'console-reactions');
  });
});
