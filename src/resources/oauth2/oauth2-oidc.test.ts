/**
 * slashd as an OpenID Connect provider, driven by openid-client (a certified relying party):
 * discovery, code + PKCE through the consent page, ID token and nonce, userinfo, refresh; then the
 * token endpoint's refusals, each as a test, on a real server with an injected clock.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { s256Challenge } from './rules/pkce.js';
import { consent } from '../../../test/helpers/oauth2.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ACTIVITY_APP_ID, ALICE_ID, ALICE_TOKEN, DEMO_APP_ID, exampleWorld } from '../../../test/helpers/world.js';

const SECRET = 'demo-client-secret';
const CALLBACK = 'http://127.0.0.1:9/rp/callback';
const SDK_ORIGIN = 'http://127.0.0.1:7';
const SDK_CALLBACK = `${SDK_ORIGIN}/sdk/callback`;
const VERIFIER = 'a'.repeat(43) + 'verifier-of-the-test';

function world() {
  const w = exampleWorld();
  const demo = w.applications.find((a) => a.id === DEMO_APP_ID)!;
  demo.redirect_uris = [...demo.redirect_uris, CALLBACK];
  const activity = w.applications.find((a) => a.id === ACTIVITY_APP_ID)!;
  activity.public_client = true;
  activity.redirect_uris = [SDK_CALLBACK];
  return w;
}

let server: TestServer;
let offsetMs = 0;
const now = () => Date.now() + offsetMs;

async function tokenRequest(
  form: Record<string, string>,
  options: { basic?: boolean; origin?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.basic ?? true)
    headers.authorization = `Basic ${Buffer.from(`${DEMO_APP_ID}:${SECRET}`).toString('base64')}`;
  if (options.origin) headers.origin = options.origin;
  const path = form.token !== undefined ? '/oauth2/token/revoke' : '/oauth2/token';
  const response = await fetch(`${server.api}${path}`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

function authorizeUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({
    client_id: DEMO_APP_ID,
    response_type: 'code',
    redirect_uri: CALLBACK,
    scope: 'identify openid',
    state: 'st-1',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
    ...params,
  });
  return `${server.url}/oauth2/authorize?${query.toString()}`;
}

/** A fresh code for Alice through the consent page. */
async function code(params: Record<string, string> = {}): Promise<string> {
  const { location } = await consent(server.url, authorizeUrl(params), { userToken: ALICE_TOKEN });
  const found = location && new URL(location).searchParams.get('code');
  assert.ok(found, `a code in ${location}`);
  return found;
}

const exchange = (value: string, extra: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code: value,
    redirect_uri: CALLBACK,
    code_verifier: VERIFIER,
    ...extra,
  });

async function me(accessToken: string): Promise<number> {
  return (await server.request('GET', '/oauth2/@me', { auth: `Bearer ${accessToken}` })).status;
}

