/**
 * Security round three, OAuth2 (issue 21, defects 1, 6, 8, 9 and 10), each attack replayed through
 * real HTTP on loopback (and a real Chromium for login CSRF): a guild manager cannot give a bot
 * more than he holds; the sign-in answer survives CR/LF and U+2028 in the query; a cross-site
 * sign-in post signs nobody in; a replayed refresh token revokes its whole grant; a public client
 * cannot use a plain PKCE challenge.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { s256Challenge } from '../src/resources/oauth2/rules/pkce.js';
import { ADMINISTRATOR, MANAGE_GUILD, READ_MESSAGE_HISTORY, VIEW_CHANNEL } from '../src/core/permissions/bits.js';
import type { World } from '../src/core/world/types.js';
import { launchBrowser } from './helpers/browser.js';
import { consent, consentSession, signInForm } from './helpers/oauth2.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOB_TOKEN,
  DEMO_APP_ID,
  exampleWorld,
  GENERAL,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from './helpers/world.js';

/** A channel @everyone may not view: only the owner, administrators and bots with ADMINISTRATOR read it. */
const ADMINS_ONLY = '1345183757107200019';
const SECRET = 'demo-client-secret';
const CALLBACK = 'http://127.0.0.1:9/rp/callback';
const SDK_CALLBACK = 'http://127.0.0.1:7/sdk/callback';
const VERIFIER = 'v'.repeat(43) + '-of-the-security-test';

function world(): World {
  const w = exampleWorld();
  const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.channels.push({
    id: ADMINS_ONLY,
    type: 0,
    name: 'admins-only',
    permission_overwrites: [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() }],
  } as World['guilds'][number]['channels'][number]);
  w.applications.find((a) => a.id === DEMO_APP_ID)!.redirect_uris.push(CALLBACK);
  const activity = w.applications.find((a) => a.id === ACTIVITY_APP_ID)!;
  activity.public_client = true;
  activity.redirect_uris = [SDK_CALLBACK];
  return w;
}

let server: TestServer;

function authorizeQuery(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** The install of an app in the test guild, as stored. */
async function installOf(applicationId: string): Promise<{ scopes: string[]; permissions: string | null } | undefined> {
  const guild = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
    auth: `Bearer ${ADMIN_TOKEN}`,
  });
  assert.equal(guild.status, 200);
  return (guild.body.installs as { application_id: string; scopes: string[]; permissions: string | null }[]).find(
    (i) => i.application_id === applicationId,
  );
}

/** The consent page a signed-in user sees for `query`, and its form token. */
async function consentPageFor(
  userToken: string,
  query: string,
): Promise<{ cookie: string; html: string; formToken: string }> {
  const cookie = await consentSession(server.url, userToken, query);
  const page = await fetch(`${server.url}/oauth2/authorize?${query}`, { headers: { cookie } });
  const html = await page.text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(formToken, `a consent form: ${html.slice(0, 200)}`);
  return { cookie, html, formToken };
}

async function authorizeOnPage(page: { cookie: string; formToken: string }, query: string): Promise<Response> {
  return fetch(`${server.url}/oauth2/authorize`, {
    method: 'POST',
    headers: { cookie: page.cookie },
    body: new URLSearchParams({ query, form_token: page.formToken, decision: 'authorize', guild_id: TEST_GUILD_ID }),
    redirect: 'manual',
  });
}

/** Installs `applicationId`'s bot as this user, asking for `permissions`; returns the consent page as shown. */
async function installBot(userToken: string, applicationId: string, permissions: bigint): Promise<string> {
  const query = authorizeQuery({
    client_id: applicationId,
    scope: 'bot applications.commands',
    permissions: permissions.toString(),
    guild_id: TEST_GUILD_ID,
  });
  const page = await consentPageFor(userToken, query);
  const answer = await authorizeOnPage(page, query);
  assert.equal(answer.status, 200, 'the install-only flow ends on a page');
  assert.match(await answer.text(), /was added to the server/);
  return page.html;
}

