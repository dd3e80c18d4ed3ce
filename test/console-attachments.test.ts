/**
 * The web console in Debian's Chromium shows an image a bot attached: fetched with the signed-in
 * user's token (slashd serves files to readers only), shown in place with its description as alt
 * text, its file named as a link; a screenshot for the docs is taken.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { attachmentWorld, messageForm } from './helpers/attachments.js';
import { launchBrowser } from './helpers/browser.js';
import { messageWith, openConsole, pageErrors, screenshot, signInAs } from './helpers/console-page.js';
import { pngImage } from './helpers/images.js';
import { startServer, type TestServer } from './helpers/server.js';
import { BOT, GENERAL } from './helpers/world.js';

describe('the console shows image attachments', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Page;

  before(async () => {
    server = await startServer({ world: attachmentWorld(), config: { sandboxSignIn: true } });
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: messageForm({ content: 'the chart of the week', attachments: [{ id: 0, description: 'a grey chart' }] }, [
        { name: 'chart.png', bytes: pngImage(160, 90), type: 'image/png' },
      ]),
    });
    assert.equal(response.status, 200, await response.text());
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('alice sees the image in place, loaded through her token, and its file as a link', async () => {
    await signInAs(alice, 'alice');
    const message = messageWith(alice, 'the chart of the week');
    const image = message.getByRole('img', { name: 'a grey chart' });
    await image.waitFor();
    const natural = await image.evaluate((img) => {
      const element = img as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
      return element.decode().then(() => [element.naturalWidth, element.naturalHeight]);
    });
    assert.deepEqual(natural, [160, 90], 'the bytes served are the image');
    assert.equal(await message.getByRole('link', { name: 'chart.png' }).count(), 1);
    assert.deepEqual(pageErrors(alice), []);
    await screenshot(alice, 'console-image-attachment');
  });
});