describe('OpenID Connect with openid-client', () => {
  before(async () => {
    server = await startServer({ world: world(), now });
  });
  after(() => server.close());

  it('discovery, code + PKCE, ID token and nonce, userinfo, refresh', async () => {
    const config = await oidc.discovery(new URL(server.url), DEMO_APP_ID, SECRET, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    assert.equal(config.serverMetadata().issuer, server.url);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid identify',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const { location } = await consent(server.url, url.href, { userToken: ALICE_TOKEN });
    assert.ok(location?.startsWith(CALLBACK));

    const tokens = await oidc.authorizationCodeGrant(config, new URL(location!), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    assert.equal(claims.sub, ALICE_ID);
    assert.equal(claims.aud, DEMO_APP_ID);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.iss, server.url);
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.expires_in, 604_800);
    assert.deepEqual(tokens.scope?.split(' ').sort(), ['identify', 'openid']);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, ALICE_ID);
    assert.equal(info.sub, ALICE_ID);
    assert.equal(info.preferred_username, 'alice');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    const described = await server.request('GET', '/oauth2/@me', { auth: `Bearer ${refreshed.access_token}` });
    assert.equal(described.status, 200);
    assert.equal(described.body.user.id, ALICE_ID);
    assert.equal(described.body.application.id, DEMO_APP_ID);
    // Rotation: the refresh token used is spent.
    const again = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
  });

  it('refuses a wrong code verifier', async () => {
    const answer = await exchange(await code(), { code_verifier: 'b'.repeat(50) });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_grant']);
  });

  it('refuses a replayed code and revokes the tokens issued from it', async () => {
    const value = await code();
    const first = await exchange(value);
    assert.equal(first.status, 200);
    assert.equal(await me(first.body.access_token as string), 200);
    const replay = await exchange(value);
    assert.deepEqual([replay.status, replay.body.error], [400, 'invalid_grant']);
    assert.equal(await me(first.body.access_token as string), 401, 'the access token issued from it is revoked');
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    });
    assert.equal(refresh.body.error, 'invalid_grant', 'and so is its refresh token');
  });

  it('refuses a code past its 10 minutes (injected clock)', async () => {
    const value = await code();
    offsetMs = 10 * 60_000 + 1;
    try {
      const answer = await exchange(value);
      assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_grant']);
      assert.match(String(answer.body.error_description), /expired/);
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses a redirect URI that differs from the authorization request, and never redirects to an unregistered one', async () => {
    const answer = await exchange(await code(), { redirect_uri: 'http://127.0.0.1/callback' });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_grant']);
    const page = await fetch(authorizeUrl({ redirect_uri: 'http://127.0.0.1:9/elsewhere' }), { redirect: 'manual' });
    assert.equal(page.status, 400);
    assert.equal(page.headers.get('location'), null);
    assert.match(await page.text(), /redirect_uri is not registered/);
  });

  it('refuses an unknown scope: back to the client with the state, and at the token endpoint', async () => {
    const page = await fetch(authorizeUrl({ scope: 'identify telepathy' }), { redirect: 'manual' });
    assert.equal(page.status, 302);
    const location = new URL(page.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_scope');
    assert.equal(location.searchParams.get('state'), 'st-1');
    const answer = await tokenRequest({ grant_type: 'client_credentials', scope: 'identify telepathy' });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_scope']);
  });

  it('refuses client credentials asking for a scope only a user grants', async () => {
    for (const scope of ['applications.commands.permissions.update', 'openid', 'guilds.members.read']) {
      const answer = await tokenRequest({ grant_type: 'client_credentials', scope });
      assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_scope'], scope);
    }
    const allowed = await tokenRequest({ grant_type: 'client_credentials', scope: 'applications.commands.update' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.refresh_token, undefined);
  });

  it('refuses a revoked token: an access token alone, a refresh token with its grant', async () => {
    const one = await exchange(await code());
    await tokenRequest({ token: one.body.access_token as string });
    assert.equal(await me(one.body.access_token as string), 401);
    const two = await exchange(await code());
    await tokenRequest({ token: two.body.refresh_token as string });
    assert.equal(await me(two.body.access_token as string), 401, 'revoking the refresh token revokes its grant');
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: two.body.refresh_token as string,
    });
    assert.equal(refresh.body.error, 'invalid_grant');
  });

  it('a public client exchanges with PKCE and its client id only, readable from its registered origin', async () => {
    const params = new URLSearchParams({
      client_id: ACTIVITY_APP_ID,
      response_type: 'code',
      redirect_uri: SDK_CALLBACK,
      scope: 'sdk.social_layer_presence',
      state: 's',
      code_challenge: s256Challenge(VERIFIER),
    });
    const { location } = await consent(server.url, `${server.url}/oauth2/authorize?${params.toString()}`, {
      userToken: ALICE_TOKEN,
    });
    const value = new URL(location!).searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      client_id: ACTIVITY_APP_ID,
      code: value,
      redirect_uri: SDK_CALLBACK,
    };
    const answer = await tokenRequest({ ...form, code_verifier: VERIFIER }, { basic: false, origin: SDK_ORIGIN });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), SDK_ORIGIN);
    assert.deepEqual(String(answer.body.scope).split(' ').sort(), ['identify', 'openid', 'sdk.social_layer_presence']);
    assert.ok(answer.body.id_token);
    const stranger = await tokenRequest(
      { grant_type: 'client_credentials', client_id: ACTIVITY_APP_ID },
      { basic: false, origin: 'http://evil.example' },
    );
    assert.equal(stranger.headers.get('access-control-allow-origin'), null);
    assert.equal(stranger.status, 401, 'a public client cannot use client credentials');
    const noPkce = await fetch(
      `${server.url}/oauth2/authorize?${new URLSearchParams({ ...Object.fromEntries(params), code_challenge: '' }).toString()}`,
      {
        redirect: 'manual',
      },
    );
    assert.equal(new URL(noPkce.headers.get('location')!).searchParams.get('error'), 'invalid_request');
  });
});

describe('the signing key', () => {
  it('is stored once per deployment: a restart signs with the same key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-oidc-key-'));
    const db = join(dir, 'slashd.sqlite');
    try {
      const first = await startServer({ world: world(), db });
      const keys = (await first.request('GET', `${first.url}/oauth2/keys`)).body;
      await first.close();
      const second = await startServer({ world: world(), db });
      const again = (await second.request('GET', `${second.url}/oauth2/keys`)).body;
      await second.close();
      assert.equal(keys.keys.length, 1);
      assert.equal(keys.keys[0].kty, 'RSA');
      assert.equal(keys.keys[0].d, undefined, 'no private part is published');
      assert.deepEqual(again, keys);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
