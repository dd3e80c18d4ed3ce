/**
 * Operations: `GET /metrics` (Prometheus text from the server's own registry, behind the metrics
 * or admin token), the counters it shows moving with real traffic (HTTP requests per route,
 * deliveries to a real app endpoint, interaction states, gateway sessions, rate limits, the
 * PostgreSQL pool), and the request id: taken from a safe `X-Request-Id` or generated, sent back,
 * stamped on every log line of the request, and carried into the delivery to the app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register as globalRegistry } from 'prom-client';
import { watchDependencies } from '../src/metrics/dependency-observer.js';
import { PrometheusMetrics } from '../src/metrics/prometheus.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { startRegisteredApp, type AppServer, type Json } from './helpers/app-server.js';
import { CLI, killAll, startChild } from './helpers/cli-process.js';
import { GatewayClient } from './helpers/gateway-client.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from './helpers/postgres.js';
import { parseExposition, sampleValue, type Exposition } from './helpers/prometheus.js';
import { injectServer, startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_TOKEN,
  BOB_TOKEN as USER_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

const METRICS_TOKEN = 'scrape-only-secret';
const LIST_ROUTE = '/api/v10/applications/:applicationId/guilds/:guildId/commands';
/** prom-client's type for the 0.0.4 text format. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
/** Safety net of the condition waits below: a wait that never ends fails instead of hanging. */
const WAIT_TRIES = 500;