async function tokenRequest(form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.api}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${DEMO_APP_ID}:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function me(accessToken: string): Promise<number> {
  return (await server.request('GET', '/oauth2/@me', { auth: `Bearer ${accessToken}` })).status;
}

describe('security round three: OAuth2', () => {
  before(async () => {
    server = await startServer({ world: world() });
  });
  after(() => server.close());

  describe('defect 1: a user grants a bot only the permissions they hold', () => {
    it('bob (MANAGE_GUILD, not an administrator) asks ADMINISTRATOR for a bot: withheld, shown, and the bot cannot read an admin-only channel', async () => {
      const asked = ADMINISTRATOR | VIEW_CHANNEL | READ_MESSAGE_HISTORY;
      const html = await installBot(BOB_TOKEN, OTHER_APP_ID, asked);
      assert.match(html, /will not get them/);
      assert.match(html, /<code>ADMINISTRATOR<\/code>/, 'the consent page names the withheld bit');
      assert.doesNotMatch(html, /<code>VIEW_CHANNEL<\/code>/, 'bob holds VIEW_CHANNEL: it is granted, not withheld');

      const install = await installOf(OTHER_APP_ID);
      assert.ok(install?.scopes.includes('bot'));
      const stored = BigInt(install?.permissions ?? '0');
      assert.equal(stored & ADMINISTRATOR, 0n, 'ADMINISTRATOR is not stored');
      assert.equal(stored, VIEW_CHANNEL | READ_MESSAGE_HISTORY, 'the intersection is stored');

      const bot = `Bot ${OTHER_BOT_TOKEN}`;
      const hidden = await server.request('GET', `/channels/${ADMINS_ONLY}/messages`, { auth: bot });
      assert.equal(hidden.status, 403, 'the bot cannot read the admins-only channel');
      const general = await server.request('GET', `/channels/${GENERAL}/messages`, { auth: bot });
      assert.equal(general.status, 200, 'it reads what its granted bits allow');
    });

    it('re-authorizing: the owner may raise; bob then neither raises beyond his bits nor lowers what he does not hold', async () => {
      await installBot(ALICE_TOKEN, OTHER_APP_ID, ADMINISTRATOR);
      assert.equal(
        await installOf(OTHER_APP_ID).then((i) => i?.permissions),
        ADMINISTRATOR.toString(),
        'the owner holds all',
      );

      const html = await installBot(BOB_TOKEN, OTHER_APP_ID, MANAGE_GUILD);
      assert.doesNotMatch(html, /will not get them/, 'bob holds MANAGE_GUILD: nothing is withheld');
      assert.equal(
        await installOf(OTHER_APP_ID).then((i) => i?.permissions),
        (ADMINISTRATOR | MANAGE_GUILD).toString(),
        'bob adds a bit he holds, and the owner’s ADMINISTRATOR stays',
      );

      await installBot(BOB_TOKEN, OTHER_APP_ID, 0n);
      assert.equal(
        await installOf(OTHER_APP_ID).then((i) => i?.permissions),
        ADMINISTRATOR.toString(),
        'bob may take back only what he holds',
      );
    });

    it('re-authorizing an installed bot with ADMINISTRATOR by bob does not raise it', async () => {
      const before = BigInt((await installOf(DEMO_APP_ID))?.permissions ?? '0');
      assert.equal(before & ADMINISTRATOR, 0n);
      await installBot(BOB_TOKEN, DEMO_APP_ID, ADMINISTRATOR);
      const after = BigInt((await installOf(DEMO_APP_ID))?.permissions ?? '0');
      assert.equal(after & ADMINISTRATOR, 0n);
      const hidden = await server.request('GET', `/channels/${ADMINS_ONLY}/messages`, {
        auth: 'Bot demo-bot-token-please-change',
      });
      assert.equal(hidden.status, 403);
    });

    it('the redirect names the permissions granted, not those asked for', async () => {
      const query = authorizeQuery({
        client_id: DEMO_APP_ID,
        response_type: 'code',
        redirect_uri: CALLBACK,
        scope: 'bot identify',
        permissions: (ADMINISTRATOR | VIEW_CHANNEL).toString(),
        guild_id: TEST_GUILD_ID,
        code_challenge: s256Challenge(VERIFIER),
      });
      const answer = await authorizeOnPage(await consentPageFor(BOB_TOKEN, query), query);
      assert.equal(answer.status, 303);
      const location = new URL(answer.headers.get('location')!);
      assert.equal(location.searchParams.get('permissions'), VIEW_CHANNEL.toString());
    });
  });

  describe('defect 6: CR, LF and U+2028 in the sign-in form’s query', () => {
    for (const [name, state] of [
      ['CR/LF', 'a\r\nSet-Cookie: injected=1'],
      ['U+2028', 'a\u2028b'],
    ] as const) {
      it(`${name}: the answer is a redirect with an encoded Location, and the state comes back intact`, async () => {
        const query = `client_id=${DEMO_APP_ID}&response_type=code&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=identify&state=${state}`;
        const form = await signInForm(server.url, query);
        const signIn = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
          method: 'POST',
          headers: { cookie: form.cookie },
          body: new URLSearchParams({ token: ALICE_TOKEN, query, sign_in_token: form.signInToken }),
          redirect: 'manual',
        });
        assert.equal(signIn.status, 303);
        const location = signIn.headers.get('location')!;
        assert.doesNotMatch(location, /[\r\n\u2028]/);
        assert.doesNotMatch(signIn.headers.get('set-cookie') ?? '', /injected/);
        const { location: back } = await consent(server.url, `${server.url}${location}`, { userToken: ALICE_TOKEN });
        assert.equal(new URL(back!).searchParams.get('state'), state);
      });
    }
  });

  describe('defect 8: login CSRF', () => {
    const query = authorizeQuery({
      client_id: DEMO_APP_ID,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'identify',
    });
    const sessionSet = (response: Response) => /slashd_consent=/.test(response.headers.get('set-cookie') ?? '');

    it('a cross-site post of the attacker’s token without the page’s token is refused and sets no session', async () => {
      const forged = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
        method: 'POST',
        headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' },
        body: new URLSearchParams({ token: BOB_TOKEN, query }),
        redirect: 'manual',
      });
      assert.equal(forged.status, 403);
      assert.equal(sessionSet(forged), false);
    });

    it('the attacker’s own form token, or a real one posted from another site, signs nobody in', async () => {
      const attacker = await signInForm(server.url, query);
      const victim = await signInForm(server.url, query);
      const withAttackersToken = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
        method: 'POST',
        headers: { cookie: victim.cookie },
        body: new URLSearchParams({ token: BOB_TOKEN, query, sign_in_token: attacker.signInToken }),
        redirect: 'manual',
      });
      assert.equal(withAttackersToken.status, 403);
      assert.equal(sessionSet(withAttackersToken), false);
      const crossSite = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
        method: 'POST',
        headers: { cookie: victim.cookie, 'sec-fetch-site': 'same-site' },
        body: new URLSearchParams({ token: BOB_TOKEN, query, sign_in_token: victim.signInToken }),
        redirect: 'manual',
      });
      assert.equal(crossSite.status, 403);
      assert.equal(sessionSet(crossSite), false);
      const own = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
        method: 'POST',
        headers: { cookie: victim.cookie, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ token: ALICE_TOKEN, query, sign_in_token: victim.signInToken }),
        redirect: 'manual',
      });
      assert.equal(own.status, 303, 'the page’s own form signs in');
      assert.equal(sessionSet(own), true);
    });

    describe('in a browser', () => {
      let browser: Browser;
      let attackerSite: Server;
      let attackerUrl = '';
      before(async () => {
        browser = await launchBrowser();
        // Another site (localhost, not 127.0.0.1) with a form that posts the attacker's token to slashd.
        attackerSite = createServer((_request, response) => {
          response.setHeader('content-type', 'text/html');
          response.end(`<!doctype html><form method="post" action="${server.url}/oauth2/authorize/sign-in">
<input type="hidden" name="token" value="${BOB_TOKEN}"><input type="hidden" name="query" value="${query.replaceAll('&', '&amp;')}">
<button type="submit">Win a prize</button></form>`);
        });
        await new Promise<void>((resolve) => attackerSite.listen(0, '127.0.0.1', resolve));
        attackerUrl = `http://localhost:${(attackerSite.address() as AddressInfo).port}/`;
      });
      after(async () => {
        await browser?.close();
        await new Promise((resolve) => attackerSite.close(resolve));
      });

      it('the victim, having opened slashd’s sign-in page, submits the attacker’s form: still signed out', async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${server.url}/oauth2/authorize?${query}`);
        await page.getByLabel('User token').waitFor();
        await page.goto(attackerUrl);
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.url() === `${server.url}/oauth2/authorize/sign-in`),
          page.getByRole('button', { name: 'Win a prize' }).click(),
        ]);
        assert.equal(answer.status(), 403);
        const cookies = await context.cookies(server.url);
        assert.equal(
          cookies.find((c) => c.name === 'slashd_consent'),
          undefined,
          'no session was set',
        );
        await context.close();
      });
    });
  });

  describe('defect 9: a replayed refresh token revokes its family', () => {
    it('after A→B, replaying A is refused and B, and every access token of the grant, stop working', async () => {
      const { location } = await consent(
        server.url,
        `${server.url}/oauth2/authorize?${authorizeQuery({
          client_id: DEMO_APP_ID,
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'identify',
          code_challenge: s256Challenge(VERIFIER),
        })}`,
        { userToken: ALICE_TOKEN },
      );
      const code = new URL(location!).searchParams.get('code')!;
      const first = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: VERIFIER,
      });
      assert.equal(first.status, 200);
      const refreshA = first.body.refresh_token as string;
      const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshA });
      assert.equal(rotated.status, 200);
      const refreshB = rotated.body.refresh_token as string;
      assert.equal(await me(rotated.body.access_token as string), 200);

      const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshA });
      assert.deepEqual([replay.status, replay.body.error], [400, 'invalid_grant']);
      const useB = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshB });
      assert.deepEqual([useB.status, useB.body.error], [400, 'invalid_grant'], 'B is revoked with its family');
      assert.equal(await me(rotated.body.access_token as string), 401, 'the access token issued with B is revoked');
      assert.equal(await me(first.body.access_token as string), 401, 'and the first one');
    });
  });

  describe('defect 10: public clients use S256 only', () => {
    const publicQuery = (method: string) =>
      authorizeQuery({
        client_id: ACTIVITY_APP_ID,
        response_type: 'code',
        redirect_uri: SDK_CALLBACK,
        scope: 'identify',
        state: 'st-10',
        code_challenge: method === 'plain' ? VERIFIER : s256Challenge(VERIFIER),
        code_challenge_method: method,
      });

    it('plain from a public client goes back as invalid_request with the state', async () => {
      const response = await fetch(`${server.url}/oauth2/authorize?${publicQuery('plain')}`, { redirect: 'manual' });
      assert.equal(response.status, 302);
      const location = new URL(response.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, SDK_CALLBACK);
      assert.equal(location.searchParams.get('error'), 'invalid_request');
      assert.equal(location.searchParams.get('state'), 'st-10');
      assert.equal(location.searchParams.get('code'), null);
    });

    it('S256 from the same client, and plain from a confidential client, reach the sign-in page', async () => {
      const s256 = await fetch(`${server.url}/oauth2/authorize?${publicQuery('S256')}`, { redirect: 'manual' });
      assert.equal(s256.status, 200);
      assert.match(await s256.text(), /User token/);
      const confidential = await fetch(
        `${server.url}/oauth2/authorize?${authorizeQuery({
          client_id: DEMO_APP_ID,
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'identify',
          code_challenge: VERIFIER,
          code_challenge_method: 'plain',
        })}`,
        { redirect: 'manual' },
      );
      assert.equal(confidential.status, 200);
    });
  });
});
