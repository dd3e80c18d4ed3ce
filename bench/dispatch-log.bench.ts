/**
 * The cost of the dispatch log (issue 39) on the message-create path at 3 nodes: `POST
 * /channels/{id}/messages` spread evenly over three `slashd serve` nodes on one PostgreSQL and one
 * Redis, a bot's gateway session on the third node receiving every MESSAGE_CREATE, against the
 * same run of an earlier build without the log (`SLASHD_BENCH_BASELINE`: the root of a built
 * checkout of that commit, e.g. `git archive <commit> | tar -x -C DIR`, node_modules linked,
 * `npx tsc -p tsconfig.json` in it). The two alternate over rounds (this, baseline, then baseline,
 * this, ...), each on a fresh schema and Redis prefix; a round counts only once the bot has
 * received a MESSAGE_CREATE for every 200 answered (none lost), and reports messages/s, p50 and
 * the ratio of this build's rate to the baseline's; then, one message at a time over the three
 * nodes, the time from sending the POST to the bot's MESSAGE_CREATE (the log is on that path: an
 * append and the publishing node's own events coming back from Redis).
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleWorld, GENERAL } from '../test/helpers/world.js';
import { openSession } from './gateway-client.js';
import { dropRedisPrefix, REDIS_URL } from './nodes.bench.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { REPO_ROOT, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';

const NODES = 3;
const ROUNDS = Number(process.env.DISPATCH_LOG_BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 1;
const ROUND_SECONDS = 5;
/** Requests in flight in total, spread evenly over the nodes. */
const CONNECTIONS = Number(process.env.DISPATCH_LOG_BENCH_CONNECTIONS ?? 24);
const BOT_TOKEN = 'demo-bot-token-please-change';
/** GUILDS | GUILD_MESSAGES. */
const INTENTS = 1 | (1 << 9);
/** How long the bot may take to have every MESSAGE_CREATE once the load stopped (a failure guard). */
const DELIVERED_GUARD_MS = 30_000;

interface Measured {
  rate: number;
  p50: number;
  /** One message at a time: from sending the POST to the bot's MESSAGE_CREATE (ms), p50. */
  dispatchP50: number;
}

/** Sequential messages, one node after the other, each timed until the bot has its MESSAGE_CREATE. */
const SEQUENTIAL = Number(process.env.DISPATCH_LOG_BENCH_SEQUENTIAL ?? 150);

