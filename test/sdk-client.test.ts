/**
 * The client library in Node: PKCE, argument checks, the loopback flow (RFC 8252) against a tiny
 * fake authorization endpoint, and token requests against a fake token endpoint. The real slashd
 * flow, in a browser, is test/sdk-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { s256Challenge } from '../src/sdk/code-challenge.js';
import type { ClientResult } from '../src/sdk/node.js';
import {
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ErrorType,
  IntegrationType,
  nodeLoopback,
} from '../src/sdk/node.js';
import { DEMO_APP_ID } from './helpers/world.js';

interface AuthorizeOutcome {
  result: ClientResult;
  code: string;
  redirectUri: string;
}

function authorize(client: Client, args: AuthorizationArgs): Promise<AuthorizeOutcome> {
  return new Promise((resolve) =>
    client.authorize(args, (result, code, redirectUri) => resolve({ result, code, redirectUri })),
  );
}

/** Plays the user's browser: reads the authorize URL, then calls the redirect URI with the query `answer` makes. */
function fakeUserAgent(answer: (query: URLSearchParams) => Record<string, string>, seen: URL[] = []) {
  return async (url: string) => {
    const page = new URL(url);
    seen.push(page);
    const back = new URL(page.searchParams.get('redirect_uri')!);
    for (const [key, value] of Object.entries(answer(page.searchParams))) back.searchParams.set(key, value);
    const response = await fetch(back);
    assert.equal(response.status, 200);
    await response.text();
  };
}

function argsWithScopes(scopes = 'openid identify'): AuthorizationArgs {
  const args = new AuthorizationArgs();
  args.setScopes(scopes);
  return args;
}

