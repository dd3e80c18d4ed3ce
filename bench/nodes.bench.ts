/**
 * Creates per second with 1, 2 and 3 `slashd serve` nodes on one PostgreSQL and one Redis,
 * each reported as a ratio to the 1-node figure of the same run. The load generator (autocannon,
 * in this process) keeps the same number of requests in flight in every configuration, spread
 * evenly over the nodes. Every request creates a new global command: request i goes to application
 * i mod APPS under a name no earlier request used there, so no create is an upsert and no
 * application reaches the 100-command or 200-creates-a-day limit.
 *
 * Each configuration runs on a fresh schema and Redis prefix (both removed afterwards), and the
 * configurations alternate over rounds (1, 2, 3, then 3, 2, 1, ...), so drift hits all of them.
 * After each run the stored commands must match the 201 answers (give or take the requests in
 * flight when autocannon stopped).
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Application, World } from '../src/core/world/types.js';
import { slashCommand } from './fixtures.js';
import { dropSchema, freshSchemaName, openBenchStore, postgresConnectionString } from './postgres.js';
import { startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';

const NODE_COUNTS = [1, 2, 3] as const;
const ROUNDS = 3;
const WARMUP_SECONDS = 1;
const ROUND_SECONDS = 5;
/** Requests in flight, in total, whatever the number of nodes (divisible by 1, 2 and 3). */
const CONNECTIONS = 24;
/** Applications the creates spread over: room for 100 × APPS creates per configuration. */
const APPS = 400;
/** The global commands of one application (v10's limit). */
const COMMANDS_PER_APP_LIMIT = 100;
const FIRST_APP_ID = 1_410_000_000_000_000_000n;
/** With `--split-pool`: the PostgreSQL connections of all nodes together (divisible by 1, 2 and 3). */
const SPLIT_POOL_TOTAL = 12;
export const REDIS_URL = process.env['SLASHD_BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

function benchApp(index: number): Application {
  return {
    id: (FIRST_APP_ID + BigInt(index)).toString(),
    name: `Create bench ${index}`,
    owner_id: '1335036896870400001',
    bot_token: `bench-nodes-bot-${index}`,
    client_secret: `bench-nodes-secret-${index}`,
    public_client: false,
    redirect_uris: [],
    flags: 0,
    integration_types: [0, 1],
    discoverable: false,
    interactions_endpoint_url: null,
  };
}

export const APPLICATIONS = Array.from({ length: APPS }, (_, i) => benchApp(i));

async function prepareSchema(schema: string): Promise<void> {
  const store = await openBenchStore(schema, 1);
  try {
    const world: World = { applications: APPLICATIONS, users: [], guilds: [], oauth2_tokens: [] };
    await store.world.replaceWorld(world);
  } finally {
    await store.close();
  }
}

async function storedCommands(schema: string): Promise<number> {
  const store = await openBenchStore(schema, 1);
  try {
    let total = 0;
    for (const app of APPLICATIONS) {
      total += (await store.commands.listCommands({ applicationId: app.id, guildId: null })).length;
    }
    return total;
  } finally {
    await store.close();
  }
}

export async function dropRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Request i of a configuration: a new command for application i mod APPS. */
function createRequest(i: number): { path: string; token: string; body: string } {
  const app = APPLICATIONS[i % APPS]!;
  const serial = Math.floor(i / APPS);
  if (serial >= COMMANDS_PER_APP_LIMIT)
    throw new Error(`more than ${COMMANDS_PER_APP_LIMIT * APPS} creates: raise APPS`);
  return {
    path: `/api/v10/applications/${app.id}/commands`,
    token: app.bot_token,
    body: JSON.stringify(slashCommand(`c-${serial}`)),
  };
}

export interface Load {
  created: number;
  /** Mean over the nodes of each node's p50 create latency (ms). */
  p50: number;
  seconds: number;
}

/** `seconds` of creates spread evenly over `urls`; `next` hands out request numbers across all of them. */
export async function createLoad(urls: string[], seconds: number, next: () => number): Promise<Load> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        method: 'POST',
        connections: CONNECTIONS / urls.length,
        duration: seconds,
        requests: [
          {
            setupRequest: (request) => {
              const { path, token, body } = createRequest(next());
              return {
                ...request,
                path,
                body,
                headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
              };
            },
          },
        ],
      }),
    ),
  );
  let created = 0;
  let p50 = 0;
  for (const result of results) {
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(
        `${result.non2xx} non-2xx answers, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`,
      );
    }
    created += result['2xx'];
    p50 += result.latency.p50 / results.length;
  }
  return { created, p50, seconds };
}

