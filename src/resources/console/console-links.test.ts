/**
 * The console links only http(s), in Debian's Chromium. slashd refuses any other scheme in embeds
 * and link buttons now; a message stored before that rule (an older database) may still hold
 * `javascript:` or `data:` URLs, and the console must show them as text, never as links: the
 * embed title, its image, a link button and an attachment. Their http(s) counterparts stay links.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { StoredMessage } from '../messages/rules/messages.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { messageWith, openConsole, pageErrors, signInAs } from '../../../test/helpers/console-page.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

function storedMessage(server: TestServer, content: string, url: string): StoredMessage {
  return {
    id: server.slashd.ids.next(),
    channel_id: GENERAL,
    guild_id: TEST_GUILD_ID,
    author: { kind: 'app', id: DEMO_APP_ID },
    content,
    embeds: [{ type: 'rich', title: `${content} title`, url, image: { url } }],
    components: [{ type: 1, id: 1, components: [{ type: 2, id: 2, style: 5, label: `${content} button`, url }] }],
    flags: 0,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    ephemeral_for_user_id: null,
  };
}

describe('the console links only http(s)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    const { interactions } = server.slashd.store;
    await interactions.putMessage(storedMessage(server, 'scripted', 'javascript:alert(document.cookie)'));
    await interactions.putMessage(storedMessage(server, 'inlined', 'data:text/html,<script>alert(1)</script>'));
    await interactions.putMessage(storedMessage(server, 'plain', 'https://example.com/docs'));
    browser = await launchBrowser();
    page = await openConsole(browser, server.url);
    await signInAs(page, 'alice');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('javascript: and data: URLs are text; an https URL is a link', async () => {
    for (const content of ['scripted', 'inlined']) {
      const message = messageWith(page, `${content} title`);
      await message.waitFor();
      assert.equal(await message.locator('a').count(), 0, `no link in the ${content} message`);
      assert.ok(await message.getByText(`${content} title`).isVisible());
      const button = message.getByRole('button', { name: new RegExp(`${content} button`) });
      assert.ok(await button.isDisabled(), 'a link button to another scheme does nothing');
    }
    const plain = messageWith(page, 'plain title');
    await plain.waitFor();
    const hrefs = await plain.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://example.com/docs', 'https://example.com/docs', 'https://example.com/docs']);
    const everyHref = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.ok(
      everyHref.every((href) => !/^\s*(javascript|data):/i.test(href ?? '')),
      `no javascript: or data: link on the page: ${everyHref.join(', ')}`,
    );
    assert.deepEqual(pageErrors(page), []);
  });
});