describe('operations: /metrics and request ids', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;
  const logLines: Json[] = [];

  before(async () => {
    server = await startServer({
      config: {
        logLevel: 'info',
        metricsToken: METRICS_TOKEN,
        logDestination: {
          write(text: string) {
            for (const line of text.split('\n')) if (line.trim() !== '') logLines.push(JSON.parse(line) as Json);
          },
        },
      },
    });
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    assert.equal(created.status, 201, created.text);
    command = created.body;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'pong' } },
    }));
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function scrape(token = METRICS_TOKEN): Promise<Exposition> {
    const response = await server.request('GET', `${server.url}/metrics`, { auth: `Bearer ${token}` });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), PROMETHEUS_TEXT);
    return parseExposition(response.text);
  }

  /** Scrapes until `value` of the scrape reaches `expected` (counts land when a request has finished). */
  async function untilValue(value: (e: Exposition) => number, expected: number): Promise<void> {
    let last = NaN;
    for (let i = 0; i < WAIT_TRIES; i++) {
      last = value(await scrape());
      if (last === expected) return;
    }
    assert.equal(last, expected);
  }

  function invoke(headers: Record<string, string> = {}) {
    return server.request('POST', '/interactions', {
      auth: USER_TOKEN,
      headers,
      body: invocationBody(command),
    });
  }

  test('/metrics is refused without the metrics or admin token as Bearer', async () => {
    for (const auth of [undefined, 'Bearer wrong', BOT, USER_TOKEN, METRICS_TOKEN, `Bot ${METRICS_TOKEN}`]) {
      const response = await server.request('GET', `${server.url}/metrics`, { auth });
      assert.equal(response.status, 401, `${auth}: ${response.text}`);
      assert.equal(response.body.code, 0);
      assert.doesNotMatch(response.text, /slashd_/);
    }
  });

  test('/metrics answers valid Prometheus text, process metrics included, to either token', async () => {
    for (const token of [METRICS_TOKEN, ADMIN_TOKEN]) {
      const metrics = await scrape(token);
      assert.equal(metrics.types.get('slashd_http_request_duration_seconds'), 'histogram');
      assert.equal(metrics.types.get('slashd_deliveries_total'), 'counter');
      assert.equal(metrics.types.get('slashd_gateway_sessions'), 'gauge');
      assert.ok(sampleValue(metrics, 'slashd_process_resident_memory_bytes') > 0, 'default process metrics');
      assert.ok(metrics.types.has('slashd_nodejs_eventloop_lag_p99_seconds'));
      assert.equal(sampleValue(metrics, 'slashd_node_id'), server.slashd.ids.nodeId);
    }
  });

  test('a 200 list and a 404 count under their route pattern, method and status class', async () => {
    const ok = { route: LIST_ROUTE, method: 'GET', status_class: '2xx' };
    const missing = { route: '(unmatched)', method: 'GET', status_class: '4xx' };
    const count = 'slashd_http_request_duration_seconds_count';
    const before = await scrape();
    const listed = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
    });
    assert.equal(listed.status, 200);
    const notFound = await server.request('GET', '/no/such/route');
    assert.equal(notFound.status, 404);
    await untilValue((m) => sampleValue(m, count, ok), sampleValue(before, count, ok) + 1);
    await untilValue((m) => sampleValue(m, count, missing), sampleValue(before, count, missing) + 1);
    const after = await scrape();
    // The path's ids never become labels: only the pattern does.
    assert.ok(!after.samples.some((s) => s.labels.route?.includes(DEMO_APP_ID)));
    const buckets = after.samples.filter((s) => s.name === 'slashd_http_request_duration_seconds_bucket');
    assert.ok(buckets.some((s) => s.labels.route === LIST_ROUTE && s.labels.le === '+Inf'));
  });

  test('a delivery answered by the app counts as ok, and the interaction as created and responded', async () => {
    const before = await scrape();
    const response = await invoke();
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'responded');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    assert.equal(delta('slashd_deliveries_total', { transport: 'http', outcome: 'ok' }), 1);
    assert.equal(delta('slashd_interactions_total', { state: 'created' }), 1);
    assert.equal(delta('slashd_interactions_total', { state: 'responded' }), 1);
    assert.equal(delta('slashd_interactions_total', { state: 'failed' }), 0);
  });

  test('an endpoint answering 500 counts as bad_status, an unreachable one as connect_error', async () => {
    const before = await scrape();
    app.handle(() => ({ status: 500, body: 'broken' }));
    const failed = await invoke({ 'x-request-id': 'failing-delivery-1' });
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.state, 'failed');
    const line = logLines.find((l) => l.msg === 'interaction delivery failed' && l.interactionId === failed.body.id);
    assert.ok(line, 'the failure has its log line');
    assert.equal(line.reqId, 'failing-delivery-1', 'with the request id');
    assert.equal(line.outcome, 'bad_status');
    assert.equal(line.detail, 'the endpoint answered 500');
    await app.close();
    const unreachableApp = await invoke();
    assert.equal(unreachableApp.body.state, 'failed');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    assert.equal(delta('slashd_deliveries_total', { transport: 'http', outcome: 'bad_status' }), 1);
    assert.equal(delta('slashd_deliveries_total', { transport: 'http', outcome: 'connect_error' }), 1);
    assert.equal(delta('slashd_deliveries_total', { transport: 'http', outcome: 'ok' }), 0);
    assert.equal(delta('slashd_interaction_failures_total', { reason: 'delivery_failure' }), 2);
    assert.equal(delta('slashd_interactions_total', { state: 'failed' }), 2);
  });

  test('a safe X-Request-Id is kept: reply header, every log line of the request, the delivery and its log line', async () => {
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'hi' } },
    }));
    const id = 'trace-42.abc_DEF:7';
    const response = await invoke({ 'x-request-id': id });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('x-request-id'), id);
    const delivered = app.received.at(-1)!;
    assert.equal(delivered.verified, true);
    assert.equal(delivered.headers['x-request-id'], id, 'the app gets the request id');
    const lines = logLines.filter((line) => line.reqId === id);
    const messages = lines.map((line) => line.msg);
    // One line per request (issue 39: there were two).
    assert.deepEqual(
      messages.filter((message) => message === 'request completed' || message === 'incoming request'),
      ['request completed'],
    );
    const delivery = lines.find((line) => line.msg === 'interaction delivered');
    assert.ok(delivery, `a delivery line with the request id: ${messages.join()}`);
    assert.equal(delivery.outcome, 'ok');
    assert.equal(delivery.interactionId, response.body.id);
    assert.equal(delivery.applicationId, DEMO_APP_ID);
    assert.equal(typeof delivery.durationMs, 'number');
  });

  test('an unsafe or missing X-Request-Id is replaced by a generated one', async () => {
    const generated = /^[0-9a-f]{16}$/;
    const seen = new Set<string>();
    for (const given of ['x'.repeat(65), 'has space', 'quote"d', '{"forged":1}', '', undefined]) {
      const headers: Record<string, string> = given === undefined ? {} : { 'x-request-id': given };
      const response = await server.request('GET', '/gateway', { headers });
      assert.equal(response.status, 200);
      const id = response.headers.get('x-request-id') ?? '';
      assert.match(id, generated, `for ${JSON.stringify(given)}`);
      assert.notEqual(id, given);
      assert.ok(!seen.has(id), 'each request gets an id of its own');
      seen.add(id);
      assert.ok(logLines.some((line) => line.reqId === id && line.msg === 'request completed'));
      assert.ok(!logLines.some((line) => given && line.reqId === given));
    }
    const errorReply = await server.request('GET', '/no/such/route');
    assert.match(errorReply.headers.get('x-request-id') ?? '', generated, 'errors carry the id too');
  });

  test('a deferred answer counts as acknowledged, then responded on its edit; no token is ever logged', async () => {
    // A deferred answer: the interaction token travels in the callback's and the webhook's paths.
    app.handle(() => ({ accepted: true, after: (interaction, self) => self.callback(interaction, { type: 5 }) }));
    const before = await scrape();
    const response = await invoke();
    assert.equal(response.status, 200, response.text);
    const [callback] = (await app.idle()).slice(-1) as [{ status: number }];
    assert.equal(callback.status, 204);
    const interaction = app.interactions().at(-1)!;
    const token = interaction.token as string;
    const state = (after: Exposition, name: string) =>
      sampleValue(after, 'slashd_interactions_total', { state: name }) -
      sampleValue(before, 'slashd_interactions_total', { state: name });
    let after = await scrape();
    assert.equal(state(after, 'acknowledged'), 1);
    assert.equal(state(after, 'responded'), 0);
    const edited = await app.call('PATCH', `/webhooks/${DEMO_APP_ID}/${token}/messages/@original`, { content: 'done' });
    assert.equal(edited.status, 200, edited.text);
    after = await scrape();
    assert.equal(state(after, 'responded'), 1);
    assert.equal(
      sampleValue(after, 'slashd_deliveries_total', { transport: 'http', outcome: 'ok' }) -
        sampleValue(before, 'slashd_deliveries_total', { transport: 'http', outcome: 'ok' }),
      1,
      'a 202 is a delivered interaction',
    );
    const text = JSON.stringify(logLines);
    for (const secret of [token, DEMO_BOT_TOKEN, USER_TOKEN, METRICS_TOKEN, ADMIN_TOKEN]) {
      assert.equal(text.includes(secret), false, `${secret.slice(0, 12)}... is not logged`);
    }
    assert.ok(text.includes('/callback'), 'the callback requests were logged, with the token cut out');
  });

  test('gateway sessions show in the gauges; identifies and resumes are counted', async () => {
    const before = await scrape();
    const client = await GatewayClient.connect(server.url);
    const ready = await client.login(DEMO_BOT_TOKEN);
    let metrics = await scrape();
    assert.equal(sampleValue(metrics, 'slashd_gateway_sessions', { state: 'attached' }), 1);
    assert.equal(sampleValue(metrics, 'slashd_gateway_connections'), 1);
    assert.equal(
      sampleValue(metrics, 'slashd_gateway_identifies_total') - sampleValue(before, 'slashd_gateway_identifies_total'),
      1,
    );

    client.drop();
    const sessionId = ready.d.session_id as string;
    for (let i = 0; i < WAIT_TRIES && server.slashd.gateway.isAttached(sessionId); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    metrics = await scrape();
    assert.equal(sampleValue(metrics, 'slashd_gateway_sessions', { state: 'attached' }), 0);
    assert.equal(sampleValue(metrics, 'slashd_gateway_sessions', { state: 'resumable' }), 1);

    const again = await GatewayClient.connect(server.url);
    await again.nextOp(10);
    again.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq: ready.s } });
    await again.nextDispatch('RESUMED');
    metrics = await scrape();
    assert.equal(sampleValue(metrics, 'slashd_gateway_resumes_total', { outcome: 'resumed' }), 1);
    assert.equal(sampleValue(metrics, 'slashd_gateway_sessions', { state: 'attached' }), 1);
    again.close();
  });

  test('rate-limit hits are counted by scope, unknown scopes as other', async () => {
    server.slashd.metrics.rateLimited('user');
    server.slashd.metrics.rateLimited('global');
    server.slashd.metrics.rateLimited('made-up');
    const metrics = await scrape();
    assert.equal(sampleValue(metrics, 'slashd_rate_limited_total', { scope: 'user' }), 1);
    assert.equal(sampleValue(metrics, 'slashd_rate_limited_total', { scope: 'global' }), 1);
    assert.equal(sampleValue(metrics, 'slashd_rate_limited_total', { scope: 'other' }), 1);
    assert.equal(sampleValue(metrics, 'slashd_rate_limited_total', { scope: 'made-up' }), 0);
  });

  test('the series of issue 26 are there from the start: interactions lost and re-sent at 0, cache lookups', async () => {
    const first = await scrape();
    for (const name of ['slashd_gateway_interactions_lost_total', 'slashd_gateway_interactions_resent_total']) {
      assert.equal(first.types.get(name), 'counter', name);
      assert.deepEqual(
        first.samples.filter((s) => s.name === name).map((s) => s.value),
        [0],
        `${name} is present, at zero`,
      );
    }
    assert.equal(first.types.get('slashd_cache_lookups_total'), 'counter');
    assert.equal(first.types.get('slashd_bus_lag_seconds'), 'histogram');
    // Without PostgreSQL or Redis there is no dependency to count or to be up.
    assert.ok(!first.samples.some((s) => s.name === 'slashd_database_up' || s.name === 'slashd_redis_up'));
    const lookups = (m: Exposition) =>
      sampleValue(m, 'slashd_cache_lookups_total', { cache: 'store_reads', outcome: 'hit' }) +
      sampleValue(m, 'slashd_cache_lookups_total', { cache: 'store_reads', outcome: 'miss' });
    const before = lookups(first);
    const path = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    assert.equal((await server.request('GET', path, { auth: BOT })).status, 200);
    assert.ok(lookups(await scrape()) > before, 'a read counts its cache lookups');
  });

  test('list answers count their own hits and misses; a cache too small for the working set counts evictions', async () => {
    const listLookups = (m: Exposition, outcome: string) =>
      sampleValue(m, 'slashd_cache_lookups_total', { cache: 'command_list_bytes', outcome });
    const first = await scrape();
    assert.equal(first.types.get('slashd_cache_evictions_total'), 'counter');
    assert.equal(
      sampleValue(first, 'slashd_cache_evictions_total', { cache: 'store_reads' }),
      0,
      'none at the default size',
    );
    const path = `/applications/${DEMO_APP_ID}/commands?with_localizations=true`;
    assert.equal((await server.request('GET', path, { auth: BOT })).status, 200);
    assert.equal((await server.request('GET', path, { auth: BOT })).status, 200);
    const second = await scrape();
    assert.ok(listLookups(second, 'miss') > listLookups(first, 'miss'), 'the first read of the view missed');
    assert.ok(listLookups(second, 'hit') > listLookups(first, 'hit'), 'the second was answered from the bytes');

    // Room for some of the example world's reads (the app, the guild, the lists), not all of them.
    const small = await injectServer({ config: { cacheBytes: 8 * 1024 } });
    try {
      for (const guild of [null, TEST_GUILD_ID]) {
        const scope = guild === null ? '' : `/guilds/${guild}`;
        const response = await small.request('GET', `/applications/${DEMO_APP_ID}${scope}/commands`, { auth: BOT });
        assert.equal(response.status, 200);
      }
      const exposition = parseExposition(await small.slashd.metrics.text());
      assert.ok(sampleValue(exposition, 'slashd_cache_evictions_total', { cache: 'store_reads' }) > 0);
    } finally {
      await small.close();
    }
  });

  test('each server has its own registry: another server counts none of this one, the global registry nothing', async () => {
    const other = await injectServer();
    try {
      const own = parseExposition(await other.slashd.metrics.text());
      assert.equal(sampleValue(own, 'slashd_deliveries_total', { outcome: 'ok' }), 0);
      assert.equal(sampleValue(own, 'slashd_http_request_duration_seconds_count', { route: LIST_ROUTE }), 0);
      assert.ok(sampleValue(await scrape(), 'slashd_deliveries_total', { outcome: 'ok' }) > 0);
      assert.doesNotMatch(await globalRegistry.metrics(), /slashd_/);
    } finally {
      await other.close();
    }
  });
});

