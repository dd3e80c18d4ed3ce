/**
 * The cost of the rate-limit check (issue 12): GET of a 100-command list, on SQLite with limits
 * off, counted in memory and counted in Redis, and on PostgreSQL (the deployment that shares its
 * counters in Redis) with limits off, counted in Redis with leases (the default) and counted in
 * Redis request by request (as at v10's small limits): six servers in rounds that alternate
 * (rotating which goes first) so drift hits all of them; each figure a ratio to the limits-off
 * server on the same store in the same round (goal: the check costs < 5 % of a list GET). The
 * measure is the server process's CPU time per request over a fixed number of requests: steadier
 * on a shared machine than throughput, as it does not count the time other processes take (and
 * autocannon ends a fixed amount of requests on its one-second tick, so its elapsed time is too
 * coarse). Also the hook's own work in process, µs per request, as a share of a list GET's CPU time.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { DEFAULT_LEASE_SHARE, leaseSize } from '../src/core/rate-limits/lease.js';
import { SANDBOX_PRESET } from '../src/core/rate-limits/presets.js';
import { rateLimits } from '../src/http/rate-limits.js';
import { MemoryCounters } from '../src/rate-limits/memory-counters.js';
import { RedisCounters } from '../src/rate-limits/redis-counters.js';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { startRateLimitedSlashd, type ChildServer } from './processes.js';
import { BENCH_PRESET } from './rate-limits-node.js';
import { fixed, median } from './stats.js';

const ROUNDS = 8;
const REQUESTS_PER_ROUND = 20_000;
/** A PostgreSQL list GET costs ~20x the CPU of a SQLite one: fewer requests keep its rounds as long. */
const POSTGRES_REQUESTS_PER_ROUND = 2_000;
const CONNECTIONS = 10;
const IN_PROCESS_CALLS = 1_000_000;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };

/** The child's CPU time so far, µs (bench/rate-limits-node.ts answers "cpu" on stdin). */
function cpuMicros(server: ChildServer): Promise<number> {
  return new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /cpu (\d+)/.exec(buffered);
      if (!match) return;
      server.child.stdout?.off('data', onData);
      resolve(Number(match[1]));
    };
    server.child.stdout?.on('data', onData);
    server.child.stdin?.write('cpu\n');
  });
}

