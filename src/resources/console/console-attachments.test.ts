/**
 * The web console in Debian's Chromium shows an image a bot attached: fetched with the signed-in
 * user's token (slashd serves files to readers only), shown in place with its description as alt
 * text, its file named as a link; a screenshot for the docs is taken.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { attachmentWorld, messageForm } from '../../../test/helpers/attachments.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import {
  composer,
  messageWith,
  naturalSize,
  openConsole,
  openPicker,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { pngBarChart, pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

describe('the console shows image attachments', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Page;
  let app: AppServer;
  /** The bytes the app downloaded from the file alice attached. */
  let downloaded: Buffer | null = null;

  before(async () => {
    server = await startServer({ world: attachmentWorld(), config: { sandboxSignIn: true } });
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: messageForm({ content: 'the chart of the week', attachments: [{ id: 0, description: 'a grey chart' }] }, [
        { name: 'chart.png', bytes: pngBarChart(160, 90, [0.4, 0.7, 0.55, 0.9]), type: 'image/png' },
      ]),
    });
    assert.equal(response.status, 200, await response.text());
    // An app whose /inspect reads the file a user attaches, downloads it with its bot token, and says what it got.
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, (interaction) => {
      const option = (interaction.data.options as Json[])[0]!;
      const file = (interaction.data.resolved.attachments as Record<string, Json>)[option.value as string]!;
      return {
        accepted: true,
        after: async (received, self) => {
          const got = await fetch(file.url as string, { headers: { authorization: BOT } });
          downloaded = Buffer.from(await got.arrayBuffer());
          await self.callback(received, {
            type: 4,
            data: { content: `got ${file.filename}: ${downloaded.length} bytes` },
          });
        },
      };
    });
    const put = await fetch(`${server.api}/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      method: 'PUT',
      headers: { authorization: BOT, 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          name: 'inspect',
          description: 'Reads a file',
          options: [{ type: 11, name: 'file', description: 'The file', required: true }],
        },
      ]),
    });
    assert.equal(put.status, 200, await put.text());
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  test('alice sees the image in place, loaded through her token, and its file as a link', async () => {
    await signInAs(alice, 'alice');
    const message = messageWith(alice, 'the chart of the week');
    const image = message.getByRole('img', { name: 'a grey chart' });
    await image.waitFor();
    assert.deepEqual(await naturalSize(image), [160, 90], 'the bytes served are the image');
    assert.equal(await message.getByRole('link', { name: 'chart.png' }).count(), 1);
    assert.deepEqual(pageErrors(alice), []);
    await screenshot(alice, 'console-image-attachment');
  });

  test('alice attaches a file to /inspect with the file picker: the app downloads the same bytes', async () => {
    const bytes = pngImage(20, 10);
    await openPicker(alice, 'insp');
    await composer(alice).press('Enter');
    const form = alice.getByRole('form', { name: 'Options of /inspect' });
    await form.waitFor();
    await form.getByLabel(/^file/).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: bytes });
    await form.getByRole('button', { name: 'Send /inspect' }).click();
    await messageWith(alice, `got photo.png: ${bytes.length} bytes`).waitFor();
    assert.deepEqual(downloaded, bytes);
  });
});
