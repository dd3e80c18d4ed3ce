/**
 * Bad input never yields a 5xx, on every endpoint that takes a body or a path a client chooses:
 * interactions, callbacks, webhooks, permissions, the current application, OAuth2 and the admin
 * API. Bounded runs of random JSON, random raw bytes and random path segments.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertErrorBody } from './helpers/openapi.js';
import { injectServer, type TestResponse, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, ALICE_TOKEN, BOT, DEMO_APP_ID, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

/** Not a 5xx, and every refusal is a v10 error body (ErrorResponse in the OpenAPI document). */
function assertClientError(response: TestResponse, what: string): void {
  assert.ok(response.status < 500, `${what} → ${response.status} ${response.text}`);
  if (response.status >= 400) assertErrorBody(response.status, response.body);
}

interface Target {
  method: string;
  path: (server: TestServer, segment: string) => string;
  auth: string | null;
}

describe('no 5xx on any endpoint', () => {
  let server: TestServer;
  let commandId = '';
  let interactionPath = '';
  let webhookPath = '';
  const targets: Target[] = [];

  before(async () => {
    server = await injectServer();
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: {
        name: 'fuzz',
        description: 'Fuzzed',
        options: [{ type: 4, name: 'n', description: 'A number', min_value: 0 }],
      },
    });
    assert.equal(created.status, 201);
    commandId = created.body.id;
    // An app without an endpoint: the interaction waits on the bus, and its token is real.
    const invoked = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody(created.body),
    });
    assert.equal(invoked.status, 200, invoked.text);
    const stored = await server.slashd.store.interactions.getInteraction(DEMO_APP_ID, invoked.body.id);
    assert.ok(stored);
    interactionPath = `/interactions/${stored.id}/${stored.token}`;
    webhookPath = `/webhooks/${DEMO_APP_ID}/${stored.token}`;

    const admin = `Bearer ${ADMIN_TOKEN}`;
    targets.push(
      { method: 'POST', path: () => '/interactions', auth: ALICE_TOKEN },
      { method: 'POST', path: () => `${interactionPath}/callback`, auth: null },
      { method: 'POST', path: (_s, seg) => `/interactions/${seg}/${seg}/callback`, auth: null },
      { method: 'POST', path: () => webhookPath, auth: null },
      { method: 'PATCH', path: () => `${webhookPath}/messages/@original`, auth: null },
      { method: 'PATCH', path: (_s, seg) => `/webhooks/${DEMO_APP_ID}/${seg}/messages/${seg}`, auth: null },
      {
        method: 'PUT',
        path: () => `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${commandId}/permissions`,
        auth: 'Bearer alice-perm-token',
      },
      {
        method: 'PUT',
        path: (_s, seg) => `/applications/${DEMO_APP_ID}/guilds/${seg}/commands/${seg}/permissions`,
        auth: 'Bearer alice-perm-token',
      },
      { method: 'PATCH', path: () => '/applications/@me', auth: BOT },
      { method: 'GET', path: (_s, seg) => `/channels/${seg}/messages?limit=${seg}`, auth: ALICE_TOKEN },
      { method: 'GET', path: (_s, seg) => `/channels/${seg}/application-command-index`, auth: ALICE_TOKEN },
      { method: 'PUT', path: (s) => `${s.url}/admin/world`, auth: admin },
      { method: 'POST', path: (s) => `${s.url}/admin/world`, auth: admin },
      { method: 'PUT', path: (s, seg) => `${s.url}/admin/guilds/${seg}`, auth: admin },
      { method: 'PUT', path: (s, seg) => `${s.url}/admin/applications/${seg}`, auth: admin },
      { method: 'POST', path: (s) => `${s.url}/admin/oauth2-tokens`, auth: admin },
      { method: 'POST', path: (s, seg) => `${s.url}/admin/applications/${seg}/subscriptions`, auth: admin },
      {
        method: 'POST',
        path: (s, seg) => `${s.url}/admin/applications/${DEMO_APP_ID}/subscriptions/${seg}/renew`,
        auth: admin,
      },
      { method: 'GET', path: (_s, seg) => `/skus/${seg}/subscriptions?user_id=${seg}&limit=${seg}`, auth: BOT },
      { method: 'POST', path: (s, seg) => `${s.url}/console/api/applications/${seg}/purchases`, auth: ALICE_TOKEN },
    );
  });
  after(() => server.close());

  const segmentArb = fc.oneof(
    fc.constantFrom('0', '1', '-1', '18446744073709551616', '@me', '@original', '%00', 'null', '1345183757107200011'),
    fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/),
  );

  it('random JSON bodies and path segments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.jsonValue({ maxDepth: 4 }), segmentArb, async (pick, body, segment) => {
        const target = targets[pick % targets.length]!;
        const response = await server.request(target.method, target.path(server, segment), {
          auth: target.auth,
          ...(target.method === 'GET'
            ? {}
            : { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        });
        assertClientError(response, `${target.method} ${target.path(server, segment)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('random raw bytes with random content types', async () => {
    const contentTypeArb = fc.constantFrom(
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.string({ maxLength: 200 }),
        contentTypeArb,
        segmentArb,
        async (pick, raw, contentType, segment) => {
          const target = targets[pick % targets.length]!;
          const response = await server.request(target.method, target.path(server, segment), {
            auth: target.auth,
            ...(target.method === 'GET' ? {} : { rawBody: raw, headers: { 'content-type': contentType } }),
          });
          assertClientError(response, target.method);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the OAuth2 token endpoint with random forms', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('grant_type', 'scope', 'client_id', 'client_secret', 'code'), fc.string()),
        fc.string(),
        async (form, basic) => {
          const response = await server.request('POST', '/oauth2/token', {
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
            },
            rawBody: new URLSearchParams(form).toString(),
          });
          assert.ok(response.status < 500, `oauth2 → ${response.status}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
