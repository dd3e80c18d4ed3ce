/**
 * The client library in a real browser against a real slashd: the sample web app
 * (examples/sdk-web, importing `slashd/sdk`) signs alice in with an authorization code and PKCE in
 * a popup, exchanges the code for a token and reads /users/@me; a tampered state is refused by the
 * library; Cancel on the consent page comes back as access_denied with the state.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parseWorld } from '../src/core/world/parse.js';
import { DEMO_WORLD } from '../src/world/demo-world.js';
import { launchBrowser } from './helpers/browser.js';
import { ROOT } from './helpers/cli-process.js';
import { createServer } from 'node:net';
import { AuthorizationArgs, Client, type ClientResult, nodeLoopback } from '../src/sdk/node.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_ID, ALICE_TOKEN } from './helpers/world.js';

/** The sample's public client application, added to the example world. */
const SAMPLE_APP_ID = '1324165260902400042';
/** Safety net for a page to reach what is awaited, far above what a loaded machine needs. */
const PAGE_WAIT_MS = 30_000;

interface SampleServer {
  url: string;
  close(): Promise<void>;
}
interface SampleModule {
  startSampleServer(options: { config: () => { slashdUrl: string; applicationId: string } }): Promise<SampleServer>;
}

/** A port free on 127.0.0.1 now, for the Node listener's redirect URI (slashd matches redirect URIs exactly, port included). */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function worldWithSample(...redirectUris: string[]) {
  const raw = structuredClone(DEMO_WORLD) as unknown as { applications: unknown[] };
  raw.applications.push({
    id: SAMPLE_APP_ID,
    name: 'SDK Web Sample',
    owner_id: ALICE_ID,
    bot_token: 'sdk-sample-bot-token',
    public_client: true,
    redirect_uris: redirectUris,
    integration_types: [0, 1],
  });
  const parsed = parseWorld(raw);
  if (!parsed.ok) throw new Error(`world invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

describe('the SDK sample web app signs in against slashd', { timeout: 5 * PAGE_WAIT_MS }, () => {
  let sample: SampleServer;
  let server: TestServer;
  let browser: Browser;
  let settings = { slashdUrl: '', applicationId: SAMPLE_APP_ID };
  let loopbackPort: number;

  before(async () => {
    const module = (await import(pathToFileURL(join(ROOT, 'examples', 'sdk-web', 'serve.js')).href)) as SampleModule;
    sample = await module.startSampleServer({ config: () => settings });
    loopbackPort = await freeLoopbackPort();
    server = await startServer({
      world: worldWithSample(
        `${sample.url}/callback.html`,
        `${sample.url}/`,
        `http://127.0.0.1:${loopbackPort}/callback`,
      ),
    });
    settings = { slashdUrl: server.url, applicationId: SAMPLE_APP_ID };
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await sample?.close();
  });

  /** A fresh browser profile on the sample's page, ready; the page's errors fail the test. */
  async function openSample(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${sample.url}/`);
    await page.locator('#status', { hasText: 'Ready' }).waitFor({ timeout: PAGE_WAIT_MS });
    return { context, page, errors };
  }

  /** Clicks Sign in and signs alice in on slashd's page in the popup; returns the popup at the consent page. */
  async function signInAsAlice(page: Page): Promise<{ popup: Page; authorizeUrl: URL }> {
    const [popup] = await Promise.all([page.waitForEvent('popup', { timeout: PAGE_WAIT_MS }), page.click('#sign-in')]);
    await popup.waitForLoadState('domcontentloaded');
    const authorizeUrl = new URL(popup.url());
    await popup.fill('#token', ALICE_TOKEN);
    await popup.click('button[type=submit]');
    await popup.locator('button[value=authorize]').waitFor({ timeout: PAGE_WAIT_MS });
    return { popup, authorizeUrl };
  }

  async function finalStatus(page: Page): Promise<string> {
    const done = page.locator('#status', { hasText: /^(Signed in|Not signed in|No token|Could not)/ });
    await done.waitFor({ timeout: PAGE_WAIT_MS });
    return (await done.textContent()) ?? '';
  }

  test('alice signs in with code + PKCE, the sample gets a token and reads /users/@me', async () => {
    const { context, page, errors } = await openSample();
    try {
      const { popup, authorizeUrl } = await signInAsAlice(page);
      assert.equal(authorizeUrl.origin, server.url);
      assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authorizeUrl.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(authorizeUrl.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{22}$/);
      assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${sample.url}/callback.html`);
      await popup.click('button[value=authorize]');
      assert.equal(await finalStatus(page), 'Signed in');
      assert.equal(await page.textContent('#user'), `alice (${ALICE_ID})`);
      assert.equal(await page.textContent('#state'), authorizeUrl.searchParams.get('state'));
      assert.match((await page.textContent('#scopes')) ?? '', /identify/);
      assert.equal(popup.isClosed(), true, 'the library closes its popup');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('an answer whose state was tampered with is refused by the library, and no token is asked for', async () => {
    const { context, page, errors } = await openSample();
    const tokenRequests: string[] = [];
    try {
      context.on('request', (request) => {
        if (request.url().includes('/oauth2/token')) tokenRequests.push(request.url());
      });
      // slashd's answer to the consent form sends the browser back with another state than the one sent.
      await context.route(`${server.url}/oauth2/authorize`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const response = await route.fetch({ maxRedirects: 0 });
        const back = new URL(response.headers().location ?? '');
        back.searchParams.set('state', `${back.searchParams.get('state') ?? ''}-forged`);
        return route.fulfill({ response, headers: { ...response.headers(), location: back.toString() } });
      });
      const { popup } = await signInAsAlice(page);
      await popup.click('button[value=authorize]');
      assert.match(await finalStatus(page), /^Not signed in: .*state/);
      assert.equal(await page.textContent('#error'), 'state_mismatch');
      assert.equal(await page.textContent('#user'), '–');
      assert.deepEqual(tokenRequests, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('Cancel on the consent page comes back as access_denied with the state', async () => {
    const { context, page, errors } = await openSample();
    try {
      const { popup, authorizeUrl } = await signInAsAlice(page);
      await popup.click('button[value=cancel]');
      assert.match(await finalStatus(page), /^Not signed in/);
      assert.equal(await page.textContent('#error'), 'access_denied');
      assert.equal(await page.textContent('#state'), authorizeUrl.searchParams.get('state'));
      assert.equal(await page.textContent('#user'), '–');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('closing the popup ends the flow as cancelled', async () => {
    const { context, page, errors } = await openSample();
    try {
      const [popup] = await Promise.all([
        page.waitForEvent('popup', { timeout: PAGE_WAIT_MS }),
        page.click('#sign-in'),
      ]);
      await popup.waitForLoadState('domcontentloaded');
      await popup.close();
      assert.match(await finalStatus(page), /^Not signed in: The sign-in window was closed/);
      assert.equal(await page.textContent('#error'), 'cancelled');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('in this tab (browserRedirect): the page comes back signed in, and the code is gone from the address bar', async () => {
    const { context, page, errors } = await openSample();
    try {
      await page.click('#sign-in-here');
      await page.waitForURL(`${server.url}/oauth2/authorize?**`, { timeout: PAGE_WAIT_MS });
      const authorizeUrl = new URL(page.url());
      assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${sample.url}/`);
      await page.fill('#token', ALICE_TOKEN);
      await page.click('button[type=submit]');
      await page.click('button[value=authorize]', { timeout: PAGE_WAIT_MS });
      assert.equal(await finalStatus(page), 'Signed in');
      assert.equal(await page.textContent('#user'), `alice (${ALICE_ID})`);
      assert.equal(await page.textContent('#state'), authorizeUrl.searchParams.get('state'));
      assert.equal(page.url(), `${sample.url}/`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('in Node: the loopback listener gets the code from the browser, then getToken, /users/@me and refreshToken', async () => {
    const context = await browser.newContext();
    const userPage = await context.newPage();
    try {
      const client = new Client({
        baseUrl: server.url,
        // The user's browser opens the page the library would print.
        transport: nodeLoopback({ port: loopbackPort, open: async (url) => void (await userPage.goto(url)) }),
      });
      client.setApplicationId(SAMPLE_APP_ID);
      const verifier = await client.createAuthorizationCodeVerifier();
      const args = new AuthorizationArgs();
      args.setScopes('identify');
      args.setCodeChallenge(verifier.challenge());
      const authorized = new Promise<{ result: ClientResult; code: string; redirectUri: string }>((resolve) =>
        client.authorize(args, (result, code, redirectUri) => resolve({ result, code, redirectUri })),
      );
      await userPage.fill('#token', ALICE_TOKEN, { timeout: PAGE_WAIT_MS });
      await userPage.click('button[type=submit]');
      await userPage.click('button[value=authorize]', { timeout: PAGE_WAIT_MS });
      const { result, code, redirectUri } = await authorized;
      assert.equal(result.successful(), true, result.toString());
      assert.equal(redirectUri, `http://127.0.0.1:${loopbackPort}/callback`);
      assert.match((await userPage.textContent('body')) ?? '', /close this window/);

      type Token = [ClientResult, string, string, number, number, string];
      const token = await new Promise<Token>((resolve) =>
        client.getToken(SAMPLE_APP_ID, code, verifier.verifier(), redirectUri, (...values) => resolve(values)),
      );
      assert.equal(token[0].successful(), true, token[0].toString());
      const me = await fetch(`${server.api}/users/@me`, { headers: { authorization: `Bearer ${token[1]}` } });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as { id: string }).id, ALICE_ID);

      const refreshed = await new Promise<Token>((resolve) =>
        client.refreshToken(SAMPLE_APP_ID, token[2], (...values) => resolve(values)),
      );
      assert.equal(refreshed[0].successful(), true, refreshed[0].toString());
      assert.notEqual(refreshed[1], token[1]);
      const again = await fetch(`${server.api}/users/@me`, { headers: { authorization: `Bearer ${refreshed[1]}` } });
      assert.equal(again.status, 200);

      const reused = await new Promise<ClientResult>((resolve) =>
        client.getToken(SAMPLE_APP_ID, code, verifier.verifier(), redirectUri, (r) => resolve(r)),
      );
      assert.equal(reused.error(), 'invalid_grant', 'a code is good once');
    } finally {
      await context.close();
    }
  });
});
