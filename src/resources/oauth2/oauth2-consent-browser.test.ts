/**
 * The consent page in a real Chromium: Cancel sends the client `access_denied` with its state; a
 * guild install through the page adds the app (its bot gets GUILD_CREATE, its commands appear in
 * the guild's command index and in the console's picker); a user install makes a user-installable command answer in a DM.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startRegisteredApp, type AppServer } from '../../../test/helpers/app-server.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { openConsole, openPicker, signInAs } from '../../../test/helpers/console-page.js';
import { GatewayClient } from '../../../test/helpers/gateway-client.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  GENERAL,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

/** A DM's channel id: the world has no DM channels, the client names one. */
const DM_CHANNEL = '1999999999999999991';

let server: TestServer;
let browser: Browser;
/** The client's redirect URI: a real listener (a browser follows a redirect past any route handler). */
let client: Server;
let CALLBACK = '';

function world() {
  const w = exampleWorld();
  w.applications.find((a) => a.id === DEMO_APP_ID)!.redirect_uris.push(CALLBACK);
  return w;
}

/** Signs in on the page the browser is at (the sign-in form), landing on the consent page. */
async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('User token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Authorize' }).waitFor();
}

async function freshPage(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

describe('the consent page in a browser', () => {
  before(async () => {
    client = createServer((_request, response) => response.end('client'));
    await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
    CALLBACK = `http://127.0.0.1:${(client.address() as AddressInfo).port}/rp/callback`;
    // The console's sandbox sign-in, so the install can be seen in alice's picker.
    server = await startServer({ world: world(), config: { sandboxSignIn: true } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => client.close(resolve));
  });

  it('Cancel sends the client access_denied with its state; the page cannot be framed', async () => {
    const page = await freshPage();
    const query = new URLSearchParams({
      client_id: DEMO_APP_ID,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'identify guilds',
      state: 'state-from-the-client',
    });
    const response = await page.goto(`${server.url}/oauth2/authorize?${query.toString()}`);
    assert.match(response!.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    await signIn(page, ALICE_TOKEN);
    assert.ok(await page.getByText('Know which servers you are in').isVisible(), 'the scopes in words');
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(CALLBACK)),
      page.getByRole('button', { name: 'Cancel' }).click(),
    ]);
    const sent = new URL(page.url());
    assert.equal(sent.origin + sent.pathname, CALLBACK);
    assert.equal(sent.searchParams.get('error'), 'access_denied');
    assert.equal(sent.searchParams.get('state'), 'state-from-the-client');
    assert.equal(sent.searchParams.get('code'), null);
    await page.context().close();
  });

  it('a guild install through the page adds the app: GUILD_CREATE for its bot, its commands in the index and the picker', async () => {
    const created = await server.request('POST', `/applications/${OTHER_APP_ID}/commands`, {
      auth: `Bot ${OTHER_BOT_TOKEN}`,
      body: { name: 'weather', description: 'The weather' },
    });
    assert.equal(created.status, 201, created.text);
    const indexBefore = await server.request('GET', `/channels/${GENERAL}/application-command-index`, {
      auth: ALICE_TOKEN,
    });
    assert.ok(!indexBefore.text.includes('"weather"'), 'not installed in the test guild yet');
    const bot = await GatewayClient.connect(server.url);
    await bot.login(OTHER_BOT_TOKEN);

    const page = await freshPage();
    const query = new URLSearchParams({
      client_id: OTHER_APP_ID,
      scope: 'bot applications.commands',
      permissions: '2048',
    });
    await page.goto(`${server.url}/oauth2/authorize?${query.toString()}`);
    await signIn(page, ALICE_TOKEN);
    await page.getByLabel('Add to server').selectOption(TEST_GUILD_ID);
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Other App was added to the server.').waitFor();

    const joined = await bot.next(
      (p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID,
      'GUILD_CREATE of the test guild',
    );
    assert.equal(joined.d.name, 'Test Guild');
    const index = await server.request('GET', `/channels/${GENERAL}/application-command-index`, { auth: ALICE_TOKEN });
    assert.equal(index.status, 200);
    assert.ok(
      index.body.application_commands.some((c: { name: string }) => c.name === 'weather'),
      index.text,
    );
    // What alice sees: the console's picker in #general now holds the app's command, under its name.
    const consolePage = await openConsole(browser, server.url);
    await signInAs(consolePage, 'alice');
    await openPicker(consolePage, 'weather');
    await consolePage
      .getByRole('listbox', { name: 'Commands' })
      .getByRole('group', { name: 'Other App' })
      .getByRole('option', { name: /\/weather/ })
      .waitFor();
    await consolePage.context().close();
    const guild = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: `Bearer ${server.slashd.adminToken}`,
    });
    const install = guild.body.installs.find((i: { application_id: string }) => i.application_id === OTHER_APP_ID);
    assert.deepEqual(install, {
      application_id: OTHER_APP_ID,
      scopes: ['bot', 'applications.commands'],
      permissions: '2048',
    });

    // Removing the install is a world change: the bot leaves and is told.
    const admin = `Bearer ${server.slashd.adminToken}`;
    const without = {
      ...guild.body,
      installs: guild.body.installs.filter((i: { application_id: string }) => i !== install),
    };
    const removed = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: admin,
      body: without,
    });
    assert.equal(removed.status, 200, removed.text);
    const left = await bot.next(
      (p) => p.t === 'GUILD_DELETE' && p.d.id === TEST_GUILD_ID,
      'GUILD_DELETE of the test guild',
    );
    assert.equal(left.d.unavailable, undefined);
    const indexAfter = await server.request('GET', `/channels/${GENERAL}/application-command-index`, {
      auth: ALICE_TOKEN,
    });
    assert.ok(!indexAfter.text.includes('"weather"'), 'gone from the index');
    bot.close();
    await page.context().close();
  });

  it('a user install makes a user-installable command answer in a DM', async () => {
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
      body: { name: 'note', description: 'A note to self', integration_types: [1], contexts: [1, 2] },
    });
    assert.equal(created.status, 201, created.text);
    const app: AppServer = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'noted' } },
    }));
    try {
      const invoke = () =>
        server.request('POST', '/interactions', {
          auth: ERIN_TOKEN,
          body: invocationBody(created.body, { guildId: null, channelId: DM_CHANNEL, nonce: 'n1' }),
        });
      const before = await invoke();
      assert.equal(before.status, 403, `not installed yet: ${before.text}`);

      const page = await freshPage();
      const query = new URLSearchParams({
        client_id: DEMO_APP_ID,
        scope: 'applications.commands',
        integration_type: '1',
      });
      await page.goto(`${server.url}/oauth2/authorize?${query.toString()}`);
      await signIn(page, ERIN_TOKEN);
      assert.ok(await page.getByText('its commands follow you into DMs').isVisible());
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByText('Demo Bot was authorized.').waitFor();
      await page.context().close();

      const answered = await invoke();
      assert.equal(answered.status, 200, answered.text);
      const interaction = app.interactions().at(-1);
      assert.equal(interaction?.id, answered.body.id);
      assert.deepEqual(interaction?.authorizing_integration_owners, { '1': ERIN_ID });
      assert.equal(answered.body.state, 'responded', 'the app answered inline');
      const status = await server.request('GET', `/interactions/${answered.body.id}`, { auth: ERIN_TOKEN });
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.response?.data?.content, 'noted', `the user sees the answer: ${status.text}`);
    } finally {
      await app.close();
    }
  });
});
