/**
 * Rate-limit counters in Redis (127.0.0.1:6379, or REDIS_URL), shared by every node: two slashd
 * servers on one key prefix count together, exactly, under concurrent requests. Each run uses its
 * own random prefix and deletes its keys; an unreachable Redis fails the test.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { V10_PRESET, type RateLimitPreset } from '../src/core/rate-limits/presets.js';
import { CountersUnavailableError, MAX_HITS_PER_CALL, RedisCounters } from '../src/rate-limits/redis-counters.js';
import { injectServer, type TestServer } from './helpers/server.js';
import { BOT, GLOBAL_BASE } from './helpers/world.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function connect(): Promise<Redis> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true, connectTimeout: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`Redis is not reachable at ${REDIS_URL} (set REDIS_URL): ${String(error)}`, { cause: error });
  }
  return client;
}

/** Counts the script calls (EVALSHA, or EVAL when the script is not loaded yet) a client sends. */
function countScriptCalls(client: Redis): { calls: number } {
  const counter = { calls: 0 };
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    if (command.name === 'evalsha' || command.name === 'eval') counter.calls++;
    return send(command, stream);
  };
  return counter;
}

async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Reads: 50 per minute (longer than any run), global limit out of the way. */
const FIFTY_READS: RateLimitPreset = {
  name: 'fifty-reads',
  global: { limit: 100_000, windowMs: 1_000 },
  groups: { ...V10_PRESET.groups, reads: { limit: 50, windowMs: 60_000 } },
};

