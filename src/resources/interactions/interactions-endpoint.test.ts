/**
 * The interactions endpoint URL ("Signed HTTP delivery"): `PATCH /applications/@me`
 * stores it only after the endpoint answers a signed PING with PONG and refuses a badly signed
 * request with 401; otherwise 400 (50035 at `interactions_endpoint_url`) and the stored URL is
 * unchanged. An endpoint that accepts bad signatures is never stored. null clears the URL.
 *
 * Every app server of this file records what it received; at the end, every request any of them
 * received carried both signature headers (nothing was ever sent unsigned), and every request
 * that did not verify is one of the deliberately bad ones slashd sends while verifying, which the
 * correct apps refused with 401.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  assertVerificationRequests,
  fetchVerifyKey,
  setEndpoint,
  startAppServer,
  type AppBehaviour,
  type AppServer,
  type Json,
} from '../../../test/helpers/app-server.js';
import { assertErrorBody, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const FIELD = 'interactions_endpoint_url';

describe('PATCH /applications/@me interactions_endpoint_url', () => {
  let server: TestServer;
  let verifyKey: string;
  /** Every app server started in this file, whatever its behaviour. */
  const apps: { app: AppServer; behaviour: AppBehaviour }[] = [];
  const published: Json[] = [];
  let unsubscribe: () => void = () => {};
  let command: Json;

  before(async () => {
    server = await startServer();
    verifyKey = (await fetchVerifyKey(server.api, DEMO_BOT_TOKEN)).verifyKey;
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    assert.equal(created.status, 201, created.text);
    command = created.body;
    unsubscribe = server.slashd.bus.subscribe('INTERACTION_CREATE', (event) => published.push(event));
  });

  after(async () => {
    unsubscribe();
    for (const { app } of apps) await app.close();
    await server?.close();
  });

  async function app(behaviour: AppBehaviour = 'correct', publicKey = verifyKey): Promise<AppServer> {
    const started = await startAppServer({
      publicKey,
      api: server.api,
      applicationId: DEMO_APP_ID,
      behaviour,
      handler: () => ({ inline: { type: 4, data: { content: 'pong' } } }),
    });
    apps.push({ app: started, behaviour });
    return started;
  }

  async function storedUrl(): Promise<string | null> {
    const response = await server.request('GET', '/applications/@me', { auth: BOT });
    assert.equal(response.status, 200, response.text);
    assertMatchesSchema('PrivateApplicationResponse', response.body);
    assert.equal(response.body.id, DEMO_APP_ID);
    assert.equal(response.body.verify_key, verifyKey, 'the key never changes');
    return response.body[FIELD] ?? null;
  }

  /** A refused PATCH: 400, 50035 at interactions_endpoint_url, and the stored URL unchanged. */
  async function refused(url: string, expectedCode = 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID'): Promise<Json> {
    const before = await storedUrl();
    const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, url);
    assert.equal(response.status, 400, response.text);
    assertErrorBody(400, response.body);
    assert.equal(response.body!.code, 50035);
    const errors = response.body!.errors?.[FIELD]?._errors as Json[] | undefined;
    assert.ok(errors, `the error is at ${FIELD}: ${response.text}`);
    assert.deepEqual(
      errors.map((e) => e.code),
      [expectedCode],
    );
    assert.equal(await storedUrl(), before, 'the stored URL is unchanged');
    return response.body!;
  }

  async function invoke(): Promise<Json> {
    const response = await server.request('POST', '/interactions', {
      auth: BOB_TOKEN,
      body: invocationBody(command),
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  let good: AppServer;

  test('no endpoint at first: interactions go to the bus', async () => {
    assert.equal(await storedUrl(), null);
    const before = published.length;
    await invoke();
    assert.equal(published.length, before + 1);
  });

  test('a correct endpoint (verifies with discord-interactions, PONGs, 401 on a bad signature) is stored', async () => {
    good = await app();
    const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, good.url);
    assert.equal(response.status, 200, response.text);
    assertMatchesSchema('PrivateApplicationResponse', response.body);
    assert.equal(response.body!.id, DEMO_APP_ID, 'the PATCH returns the application');
    assert.equal(response.body![FIELD], good.url);
    assert.equal(await storedUrl(), good.url, 'GET /applications/@me shows it');
    assertVerificationRequests(good.received);

    // From now on interactions are delivered there, signed, and not on the bus.
    const before = published.length;
    const accepted = await invoke();
    assert.equal(accepted.state, 'responded');
    assert.equal(published.length, before, 'never both');
    const last = good.received[good.received.length - 1]!;
    assert.ok(last.signed && last.verified);
    assert.equal(last.body?.id, accepted.id);
  });

  test('an endpoint that accepts bad signatures (200 to everything) is never stored', async () => {
    const lax = await app('accept-bad-signatures');
    const body = await refused(lax.url);
    assert.match(JSON.stringify(body.errors), /bad signature/);
    assert.equal(lax.received.length, 2, 'the PING and the badly signed request');
    const [ping, bad] = lax.received as [(typeof lax.received)[0], (typeof lax.received)[0]];
    assert.ok(ping.signed && ping.verified, 'the PING was correctly signed');
    assert.ok(bad.signed, 'the bad request carried signature headers (never unsigned)');
    assert.equal(bad.verified, false, 'and its signature does not verify');
    assert.equal(bad.status, 200, 'this endpoint accepted it: that is why it is refused');
    // Interactions still go to the stored, correct endpoint; the lax one gets none.
    const countBefore = good.received.length;
    await invoke();
    assert.equal(good.received.length, countBefore + 1);
    assert.equal(lax.received.length, 2);
  });

  test('an endpoint that does not PONG is refused after the PING', async () => {
    const mute = await app('no-pong');
    await refused(mute.url);
    assert.equal(mute.received.length, 1, 'no second request after a failed PING');
    assert.ok(mute.received[0]!.verified);
  });

  test('an endpoint answering 500 is refused', async () => {
    const broken = await app('error-500');
    await refused(broken.url);
    assert.ok(broken.received.length >= 1);
  });

  test('an endpoint that checks signatures against another key answers 401 to the PING: refused', async () => {
    const otherKey = (await fetchVerifyKey(server.api, OTHER_BOT_TOKEN)).verifyKey;
    assert.notEqual(otherKey, verifyKey, 'every app has its own key pair');
    const confused = await app('correct', otherKey);
    await refused(confused.url);
    assert.equal(confused.received.length, 1);
    assert.equal(confused.received[0]!.status, 401);
  });

  test('an unreachable URL is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const body = await refused(`http://127.0.0.1:${port}/interactions`);
    assert.match(JSON.stringify(body.errors), /could not be verified\./);
    assert.doesNotMatch(
      JSON.stringify(body.errors),
      new RegExp(`ECONNREFUSED|${port}`),
      'nothing tells a closed port from an open one',
    );
  });

  test('URLs that are not http(s) URLs are refused without any request', async () => {
    await refused('not a url', 'URL_TYPE_INVALID_URL');
    await refused('ftp://127.0.0.1/interactions', 'URL_TYPE_INVALID_SCHEME');
    const long = `http://127.0.0.1/${'a'.repeat(2048)}`;
    await refused(long, 'URL_TYPE_INVALID_URL');
  });

  test("a PATCH without the field changes nothing; only the app's bot token may PATCH", async () => {
    const response = await server.request('PATCH', '/applications/@me', { auth: BOT, body: {} });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body[FIELD], good.url);
    for (const auth of [undefined, ALICE_TOKEN, 'Bearer alice-perm-token']) {
      const denied = await server.request('PATCH', '/applications/@me', { auth, body: { [FIELD]: null } });
      assert.equal(denied.status, 401, `${auth}: ${denied.text}`);
      assertErrorBody(401, denied.body);
    }
    assert.equal(await storedUrl(), good.url);
  });

  test('another correct endpoint replaces the first; interactions go to the new one only', async () => {
    const next = await app();
    const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, next.url);
    assert.equal(response.status, 200, response.text);
    assertVerificationRequests(next.received);
    const oldCount = good.received.length;
    await invoke();
    assert.equal(good.received.length, oldCount, 'the old endpoint gets nothing');
    assert.equal(next.received.length, 3);
    good = next;
  });

  test('null clears the URL: interactions go to the bus again', async () => {
    const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, null);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body![FIELD] ?? null, null);
    assert.equal(await storedUrl(), null);
    const count = good.received.length;
    const before = published.length;
    const accepted = await invoke();
    assert.equal(accepted.state, 'pending');
    assert.equal(published.length, before + 1);
    assert.equal(good.received.length, count, 'the cleared endpoint gets nothing');
  });

  test('across every app server of this file: nothing unsigned, and only verification requests failed to verify', () => {
    let badOnes = 0;
    for (const { app: server_, behaviour } of apps) {
      for (const [i, request] of server_.received.entries()) {
        const label = `${behaviour} app, request ${i}`;
        assert.ok(request.signed, `${label}: signed`);
        assert.match(String(request.headers['x-signature-ed25519']), /^[0-9a-f]{128}$/, `${label}: a hex signature`);
        assert.match(String(request.headers['x-signature-timestamp']), /^[0-9]+$/, `${label}: a timestamp`);
        if (request.verified) continue;
        badOnes++;
        assert.equal(request.body?.type, 1, `${label}: only a verification PING may fail to verify`);
        if (behaviour === 'correct') assert.equal(request.status, 401, `${label}: a correct app refused it`);
      }
    }
    assert.ok(badOnes >= 3, 'the deliberately bad requests were seen');
  });
});