/** The server's CPU time per request, µs, over a fixed number of list GETs. */
async function round(server: ChildServer, url: string, requests: number): Promise<number> {
  const before = await cpuMicros(server);
  const result = await autocannon({ url, headers: auth, connections: CONNECTIONS, amount: requests });
  const after = await cpuMicros(server);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`rate-limit bench: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return (after - before) / requests;
}

/**
 * The hook's own work, in process (memory counters): keys, counting, deciding and the headers,
 * with a stand-in for Fastify's request and reply; µs per request.
 */
function hookMicros(): number {
  let onRoute: ((route: RouteOptions) => void) | undefined;
  const app = { addHook: (_name: string, hook: (route: RouteOptions) => void) => (onRoute = hook) };
  rateLimits(app as unknown as FastifyInstance, {
    preset: BENCH_PRESET,
    counters: new MemoryCounters(),
    now: Date.now,
  });
  const route = { url: `/api/v10/applications/:applicationId/commands`, method: 'GET' } as RouteOptions;
  onRoute!(route);
  const hook = (route.preParsing as unknown as PreParsing[])[0]!;
  const request = {
    method: 'GET',
    params: { applicationId: DEMO_APP_ID },
    principal: { kind: 'bot', app: { id: DEMO_APP_ID } },
    ip: '127.0.0.1',
  };
  let headers = 0;
  const reply = {
    headers(set: Record<string, string>) {
      headers += Object.keys(set).length;
      return reply;
    },
  };
  let refused = 0;
  const done = (error: Error | null) => {
    if (error) refused++;
  };
  const started = process.hrtime.bigint();
  for (let i = 0; i < IN_PROCESS_CALLS; i++) hook(request, reply, null, done);
  const micros = Number(process.hrtime.bigint() - started) / 1e3 / IN_PROCESS_CALLS;
  if (refused > 0 || headers !== 5 * IN_PROCESS_CALLS) throw new Error('the bench preset refused a request');
  return micros;
}

const STORE_HITS = 20_000;
const SANDBOX_READS_LIMIT = SANDBOX_PRESET.groups.reads.limit;
/** Limits the store bench never reaches. */
const UNREACHED_IN_BENCH = 1_000_000_000;

/**
 * The Redis store's own CPU per hit in this process (ioredis encoding, reply parsing, promises),
 * with `concurrent` hits in flight at a time: 1 is one script call per hit, as before batching.
 */
export async function redisStoreMicros(
  prefix: string,
  concurrent: number,
  leaseShare = 0,
  limit = UNREACHED_IN_BENCH,
): Promise<number> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const store = new RedisCounters({ client, prefix, leaseShare });
    const key = `store-${leaseShare}-${limit}`;
    const route = { key, limit, windowMs: 60_000 };
    const global = { key: `${key}-global`, limit: UNREACHED_IN_BENCH, windowMs: 60_000 };
    await store.hit(Date.now(), route, global);
    const before = process.cpuUsage();
    for (let done = 0; done < STORE_HITS; done += concurrent) {
      await Promise.all(Array.from({ length: concurrent }, async () => store.hit(Date.now(), route, global)));
    }
    const { user, system } = process.cpuUsage(before);
    return (user + system) / STORE_HITS;
  } finally {
    client.disconnect();
  }
}

type PreParsing = (request: object, reply: object, payload: null, done: (error: Error | null) => void) => void;

async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

export async function runRateLimitsBench(): Promise<{ lines: string[] }> {
  const prefix = `slashd-bench:${randomBytes(6).toString('hex')}:`;
  const schemas = [
    freshSchemaName('bench_rl_off'),
    freshSchemaName('bench_rl_redis'),
    freshSchemaName('bench_rl_exact'),
  ] as const;
  const world = exampleWorld();
  const servers: ChildServer[] = [];
  try {
    // SQLite: off, memory, Redis; PostgreSQL (where Redis counters are used): off, Redis leased, Redis exact.
    const redis = ['redis', REDIS_URL, prefix];
    servers.push(await startRateLimitedSlashd(world, ['off']));
    servers.push(await startRateLimitedSlashd(world, ['memory']));
    servers.push(await startRateLimitedSlashd(world, redis));
    servers.push(await startRateLimitedSlashd(world, ['off'], { url: postgresConnectionString, schema: schemas[0] }));
    servers.push(await startRateLimitedSlashd(world, redis, { url: postgresConnectionString, schema: schemas[1] }));
    const exact = ['redis-exact', REDIS_URL, `${prefix}exact:`];
    servers.push(await startRateLimitedSlashd(world, exact, { url: postgresConnectionString, schema: schemas[2] }));
    const urls = servers.map((s) => `${s.url}/api/v10/applications/${DEMO_APP_ID}/commands`);
    for (const url of urls) {
      const put = await fetch(url, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(slashCommands(100)),
      });
      if (!put.ok) throw new Error(`deploy failed: ${put.status}`);
    }
    const cpu: number[][] = urls.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      // Each round starts with another server, so no server always runs right after the same one.
      for (let step = 0; step < urls.length; step++) {
        const i = (r + step) % urls.length;
        cpu[i]!.push(await round(servers[i]!, urls[i]!, i < 3 ? REQUESTS_PER_ROUND : POSTGRES_REQUESTS_PER_ROUND));
      }
    }
    const describe = (i: number, off: number, name: string) => {
      const cpuRatios = cpu[i]!.map((v, k) => v / cpu[off]![k]!);
      const cost = median(cpuRatios) - 1;
      return (
        `${name}: CPU ${fixed(median(cpu[i]!), 1)} µs per request, ratio to off ${fixed(median(cpuRatios), 3)} ` +
        `(rounds ${fixed(Math.min(...cpuRatios))}-${fixed(Math.max(...cpuRatios))}; cost ${fixed(cost * 100, 1)} %, ` +
        `${fixed(median(cpu[i]!) - median(cpu[off]!), 1)} µs; goal < 5 %)`
      );
    };
    const hook = hookMicros();
    const [oneAtATime, tenAtATime] = [await redisStoreMicros(prefix, 1), await redisStoreMicros(prefix, CONNECTIONS)];
    // A lease of 7 requests: the sandbox preset's reads (500 per window) at the default share.
    const sandboxReads = await redisStoreMicros(prefix, CONNECTIONS, DEFAULT_LEASE_SHARE, SANDBOX_READS_LIMIT);
    return {
      lines: [
        `(a) GET 100-command list on SQLite, limits off: CPU ${fixed(median(cpu[0]!), 1)} µs per request (median of ${ROUNDS} rounds of ${REQUESTS_PER_ROUND} requests per server, alternating, ${CONNECTIONS} connections)`,
        describe(1, 0, '(b) SQLite, limits on, memory counters'),
        describe(2, 0, '(c) SQLite, limits on, Redis counters (slashd CPU only; Redis does the script)'),
        `(d) the hook's own work in process (keys, count global + bucket, decide, 5 headers): ${fixed(hook, 2)} µs per request, ${fixed((hook / median(cpu[0]!)) * 100, 1)} % of (a)'s CPU per list GET`,
        `(e) GET 100-command list on PostgreSQL, limits off: CPU ${fixed(median(cpu[3]!), 1)} µs per request (${POSTGRES_REQUESTS_PER_ROUND} requests per round)`,
        `(g) the Redis counters' cost measured on SQLite, (c) - (a), as a share of (e): ${fixed(((median(cpu[2]!) - median(cpu[0]!)) / median(cpu[3]!)) * 100, 1)} %`,
        describe(4, 3, '(f) PostgreSQL, limits on, Redis counters (leases of 1/64 of the limit)'),
        describe(
          5,
          3,
          "(f') PostgreSQL, limits on, Redis counters, every request counted in Redis (as at v10's limits under 128)",
        ),
        `(h) the Redis store's own CPU per hit in process, every hit counted in Redis (leaseShare 0, as at v10's limits): ${fixed(oneAtATime, 1)} µs one at a time (one script call each), ${fixed(tenAtATime, 1)} µs ${CONNECTIONS} at a time (one call per batch)`,
        `(i) the same with leases of ${leaseSize(SANDBOX_READS_LIMIT, DEFAULT_LEASE_SHARE)} (the sandbox preset's reads, ${SANDBOX_READS_LIMIT} per window), ${CONNECTIONS} at a time: ${fixed(sandboxReads, 1)} µs per hit, ${fixed((sandboxReads / median(cpu[3]!)) * 100, 1)} % of (e)`,
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await deleteKeys(prefix);
    for (const schema of schemas) await dropSchema(schema);
  }
}
