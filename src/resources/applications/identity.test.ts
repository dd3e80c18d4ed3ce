/**
 * Who am I ("Auth"): `GET /users/@me`, `GET /applications/@me` and
 * `GET /oauth2/applications/@me`, which client libraries call to log in, return the full v10
 * objects (validated against the OpenAPI schemas) for the bot and for a Bearer token.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody, assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  BOB_ID,
  BOB_IDENTIFY_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  DEMO_CC_TOKEN,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };
const APPLICATION_PATHS = ['/applications/@me', '/oauth2/applications/@me'];

describe('identity endpoints', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  async function get(path: string, auth: string | null): Promise<Json> {
    const response = await server.request('GET', path, { auth });
    assert.equal(response.status, 200, `${path}: ${response.text}`);
    return response.body;
  }

  test('GET /users/@me with the bot token: the bot user, id = app id, bot: true', async () => {
    const user = await get('/users/@me', BOT);
    assertMatchesSchema('UserPIIResponse', user);
    assert.equal(user.id, DEMO_APP_ID);
    assert.equal(user.username, 'Demo Bot');
    assert.equal(user.bot, true);
    const other = await get('/users/@me', `Bot ${OTHER_BOT_TOKEN}`);
    assertMatchesSchema('UserPIIResponse', other);
    assert.equal(other.id, OTHER_APP_ID);
    assert.equal(other.bot, true);
  });

  test("GET /users/@me with a Bearer token: the token's user", async () => {
    const bob = await get('/users/@me', `Bearer ${BOB_IDENTIFY_TOKEN}`);
    assertMatchesSchema('UserPIIResponse', bob);
    assert.equal(bob.id, BOB_ID);
    assert.equal(bob.username, 'bob');
    assert.equal(bob.locale, 'fr');
    assert.notEqual(bob.bot, true);
  });

  test('GET /users/@me with a client-credentials token: the app owner', async () => {
    const owner = await get('/users/@me', `Bearer ${DEMO_CC_TOKEN}`);
    assertMatchesSchema('UserPIIResponse', owner);
    assert.equal(owner.id, ALICE_ID);
    assert.equal(owner.username, 'alice');
    assert.notEqual(owner.bot, true);
  });

  for (const path of APPLICATION_PATHS) {
    test(`GET ${path}: the full application object`, async () => {
      for (const auth of [BOT, `Bearer ${DEMO_CC_TOKEN}`]) {
        const app = await get(path, auth);
        assertMatchesSchema('PrivateApplicationResponse', app);
        assert.equal(app.id, DEMO_APP_ID);
        assert.equal(app.name, 'Demo Bot');
        assert.match(app.verify_key, /^[0-9a-f]{64}$/);
        assert.equal(app.owner.id, ALICE_ID);
        assert.equal(app.owner.username, 'alice');
        assertMatchesSchema('UserResponse', app.owner);
        assert.equal(app.bot.id, DEMO_APP_ID, 'the bot user has the app id');
        // The three privileged intents' _LIMITED flags (docs/world.md).
        assert.equal(app.flags, (1 << 13) | (1 << 15) | (1 << 19));
        assert.deepEqual(app.redirect_uris, ['http://127.0.0.1/callback']);
        assert.equal(app.interactions_endpoint_url, null);
        assert.ok(!JSON.stringify(app).includes('demo-client-secret'), 'the client secret never leaves');
        assert.ok(!JSON.stringify(app).includes(DEMO_BOT_TOKEN), 'the bot token never leaves');
      }
      const other = await get(path, `Bot ${OTHER_BOT_TOKEN}`);
      assertMatchesSchema('PrivateApplicationResponse', other);
      assert.equal(other.id, OTHER_APP_ID);
    });
  }

  test('both application paths agree, and verify_key is a stable Ed25519 public key', async () => {
    const a = await get(APPLICATION_PATHS[0]!, BOT);
    const b = await get(APPLICATION_PATHS[1]!, BOT);
    assert.deepEqual(a, b);
    const again = await get(APPLICATION_PATHS[0]!, BOT);
    assert.equal(again.verify_key, a.verify_key);
    const other = await get(APPLICATION_PATHS[0]!, `Bot ${OTHER_BOT_TOKEN}`);
    assert.notEqual(other.verify_key, a.verify_key, 'each app has its own key');
    // A raw 32-byte Ed25519 key: wrapped in its SPKI header, node accepts it.
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(a.verify_key, 'hex')]);
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    assert.equal(key.asymmetricKeyType, 'ed25519');
    assert.equal(verify(null, Buffer.from('x'), key, Buffer.alloc(64)), false);
  });

  test('GET/PATCH /applications/{id}: the same object as @me for the app itself; 20012 for another', async () => {
    const byId = await get(`/applications/${DEMO_APP_ID}`, BOT);
    assert.deepEqual(byId, await get('/applications/@me', BOT));
    const foreign = await server.request('GET', `/applications/${OTHER_APP_ID}`, { auth: BOT });
    assert.deepEqual([foreign.status, foreign.body.code], [403, 20012]);
    // The edit is @me's (the interactions endpoint URL, verified first): an empty one changes nothing.
    const edited = await server.request('PATCH', `/applications/${DEMO_APP_ID}`, { auth: BOT, body: {} });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body, byId);
    const foreignEdit = await server.request('PATCH', `/applications/${OTHER_APP_ID}`, {
      auth: BOT,
      body: { interactions_endpoint_url: null },
    });
    assert.deepEqual([foreignEdit.status, foreignEdit.body.code], [403, 20012]);
  });

  test('401 without a token, or with a bad one', async () => {
    for (const path of ['/users/@me', ...APPLICATION_PATHS]) {
      for (const auth of [null, 'Bot nope', 'Bearer nope', 'Basic Zm9vOmJhcg==', 'garbage token']) {
        const response = await server.request('GET', path, { auth });
        assert.equal(response.status, 401, `${path} with ${auth}: ${response.text}`);
        assertErrorBody(response.status, response.body);
        assert.deepEqual(response.body, UNAUTHORIZED);
      }
    }
  });
});
