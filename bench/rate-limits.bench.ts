/**
 * The cost of the rate-limit check (issue 12): GET of a 100-command list with limits off, counted
 * in memory and counted in Redis, three servers in rounds that alternate (rotating which goes first) so drift hits all three;
 * each figure a ratio to the limits-off server of the same round (goal: the check costs < 5 % of a
 * list GET). Also the check alone, in process: counting and deciding, µs per request.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { bucketOf } from '../src/core/rate-limits/buckets.js';
import { decide } from '../src/core/rate-limits/window.js';
import { MemoryCounters } from '../src/rate-limits/memory-counters.js';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { startRateLimitedSlashd, type ChildServer } from './processes.js';
import { BENCH_PRESET } from './rate-limits-node.js';
import { fixed, median } from './stats.js';

const ROUNDS = 8;
const ROUND_SECONDS = 2;
const CONNECTIONS = 10;
const IN_PROCESS_CALLS = 1_000_000;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };

async function requestsPerSecond(url: string): Promise<number> {
  const result = await autocannon({ url, headers: auth, connections: CONNECTIONS, duration: ROUND_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`rate-limit bench: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return result.requests.average;
}

/** Counting and deciding alone (memory counters), µs per request. */
function inProcessMicros(): number {
  const counters = new MemoryCounters();
  const spec = bucketOf('GET', '/api/v10/applications/:applicationId/commands');
  const route = BENCH_PRESET.groups[spec.group];
  const started = process.hrtime.bigint();
  let allowed = 0;
  for (let i = 0; i < IN_PROCESS_CALLS; i++) {
    const now = Date.now();
    const hit = counters.hit(
      now,
      { key: `b:${spec.hash}:${DEMO_APP_ID}:bot:${i % 100}`, ...route },
      { key: `g:bot:${i % 100}`, ...BENCH_PRESET.global },
    );
    if (decide(hit, route, BENCH_PRESET.global, now).allowed) allowed++;
  }
  if (allowed !== IN_PROCESS_CALLS) throw new Error('the bench preset refused a request');
  return Number(process.hrtime.bigint() - started) / 1e3 / IN_PROCESS_CALLS;
}

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
  const world = exampleWorld();
  const servers: ChildServer[] = [];
  try {
    for (const limits of [['off'], ['memory'], ['redis', REDIS_URL, prefix]]) {
      servers.push(await startRateLimitedSlashd(world, limits));
    }
    const urls = servers.map((s) => `${s.url}/api/v10/applications/${DEMO_APP_ID}/commands`);
    for (const url of urls) {
      const put = await fetch(url, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(slashCommands(100)),
      });
      if (!put.ok) throw new Error(`deploy failed: ${put.status}`);
    }
    const rates: number[][] = [[], [], []];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another server, so no server always runs right after the same one.
      for (let step = 0; step < urls.length; step++) {
        const i = (round + step) % urls.length;
        rates[i]!.push(await requestsPerSecond(urls[i]!));
      }
    }
    const [off, memory, redis] = rates.map((r) => median(r)) as [number, number, number];
    const ratios = (on: number[]) => on.map((rate, i) => rate / rates[0]![i]!);
    const range = (on: number[]) => {
      const r = ratios(on);
      return `rounds ${fixed(Math.min(...r), 2)}-${fixed(Math.max(...r), 2)}`;
    };
    const memoryRatio = median(ratios(rates[1]!));
    const redisRatio = median(ratios(rates[2]!));
    const extraMicros = (rate: number) => 1e6 / rate - 1e6 / off;
    return {
      lines: [
        `(a) GET 100-command list, limits off: ${fixed(off, 0)} req/s (median of ${ROUNDS} rounds of ${ROUND_SECONDS}s per server, alternating, ${CONNECTIONS} connections)`,
        `(b) limits on, memory counters: ${fixed(memory, 0)} req/s, ratio to off ${fixed(memoryRatio, 3)}, ${range(rates[1]!)} (cost ${fixed((1 - memoryRatio) * 100, 1)} %, about ${fixed(extraMicros(memory), 1)} µs per request; goal < 5 %)`,
        `(c) limits on, Redis counters: ${fixed(redis, 0)} req/s, ratio to off ${fixed(redisRatio, 3)}, ${range(rates[2]!)} (cost ${fixed((1 - redisRatio) * 100, 1)} %, about ${fixed(extraMicros(redis), 1)} µs per request)`,
        `(d) the check alone in process (count global + bucket, decide): ${fixed(inProcessMicros(), 3)} µs per request; a list GET at the limits-off rate is ${fixed(1e6 / off, 1)} µs of server time`,
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await deleteKeys(prefix);
  }
}