describe('PKCE', () => {
  test('S256 of the RFC 7636 appendix B verifier is its published challenge', async () => {
    assert.equal(
      await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('createAuthorizationCodeVerifier makes a 43-character verifier and its S256 challenge, fresh each time', async () => {
    const client = new Client({ baseUrl: 'http://127.0.0.1:1' });
    const first = await client.createAuthorizationCodeVerifier();
    const second = await client.createAuthorizationCodeVerifier();
    assert.match(first.verifier(), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(first.challenge().challenge(), await s256Challenge(first.verifier()));
    assert.equal(first.challenge().method(), 0);
    assert.notEqual(first.verifier(), second.verifier());
  });

  test('the default scope sets', () => {
    const client = new Client({ baseUrl: 'http://127.0.0.1:1' });
    assert.equal(client.getDefaultCommunicationScopes(), 'openid sdk.social_layer');
    assert.equal(client.getDefaultPresenceScopes(), 'openid sdk.social_layer_presence');
  });
});

describe('authorize refuses before showing anything', () => {
  const opened: string[] = [];
  const client = new Client({
    baseUrl: 'http://127.0.0.1:1',
    transport: nodeLoopback({ open: (url) => void opened.push(url) }),
  });
  client.setApplicationId(DEMO_APP_ID);

  test('without Scopes, with a message that says so', async () => {
    const { result, code } = await authorize(client, new AuthorizationArgs());
    assert.equal(result.successful(), false);
    assert.equal(result.type(), ErrorType.ValidationError);
    assert.equal(result.error(), 'invalid_argument');
    assert.match(result.errorDescription(), /Scopes is required/);
    assert.equal(code, '');
  });

  test('with nullobj, without any client id, or with a bad one', async () => {
    assert.match((await authorize(client, AuthorizationArgs.nullobj)).result.errorDescription(), /nullobj/);
    const noId = new Client({ baseUrl: 'http://127.0.0.1:1', transport: nodeLoopback() });
    assert.match((await authorize(noId, argsWithScopes())).result.errorDescription(), /setApplicationId/);
    const bad = argsWithScopes();
    bad.setClientId('12ab');
    assert.match((await authorize(client, bad)).result.errorDescription(), /ClientId/);
    const scheme = argsWithScopes();
    scheme.setCustomSchemeParam('not a scheme');
    assert.match((await authorize(client, scheme)).result.errorDescription(), /CustomSchemeParam/);
  });

  test('in Node without a transport', async () => {
    const bare = new Client({ baseUrl: 'http://127.0.0.1:1' });
    bare.setApplicationId(DEMO_APP_ID);
    assert.match((await authorize(bare, argsWithScopes())).result.errorDescription(), /nodeLoopback/);
    assert.deepEqual(opened, []);
  });
});

describe('authorize in Node: the loopback redirect listener', () => {
  test('sends every argument, gets the code back on 127.0.0.1 and closes the listener', async () => {
    const seen: URL[] = [];
    const client = new Client({
      baseUrl: 'http://slashd.test:8080/',
      transport: nodeLoopback({ open: fakeUserAgent((q) => ({ code: 'the-code', state: q.get('state')! }), seen) }),
    });
    client.setApplicationId(DEMO_APP_ID);
    const verifier = await client.createAuthorizationCodeVerifier();
    const args = argsWithScopes(client.getDefaultCommunicationScopes());
    args.setNonce('nonce-1');
    args.setCodeChallenge(verifier.challenge());
    args.setIntegrationType(IntegrationType.UserInstall);
    const { result, code, redirectUri } = await authorize(client, args);
    assert.equal(result.successful(), true, result.toString());
    assert.equal(code, 'the-code');
    assert.match(redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = seen[0]!;
    assert.equal(`${page.origin}${page.pathname}`, 'http://slashd.test:8080/oauth2/authorize');
    const query = Object.fromEntries(page.searchParams);
    assert.deepEqual(
      { ...query, state: undefined },
      {
        response_type: 'code',
        client_id: DEMO_APP_ID,
        redirect_uri: redirectUri,
        scope: 'openid sdk.social_layer',
        state: undefined,
        nonce: 'nonce-1',
        code_challenge: verifier.challenge().challenge(),
        code_challenge_method: 'S256',
        integration_type: '1',
      },
    );
    // The generated state: 128 random bits in base64url, handed back once it matched.
    assert.match(query.state!, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(result.state(), query.state);
    await assert.rejects(fetch(redirectUri), 'the listener is closed after the flow');
  });

  test('a state of the caller is sent as is; each flow generates its own otherwise', async () => {
    const seen: URL[] = [];
    const client = new Client({
      baseUrl: 'http://127.0.0.1:1',
      transport: nodeLoopback({ open: fakeUserAgent((q) => ({ code: 'c', state: q.get('state')! }), seen) }),
    });
    const args = argsWithScopes();
    args.setClientId(DEMO_APP_ID);
    args.setState('chosen-state');
    assert.equal((await authorize(client, args)).result.state(), 'chosen-state');
    await authorize(client, argsWithScopes().clone());
    args.setState(undefined);
    await authorize(client, args);
    await authorize(client, args);
    const states = seen.map((url) => url.searchParams.get('state'));
    assert.equal(states[0], 'chosen-state');
    assert.notEqual(states[2], states[3]);
  });

  test('an answer with another state is refused and its code never handed out', async () => {
    const client = new Client({
      baseUrl: 'http://127.0.0.1:1',
      transport: nodeLoopback({ open: fakeUserAgent((q) => ({ code: 'stolen', state: `${q.get('state')!}x` })) }),
    });
    client.setApplicationId(DEMO_APP_ID);
    const { result, code } = await authorize(client, argsWithScopes());
    assert.equal(result.successful(), false);
    assert.equal(result.error(), 'state_mismatch');
    assert.equal(result.type(), ErrorType.InvalidResponse);
    assert.equal(code, '');
  });

  test('a denial comes back as access_denied with the state', async () => {
    const client = new Client({
      baseUrl: 'http://127.0.0.1:1',
      transport: nodeLoopback({
        open: fakeUserAgent((q) => ({
          error: 'access_denied',
          error_description: 'The user said no',
          state: q.get('state')!,
        })),
      }),
    });
    client.setApplicationId(DEMO_APP_ID);
    const args = argsWithScopes();
    args.setState('s-1');
    const { result, code } = await authorize(client, args);
    assert.equal(result.error(), 'access_denied');
    assert.equal(result.errorDescription(), 'The user said no');
    assert.equal(result.type(), ErrorType.AuthorizationFailed);
    assert.equal(result.state(), 's-1');
    assert.equal(code, '');
  });

  test('nobody coming back ends the flow at its timeout as cancelled', async () => {
    const client = new Client({
      baseUrl: 'http://127.0.0.1:1',
      transport: nodeLoopback({ open: () => undefined, timeoutMs: 50 }),
    });
    client.setApplicationId(DEMO_APP_ID);
    const { result } = await authorize(client, argsWithScopes());
    assert.equal(result.error(), 'cancelled');
    assert.equal(result.type(), ErrorType.Aborted);
  });
});

describe('getToken and refreshToken', () => {
  let server: Server;
  let base: string;
  const forms: Record<string, string>[] = [];

  before(async () => {
    server = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        forms.push({ ...form, path: request.url ?? '', type: request.headers['content-type'] ?? '' });
        const good = form.code === 'good' || form.refresh_token === 'r1';
        response.writeHead(good ? 200 : 400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(
            good
              ? {
                  access_token: 'a1',
                  token_type: 'Bearer',
                  expires_in: 604800,
                  refresh_token: 'r2',
                  scope: 'identify openid',
                }
              : { error: 'invalid_grant', error_description: 'The code is not valid' },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function token(call: (client: Client, callback: Parameters<Client['refreshToken']>[2]) => void) {
    const client = new Client({ baseUrl: base });
    return new Promise<unknown[]>((resolve) => call(client, (...values) => resolve(values)));
  }

  test('getToken posts the code and verifier as a form and calls back with the token', async () => {
    const [result, access, refresh, type, expires, scopes] = await token((client, cb) =>
      client.getToken(DEMO_APP_ID, 'good', 'the-verifier', 'http://127.0.0.1:9/callback', cb),
    );
    assert.equal((result as ClientResult).successful(), true);
    assert.deepEqual(
      [access, refresh, type, expires, scopes],
      ['a1', 'r2', AuthorizationTokenType.Bearer, 604800, 'identify openid'],
    );
    assert.deepEqual(forms.at(-1), {
      grant_type: 'authorization_code',
      client_id: DEMO_APP_ID,
      code: 'good',
      code_verifier: 'the-verifier',
      redirect_uri: 'http://127.0.0.1:9/callback',
      path: '/api/v10/oauth2/token',
      type: 'application/x-www-form-urlencoded',
    });
  });

  test('refreshToken posts the refresh token', async () => {
    const [result, access] = await token((client, cb) => client.refreshToken(DEMO_APP_ID, 'r1', cb));
    assert.equal((result as ClientResult).successful(), true);
    assert.equal(access, 'a1');
    assert.equal(forms.at(-1)?.grant_type, 'refresh_token');
    assert.equal(forms.at(-1)?.refresh_token, 'r1');
  });

  test("the endpoint's OAuth2 error becomes the result, with its status", async () => {
    const [result, access] = await token((client, cb) => client.getToken(DEMO_APP_ID, 'bad', 'v', 'http://x/cb', cb));
    const failed = result as ClientResult;
    assert.equal(failed.type(), ErrorType.HTTPError);
    assert.equal(failed.error(), 'invalid_grant');
    assert.equal(failed.status(), 400);
    assert.equal(access, '');
  });

  test('an unreachable server is a network error, not a throw', async () => {
    const client = new Client({ baseUrl: 'http://127.0.0.1:1' });
    const result = await new Promise<ClientResult>((resolve) =>
      client.refreshToken(DEMO_APP_ID, 'r', (r) => resolve(r)),
    );
    assert.equal(result.type(), ErrorType.NetworkError);
  });
});