describe('Redis counters', () => {
  const prefix = `slashd-test:${randomBytes(8).toString('hex')}:`;
  let admin: Redis;
  before(async () => {
    admin = await connect();
  });
  after(async () => {
    await deleteKeys(admin, prefix);
    admin.disconnect();
  });

  /** Two stores that count every request in Redis (no leases), as every store does at v10's small limits. */
  const exactStores = (a: Redis, b: Redis) => [
    new RedisCounters({ client: a, prefix, leaseShare: 0 }),
    new RedisCounters({ client: b, prefix, leaseShare: 0 }),
  ];

  test('two stores on one prefix count 500 concurrent hits exactly once each', async () => {
    const [a, b] = [await connect(), await connect()];
    try {
      const stores = exactStores(a, b);
      const route = { key: 'exact', limit: 100, windowMs: 60_000 };
      const global = { key: 'exact-global', limit: 400, windowMs: 60_000 };
      const hits = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => stores[i % 2]!.hit(Date.now(), route, global)),
      );
      const globalCounts = hits.map((h) => h.global!.count).sort((x, y) => x - y);
      assert.deepEqual(
        globalCounts,
        Array.from({ length: 500 }, (_, i) => i + 1),
      );
      // The route was counted only for the 400 the global limit admitted.
      const routeCounts = hits.flatMap((h) => (h.route ? [h.route.count] : [])).sort((x, y) => x - y);
      assert.deepEqual(
        routeCounts,
        Array.from({ length: 400 }, (_, i) => i + 1),
      );
      for (const h of hits) assert.ok(h.global!.resetAt > Date.now() + 50_000);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  test('600 concurrent hits from one node go as a few script calls, still exact across two nodes', async () => {
    const [a, b] = [await connect(), await connect()];
    try {
      const counted = countScriptCalls(a);
      const stores = exactStores(a, b);
      const route = { key: 'batched', limit: 500, windowMs: 60_000 };
      const global = { key: 'batched-global', limit: 600, windowMs: 60_000 };
      const hits = await Promise.all(
        Array.from({ length: 1_200 }, async (_, i) =>
          stores[i % 2]!.hit(Date.now(), route, i % 3 === 0 ? null : global),
        ),
      );
      // Node a's 600 hits in batches of at most MAX_HITS_PER_CALL, plus one resend if the script was not loaded.
      assert.ok(counted.calls >= Math.ceil(600 / MAX_HITS_PER_CALL), `${counted.calls} script calls`);
      assert.ok(counted.calls <= Math.ceil(600 / MAX_HITS_PER_CALL) + 1, `${counted.calls} script calls`);
      // 800 hits counted globally (a third had no global counter): 1..800, once each; 200 over the limit.
      const globalCounts = hits.flatMap((h) => (h.global ? [h.global.count] : [])).sort((x, y) => x - y);
      assert.deepEqual(
        globalCounts,
        Array.from({ length: 800 }, (_, i) => i + 1),
      );
      // The route counted the 400 without a global counter and the 600 the global limit admitted.
      const routeCounts = hits.flatMap((h) => (h.route ? [h.route.count] : [])).sort((x, y) => x - y);
      assert.deepEqual(
        routeCounts,
        Array.from({ length: 1_000 }, (_, i) => i + 1),
      );
      for (const h of hits) assert.ok(h.route === null || h.route.resetAt > Date.now() + 50_000);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  test('leases: two stores never admit more than the limit together, and strand at most a lease per other store', async () => {
    const [a, b] = [await connect(), await connect()];
    try {
      const counted = countScriptCalls(a);
      // A lease of 1/64 of 6,400 is 100 requests.
      const stores = [new RedisCounters({ client: a, prefix }), new RedisCounters({ client: b, prefix })];
      const route = { key: 'leased', limit: 6_400, windowMs: 60_000 };
      const admitted = [0, 0];
      let refused = 0;
      // Waves of concurrent requests on both stores, until both refuse.
      for (let wave = 0; wave < 40; wave++) {
        const hits = await Promise.all(
          Array.from({ length: 400 }, async (_, i) => {
            const hit = await stores[i % 2]!.hit(Date.now(), route, null);
            return { store: i % 2, count: hit.route!.count };
          }),
        );
        for (const hit of hits) {
          if (hit.count <= route.limit) admitted[hit.store]!++;
          else refused++;
        }
      }
      const total = admitted[0]! + admitted[1]!;
      assert.ok(total <= route.limit, `${total} admitted over a limit of ${route.limit}`);
      assert.ok(total >= route.limit - 99, `${total} admitted: more than one lease stranded`);
      assert.equal(total + refused, 16_000);
      // Store a asked Redis about once per lease (of 100), not once per request.
      assert.ok(counted.calls <= 40, `${counted.calls} script calls for ${admitted[0]} admitted requests`);
      assert.equal(Number(await admin.get(`${prefix}leased`)) >= route.limit, true);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  test('leases: counts rise by one per request and a drained counter refuses without asking Redis', async () => {
    const client = await connect();
    try {
      const counted = countScriptCalls(client);
      const store = new RedisCounters({ client, prefix });
      const route = { key: 'drained', limit: 640, windowMs: 60_000 };
      const counts: number[] = [];
      for (let i = 0; i < 700; i++) counts.push((await store.hit(Date.now(), route, null)).route!.count);
      assert.deepEqual(
        counts.slice(0, 640),
        Array.from({ length: 640 }, (_, i) => i + 1),
      );
      for (const count of counts.slice(640)) assert.ok(count > route.limit);
      // 64 leases of 10, and one that found the window full; the 59 refusals after it stayed local.
      assert.equal(counted.calls <= 66, true, `${counted.calls} script calls`);
    } finally {
      client.disconnect();
    }
  });

  test('while the link says Redis is away, a hit needing Redis is refused at once, Redis never asked', async () => {
    const client = await connect();
    try {
      const counted = countScriptCalls(client);
      let up = false;
      const store = new RedisCounters({ client, prefix, available: () => up });
      const route = { key: 'away', limit: 10, windowMs: 60_000 };
      await assert.rejects(
        Promise.resolve().then(() => store.hit(Date.now(), route, null)),
        CountersUnavailableError,
      );
      assert.equal(counted.calls, 0);
      up = true;
      assert.equal((await store.hit(Date.now(), route, null)).route!.count, 1);
      assert.equal(counted.calls, 1);
    } finally {
      client.disconnect();
    }
  });

  test('a failed script call rejects every hit of its batch', async () => {
    const client = await connect();
    const store = new RedisCounters({ client, prefix });
    client.disconnect();
    const route = { key: 'gone', limit: 10, windowMs: 60_000 };
    const results = await Promise.allSettled(Array.from({ length: 5 }, async () => store.hit(Date.now(), route, null)));
    assert.deepEqual(
      results.map((r) => r.status),
      Array(5).fill('rejected'),
    );
  });

  test('a window ends by Redis expiry, and the next request opens a new one', async () => {
    const store = new RedisCounters({ client: admin, prefix, leaseShare: 0 });
    const route = { key: 'short', limit: 1, windowMs: 30 };
    assert.equal((await store.hit(Date.now(), route, null)).route!.count, 1);
    const deadline = Date.now() + 5_000;
    let count = 2;
    while (count !== 1) {
      assert.ok(Date.now() < deadline, 'the window never ended');
      const hit = await store.hit(Date.now(), route, null);
      count = hit.route!.count;
      assert.ok(hit.route!.resetAt - Date.now() <= 30);
    }
  });

  describe('two slashd nodes on one Redis', () => {
    let nodes: TestServer[] = [];
    const clients: Redis[] = [];
    before(async () => {
      for (let i = 0; i < 2; i++) clients.push(await connect());
      nodes = await Promise.all(
        clients.map((redis) =>
          injectServer({ config: { rateLimits: { preset: FIFTY_READS, redis, redisPrefix: prefix } } }),
        ),
      );
    });
    after(async () => {
      await Promise.all(nodes.map((node) => node.close()));
      for (const client of clients) client.disconnect();
    });

    test('200 concurrent reads spread over both: exactly 50 answered, the rest 429, remaining counts down once', async () => {
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) => nodes[i % 2]!.request('GET', GLOBAL_BASE, { auth: BOT })),
      );
      const answered = responses.filter((r) => r.status === 200);
      const refused = responses.filter((r) => r.status === 429);
      assert.equal(answered.length, 50);
      assert.equal(refused.length, 150);
      const remaining = answered.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
      assert.deepEqual(
        remaining,
        Array.from({ length: 50 }, (_, i) => i),
      );
      for (const r of refused) {
        assert.equal(r.body.global, false);
        assert.equal(r.headers.get('x-ratelimit-scope'), 'user');
      }
      const hashes = new Set(responses.map((r) => r.headers.get('x-ratelimit-bucket')));
      assert.equal(hashes.size, 1);
    });
  });
});