async function load(urls: string[], seconds: number): Promise<{ answered: number; p50: number }> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: `${url}/api/v10/channels/${GENERAL}/messages`,
        method: 'POST',
        connections: CONNECTIONS / urls.length,
        duration: seconds,
        headers: { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'a message of the dispatch-log bench' }),
      }),
    ),
  );
  let answered = 0;
  let p50 = 0;
  for (const result of results) {
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`);
    }
    answered += result['2xx'];
    p50 += result.latency.p50 / results.length;
  }
  return { answered, p50 };
}

async function measure(root: string): Promise<Measured> {
  const schema = freshSchemaName('bench_dispatch_log');
  const prefix = `bench-dlog-${randomBytes(6).toString('hex')}:`;
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bench-dlog-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(exampleWorld()));
  const servers: ChildServer[] = [];
  try {
    const args = ['--db', postgresConnectionString, '--db-schema', schema, '--redis', REDIS_URL];
    args.push('--redis-prefix', prefix, '--admin-token', 'bench', '--log-level', 'warn');
    for (let n = 0; n < NODES; n++) {
      servers.push(await startSlashdWith(n === 0 ? [...args, '--world', worldPath] : args, () => {}, [], root));
    }
    const counted = { received: 0 };
    const waiting = new Map<string, () => void>();
    const session = await openSession({
      url: servers[NODES - 1]!.url.replace(/^http/, 'ws'),
      token: BOT_TOKEN,
      intents: INTENTS,
      zlib: false,
      heartbeat: true,
      onDispatch: (payload) => {
        if (payload.t !== 'MESSAGE_CREATE') return;
        counted.received++;
        const content = (payload.d as { content?: string }).content ?? '';
        waiting.get(content)?.();
      },
    });
    const urls = servers.map((s) => s.url);
    const warm = await load(urls, WARMUP_SECONDS);
    const measured = await load(urls, ROUND_SECONDS);
    // autocannon stops without waiting for requests in flight: up to CONNECTIONS per load more.
    const answered = warm.answered + measured.answered;
    const deadline = Date.now() + DELIVERED_GUARD_MS;
    while (counted.received < answered) {
      if (Date.now() > deadline) throw new Error(`${answered} messages answered 200, ${counted.received} dispatched`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const latencies: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const content = `timed ${i}`;
      const dispatched = new Promise<void>((resolve) => waiting.set(content, resolve));
      const started = performance.now();
      const response = await fetch(`${urls[i % NODES]}/api/v10/channels/${GENERAL}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      });
      if (response.status !== 200) throw new Error(`message ${i}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      await dispatched;
      latencies.push(performance.now() - started);
      waiting.delete(content);
    }
    await session.close();
    return { rate: measured.answered / ROUND_SECONDS, p50: measured.p50, dispatchP50: median(latencies) };
  } finally {
    for (const server of servers) await server.stop();
    await dropSchema(schema);
    await dropRedisPrefix(prefix);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runDispatchLogBench(): Promise<{ lines: string[] }> {
  const baseline = process.env.SLASHD_BENCH_BASELINE;
  if (!baseline) {
    return { lines: ['skipped: set SLASHD_BENCH_BASELINE to a built checkout of the commit to compare with'] };
  }
  const variants = { log: REPO_ROOT, baseline } as const;
  const rates = { log: [] as number[], baseline: [] as number[] };
  const p50s = { log: [] as number[], baseline: [] as number[] };
  const dispatchP50s = { log: [] as number[], baseline: [] as number[] };
  const latencyRatios: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['log', 'baseline'] as const) : (['baseline', 'log'] as const);
    const thisRound: Partial<Record<keyof typeof variants, Measured>> = {};
    for (const variant of order) thisRound[variant] = await measure(variants[variant]);
    for (const variant of order) {
      rates[variant].push(thisRound[variant]!.rate);
      p50s[variant].push(thisRound[variant]!.p50);
      dispatchP50s[variant].push(thisRound[variant]!.dispatchP50);
    }
    ratios.push(thisRound.log!.rate / thisRound.baseline!.rate);
    latencyRatios.push(thisRound.log!.dispatchP50 / thisRound.baseline!.dispatchP50);
  }
  const line = (name: string, variant: keyof typeof variants) =>
    `${name}: ${fixed(median(rates[variant]), 0)} messages/s (rounds ${rates[variant].map((x) => fixed(x, 0)).join(', ')}), p50 ${fixed(median(p50s[variant]), 1)} ms; one at a time, POST to MESSAGE_CREATE p50 ${fixed(median(dispatchP50s[variant]), 2)} ms (rounds ${dispatchP50s[variant].map((x) => fixed(x, 2)).join(', ')})`;
  return {
    lines: [
      line('with the dispatch log', 'log'),
      line('before (baseline build)', 'baseline'),
      `ratio with/before: ${fixed(median(ratios))} (rounds ${ratios.map((x) => fixed(x)).join(', ')}); POST to MESSAGE_CREATE latency with/before ${fixed(median(latencyRatios))} (rounds ${latencyRatios.map((x) => fixed(x)).join(', ')})`,
      `(${NODES} nodes on one PostgreSQL and one Redis; ${CONNECTIONS} requests in flight spread evenly; one bot session on the third node got a MESSAGE_CREATE for every 200; ${ROUND_SECONDS}s per configuration after ${WARMUP_SECONDS}s of warm-up; ${ROUNDS} rounds alternating the order)`,
    ],
  };
}
