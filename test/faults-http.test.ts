/**
 * Injected faults on the API (`/admin/faults`): a 429 in v10's body and headers (per bucket or
 * global), a 5xx, added latency; seeded draws strike the same requests every time; counts and
 * `until` expire a fault; a fault never touches another app; bad bodies are 50035 at their path.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { draw } from '../src/core/faults/decide.js';
import { adminRequest, injectServer, type TestResponse, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, GLOBAL_BASE, OTHER_APP_ID, OTHER_BOT_TOKEN } from './helpers/world.js';

const LIST_ROUTE = 'GET /applications/:applicationId/commands';

describe('injected faults on the API', () => {
  let server: TestServer;
  let clock = Date.UTC(2026, 0, 1, 12, 0, 0);

  before(async () => {
    server = await injectServer({ now: () => clock });
  });
  after(() => server.close());
  afterEach(async () => {
    await adminRequest(server, 'DELETE', '/faults');
  });

  async function addFault(body: Record<string, unknown>): Promise<Record<string, any>> {
    const created = await adminRequest(server, 'POST', '/faults', body);
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  const listOwn = (): Promise<TestResponse> => server.request('GET', GLOBAL_BASE, { auth: BOT });

  test('a per-bucket 429 has v10 body and headers, strikes `count` times, and only its app', async () => {
    const fault = await addFault({
      application_id: DEMO_APP_ID,
      kind: 'rate_limit',
      route: LIST_ROUTE,
      retry_after: 2.5,
      count: 2,
    });
    assert.equal(fault.remaining, 2);
    // The other app's requests on the same route are never struck.
    const other = await server.request('GET', `/applications/${OTHER_APP_ID}/commands`, {
      auth: `Bot ${OTHER_BOT_TOKEN}`,
    });
    assert.equal(other.status, 200);
    for (let i = 0; i < 2; i++) {
      const refused = await listOwn();
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, {
        message: 'You are being rate limited.',
        code: 0,
        retry_after: 2.5,
        global: false,
      });
      assert.equal(refused.headers.get('retry-after'), '3');
      assert.equal(refused.headers.get('x-ratelimit-scope'), 'user');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(refused.headers.get('x-ratelimit-reset-after'), '2.500');
      assert.match(refused.headers.get('x-ratelimit-bucket') ?? '', /^[0-9a-f]{32}$/);
      assert.equal(refused.headers.get('x-ratelimit-global'), null);
    }
    assert.equal((await listOwn()).status, 200);
    // Spent: it left the table.
    assert.deepEqual((await adminRequest(server, 'GET', '/faults')).body, []);
  });

  test('a global 429 says so in body and headers; the bucket can be named by its hash', async () => {
    const probe = await addFault({ application_id: DEMO_APP_ID, kind: 'rate_limit', route: LIST_ROUTE, count: 1 });
    const bucket = (await listOwn()).headers.get('x-ratelimit-bucket');
    assert.ok(bucket);
    assert.equal((await adminRequest(server, 'GET', `/faults/${probe.id}`)).status, 404);
    await addFault({ application_id: DEMO_APP_ID, kind: 'rate_limit', route: bucket, global: true, count: 1 });
    const refused = await listOwn();
    assert.equal(refused.status, 429);
    assert.equal(refused.body.global, true);
    assert.equal(refused.headers.get('x-ratelimit-global'), 'true');
    assert.equal(refused.headers.get('x-ratelimit-scope'), 'global');
    // Another route of the app is outside the fault's bucket.
    await addFault({ application_id: DEMO_APP_ID, kind: 'rate_limit', route: bucket, global: true, count: 1 });
    assert.equal((await server.request('GET', '/users/@me', { auth: BOT })).status, 200);
  });

  test('a server error answers the status with a v10 body', async () => {
    await addFault({ application_id: DEMO_APP_ID, kind: 'server_error', status: 503, count: 1 });
    const failed = await listOwn();
    assert.equal(failed.status, 503);
    assert.deepEqual(failed.body, { message: 'Injected fault: 503 Service Unavailable', code: 0 });
    assert.equal((await listOwn()).status, 200);
  });

  test('added latency holds the request up at least that long', async () => {
    await addFault({ application_id: DEMO_APP_ID, kind: 'latency', latency_ms: 150, count: 1 });
    const started = performance.now();
    assert.equal((await listOwn()).status, 200);
    assert.ok(performance.now() - started >= 140);
  });

  test('seeded draws: the same seed strikes the same requests, as the generator says', async () => {
    const outcomes = async (): Promise<boolean[]> => {
      await addFault({
        application_id: DEMO_APP_ID,
        kind: 'server_error',
        route: LIST_ROUTE,
        probability: 0.5,
        seed: 42,
        count: 1000,
      });
      const struck: boolean[] = [];
      for (let i = 0; i < 24; i++) struck.push((await listOwn()).status === 500);
      await adminRequest(server, 'DELETE', `/faults?application_id=${DEMO_APP_ID}`);
      return struck;
    };
    const first = await outcomes();
    const expected = first.map((_, i) => draw(42, i) < 0.5);
    assert.deepEqual(first, expected);
    assert.ok(first.includes(true) && first.includes(false));
    assert.deepEqual(await outcomes(), first);
  });

  test('`until` expires a fault by the clock', async () => {
    await addFault({
      application_id: DEMO_APP_ID,
      kind: 'server_error',
      until: new Date(clock + 60_000).toISOString(),
    });
    assert.equal((await listOwn()).status, 500);
    clock += 60_000;
    assert.equal((await listOwn()).status, 200);
    assert.deepEqual((await adminRequest(server, 'GET', '/faults')).body, []);
  });

  test('the table lists, filters and removes faults; admin token required', async () => {
    const mine = await addFault({ application_id: DEMO_APP_ID, kind: 'drop', count: 3 });
    await addFault({ application_id: OTHER_APP_ID, kind: 'duplicate', count: 1 });
    assert.equal((await adminRequest(server, 'GET', '/faults')).body.length, 2);
    const filtered = (await adminRequest(server, 'GET', `/faults?application_id=${DEMO_APP_ID}`)).body;
    assert.deepEqual(
      filtered.map((fault: { id: string }) => fault.id),
      [mine.id],
    );
    assert.equal(filtered[0].kind, 'drop');
    assert.equal(filtered[0].remaining, 3);
    assert.equal((await adminRequest(server, 'DELETE', `/faults/${mine.id}`)).status, 204);
    assert.equal((await adminRequest(server, 'DELETE', `/faults/${mine.id}`)).status, 404);
    assert.equal((await adminRequest(server, 'GET', '/faults', undefined, null)).status, 401);
    assert.equal(
      (
        await adminRequest(
          server,
          'POST',
          '/faults',
          { application_id: DEMO_APP_ID, kind: 'drop', count: 1 },
          'Bearer wrong',
        )
      ).status,
      401,
    );
  });

  test('bad bodies are 50035 at each field', async () => {
    const refused = await adminRequest(server, 'POST', '/faults', {
      application_id: 'nope',
      kind: 'reconnect',
      route: LIST_ROUTE,
      probability: 2,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50035);
    const errors = refused.body.errors;
    assert.equal(errors.application_id._errors[0].code, 'NUMBER_TYPE_COERCE');
    assert.equal(errors.route._errors[0].code, 'FAULT_FIELD_NOT_ALLOWED');
    assert.equal(errors.probability._errors[0].code, 'NUMBER_TYPE_MAX');
    assert.equal(errors.count._errors[0].code, 'FAULT_EXPIRY_REQUIRED');
    const kind = await adminRequest(server, 'POST', '/faults', {
      application_id: DEMO_APP_ID,
      kind: 'explode',
      count: 1,
    });
    assert.equal(kind.body.errors.kind._errors[0].code, 'BASE_TYPE_CHOICES');
    const until = await adminRequest(server, 'POST', '/faults', {
      application_id: DEMO_APP_ID,
      kind: 'drop',
      until: 'yesterday',
    });
    assert.equal(until.body.errors.until._errors[0].code, 'FAULT_UNTIL_INVALID');
    const status = await adminRequest(server, 'POST', '/faults', {
      application_id: DEMO_APP_ID,
      kind: 'server_error',
      status: 404,
      count: 1,
    });
    assert.equal(status.body.errors.status._errors[0].code, 'BASE_TYPE_CHOICES');
    assert.deepEqual((await adminRequest(server, 'GET', '/faults')).body, []);
  });

  test('the table is bounded per app', async () => {
    for (let i = 0; i < 100; i++) await addFault({ application_id: DEMO_APP_ID, kind: 'drop', count: 1 });
    const full = await adminRequest(server, 'POST', '/faults', { application_id: DEMO_APP_ID, kind: 'drop', count: 1 });
    assert.equal(full.status, 400);
    assert.equal(full.body.message, 'The fault table is full; remove faults or let them expire');
    assert.equal(
      (await adminRequest(server, 'POST', '/faults', { application_id: OTHER_APP_ID, kind: 'drop', count: 1 })).status,
      201,
    );
  });
});