interface Measured {
  rate: number;
  p50: number;
}

async function measure(nodes: number, poolMax: number | null): Promise<Measured> {
  const schema = freshSchemaName('bench_nodes');
  const prefix = `bench-nodes-${randomBytes(6).toString('hex')}:`;
  const servers: ChildServer[] = [];
  try {
    await prepareSchema(schema);
    const args = ['--db', postgresConnectionString, '--db-schema', schema, '--redis', REDIS_URL];
    if (poolMax !== null) args.push('--db-pool-max', String(poolMax));
    for (let n = 0; n < nodes; n++) {
      servers.push(await startSlashdWith([...args, '--redis-prefix', prefix, '--admin-token', 'bench']));
    }
    let counter = 0;
    const next = () => counter++;
    const urls = servers.map((s) => s.url);
    const warm = await createLoad(urls, WARMUP_SECONDS, next);
    const load = await createLoad(urls, ROUND_SECONDS, next);
    // autocannon stops at its deadline without waiting for the requests in flight, which the nodes
    // still complete: at most CONNECTIONS of them per load beyond the 201s counted.
    const stored = await storedCommands(schema);
    const answered = warm.created + load.created;
    if (stored < answered || stored > answered + 2 * CONNECTIONS) {
      throw new Error(`${answered} creates answered 201, but ${stored} commands are stored`);
    }
    return { rate: load.created / load.seconds, p50: load.p50 };
  } finally {
    for (const server of servers) await server.stop();
    await dropSchema(schema);
    await dropRedisPrefix(prefix);
  }
}

export async function runNodesBench(flags: ReadonlySet<string>): Promise<{ lines: string[] }> {
  // --split-pool: the same PostgreSQL connections in total whatever the node count, to tell
  // apart what more nodes bring from what more connections bring.
  const split = flags.has('--split-pool');
  const rates = new Map<number, number[]>(NODE_COUNTS.map((n) => [n, []]));
  const latencies = new Map<number, number[]>(NODE_COUNTS.map((n) => [n, []]));
  const ratios = new Map<number, number[]>(NODE_COUNTS.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [...NODE_COUNTS] : [...NODE_COUNTS].reverse();
    const thisRound = new Map<number, Measured>();
    for (const nodes of order) thisRound.set(nodes, await measure(nodes, split ? SPLIT_POOL_TOTAL / nodes : null));
    for (const nodes of NODE_COUNTS) {
      const measured = thisRound.get(nodes)!;
      rates.get(nodes)!.push(measured.rate);
      latencies.get(nodes)!.push(measured.p50);
      ratios.get(nodes)!.push(measured.rate / thisRound.get(1)!.rate);
    }
  }
  const lines = NODE_COUNTS.map((nodes) => {
    const r = ratios.get(nodes)!;
    const perRound = rates
      .get(nodes)!
      .map((x) => fixed(x, 0))
      .join(', ');
    return (
      `${nodes} node${nodes > 1 ? 's' : ' '}: ${fixed(median(rates.get(nodes)!), 0)} creates/s (rounds ${perRound}), ` +
      `create p50 ${fixed(median(latencies.get(nodes)!), 1)} ms, ratio to 1 node ${fixed(median(r))} (rounds ${r.map((x) => fixed(x)).join(', ')})`
    );
  });
  const pool = split
    ? `${SPLIT_POOL_TOTAL} PostgreSQL connections in total, split over the nodes`
    : 'each node its default pool of PostgreSQL connections';
  lines.push(
    `(${CONNECTIONS} requests in flight in total, spread evenly over the nodes; ${pool}; ${ROUND_SECONDS}s per configuration after ${WARMUP_SECONDS}s of warm-up; ${ROUNDS} rounds alternating the order; each create a new global command of one of ${APPS} apps; stored commands checked against the 201s)`,
  );
  return { lines };
}