describe('operations: the PostgreSQL pool in /metrics', () => {
  test('total, idle, max and waiting connections of the pool', async () => {
    const schema = freshSchemaName('slashd_metrics');
    let store: PostgresStore;
    try {
      store = await PostgresStore.open({ connectionString: postgresConnectionString, schema, max: 3 });
    } catch (error) {
      throw unreachable(error);
    }
    try {
      const metrics = new PrometheusMetrics();
      metrics.watchStorePool(store);
      await store.ping();
      let exposition = parseExposition(await metrics.text());
      assert.equal(sampleValue(exposition, 'slashd_store_pool_connections', { state: 'max' }), 3);
      assert.ok(sampleValue(exposition, 'slashd_store_pool_connections', { state: 'total' }) >= 1);
      assert.equal(
        sampleValue(exposition, 'slashd_store_pool_connections', { state: 'idle' }),
        sampleValue(exposition, 'slashd_store_pool_connections', { state: 'total' }),
      );
      assert.equal(sampleValue(exposition, 'slashd_store_pool_waiting'), 0);
      // Four queries at once on three connections: at least one waits (pg counts those waiting for
      // a connection still being opened too), and the scrape sees it.
      const pings = [1, 2, 3, 4].map(() => store.ping());
      exposition = parseExposition(await metrics.text());
      const waiting = sampleValue(exposition, 'slashd_store_pool_waiting');
      assert.ok(waiting >= 1 && waiting <= 4, `waiting: ${waiting}`);
      await Promise.all(pings);
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });

  test('database calls by outcome, present from the start; slashd_database_up; the lists cache hit ratio', async () => {
    const schema = freshSchemaName('slashd_metrics');
    let store: PostgresStore;
    try {
      store = await PostgresStore.open({ connectionString: postgresConnectionString, schema });
    } catch (error) {
      throw unreachable(error);
    }
    try {
      const metrics = new PrometheusMetrics();
      const changes: string[] = [];
      const log = { info: () => undefined, warn: (_fields: object, message: string) => void changes.push(message) };
      watchDependencies(metrics, log, { store, redis: null, caches: [] });
      const count = (m: Exposition, outcome: string) =>
        sampleValue(m, 'slashd_dependency_call_duration_seconds_count', { dependency: 'database', outcome });
      let exposition = parseExposition(await metrics.text());
      assert.ok(
        exposition.samples.some(
          (s) => s.name === 'slashd_dependency_call_duration_seconds_count' && s.labels.outcome === 'timeout',
        ),
        'the timeout series is there before any timeout',
      );
      assert.equal(sampleValue(exposition, 'slashd_database_up'), 1);
      const okBefore = count(exposition, 'ok');
      await store.ping();
      const scope = { applicationId: DEMO_APP_ID, guildId: null };
      await store.commands.listCommands(scope);
      await store.commands.listCommands(scope);
      exposition = parseExposition(await metrics.text());
      assert.ok(count(exposition, 'ok') >= okBefore + 3, 'each query is counted');
      assert.equal(
        sampleValue(exposition, 'slashd_cache_lookups_total', { cache: 'command_lists', outcome: 'miss' }),
        1,
      );
      assert.equal(
        sampleValue(exposition, 'slashd_cache_lookups_total', { cache: 'command_lists', outcome: 'hit' }),
        1,
      );
      await assert.rejects(
        store.world
          .exportWorld()
          .then(() => store.close())
          .then(() => store.ping()),
      );
      assert.deepEqual(changes, [], 'a closed pool is not an outage');
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });
});

describe('operations: slashd serve --metrics-token', () => {
  after(killAll);

  for (const [how, args, env] of [
    ['the flag', ['--metrics-token', 'flag-scrape-token'], {}],
    ['SLASHD_METRICS_TOKEN', [], { SLASHD_METRICS_TOKEN: 'flag-scrape-token' }],
  ] as const) {
    test(`${how} gives the scraper its token; the banner says where /metrics is`, async () => {
      const child = startChild(
        process.execPath,
        [CLI, 'serve', '--db', ':memory:', '--port', '0', '--admin-token', 'cli-admin', ...args],
        env,
      );
      try {
        const [, url] = await child.waitForLine(/listening on (http:\S+)/);
        await child.waitForLine(/metrics: +http:\S+\/metrics/);
        const scrape = (auth?: string) =>
          fetch(`${url}/metrics`, { headers: auth ? { authorization: auth } : {} }).then((r) => r.status);
        assert.equal(await scrape('Bearer flag-scrape-token'), 200);
        assert.equal(await scrape('Bearer cli-admin'), 200);
        assert.equal(await scrape(), 401);
        assert.equal(await scrape('Bearer other'), 401);
      } finally {
        assert.equal(await child.stop(), 0);
      }
    });
  }
});
