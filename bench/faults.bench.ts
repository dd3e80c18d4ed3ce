/**
 * The cost of durability and the time to recover, with a discord.js bot (issue 26):
 * - **durable path**: interaction round trip (`POST /interactions` on a node → INTERACTION_CREATE to
 *   the bot → its `reply()` accepted) at an offered 100/s, then 500/s, for a few seconds (open loop), on three
 *   `slashd serve` nodes on PostgreSQL + Redis (invocations spread over the nodes, the bot on one),
 *   against one node on a SQLite file, measured in the same run with the same bot: p50 and p99,
 *   and the three nodes' p99 as a ratio to the one node's.
 * - **kill -9 to answered**: three nodes behind a TCP balancer (their announced gateway URL); the
 *   node holding the bot's session is killed with SIGKILL while invocations go on every 50 ms on a
 *   survivor; the time from the kill to the first answer of the resumed bot, median over a few
 *   rounds (a new node replaces the killed one each round), against the same bot's normal
 *   invocation round trip (median of sequential invocations before the first kill).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { startTcpBalancer } from '../test/helpers/tcp-balancer.js';
import {
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
  exampleWorld,
} from '../test/helpers/world.js';
import { client as httpClient, paced } from './interactions.bench.js';
import { dropSchema, freshSchemaName, openBenchStore, postgresConnectionString } from './postgres.js';
import { startSlashd, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile } from './stats.js';

/**
 * Offered rates, lowest first: the 500/s, and a lower one a loaded machine can keep up
 * with; `FAULTS_BENCH_RATES=30,60` chooses others.
 */
const RATES: readonly number[] = (process.env['FAULTS_BENCH_RATES'] ?? '100,500').split(',').map(Number);
const WARMUP_SECONDS = 1;
const PACED_SECONDS = 3;
const KILL_ROUNDS = 3;
const ROUND_TRIPS = 20;
/** The pace of invocations while the bot is away. */
const INVOKE_EVERY_MS = 50;
/** Give up on a flow or a recovery past this. */
const GUARD_MS = 30_000;
const REDIS_URL = process.env['SLASHD_BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface Command {
  id: string;
  name: string;
  version: string;
}

/** A discord.js bot answering every slash command; `answered(id)` resolves once its reply is accepted. */
interface Bot {
  answered(id: string): Promise<void>;
  /** Replies refused so far. */
  refused(): number;
  destroy(): Promise<void>;
}

async function startBot(restUrl: string): Promise<Bot> {
  // discord.js's default 50 requests/s global limit would pace the replies, not slashd.
  const bot = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: `${restUrl}/api`, globalRequestsPerSecond: 100_000 },
  });
  const done = new Set<string>();
  const waiters = new Map<string, () => void>();
  let refused = 0;
  const settle = (id: string) => {
    done.add(id);
    waiters.get(id)?.();
  };
  bot.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (!interaction.isChatInputCommand()) return;
    // A refused reply (past the 3 s deadline on a loaded machine) ends the flow too, counted.
    interaction.reply('pong').then(
      () => settle(interaction.id),
      () => {
        refused++;
        settle(interaction.id);
      },
    );
  });
  const ready = new Promise<void>((resolve) => bot.once(Events.ClientReady, () => resolve()));
  await bot.login(DEMO_BOT_TOKEN);
  await ready;
  return {
    answered: (id) =>
      done.has(id)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`interaction ${id} not answered`)), GUARD_MS);
            waiters.set(id, () => {
              clearTimeout(timer);
              waiters.delete(id);
              resolve();
            });
          }),
    refused: () => refused,
    destroy: () => bot.destroy(),
  };
}

function invoker(urls: string[], command: Command) {
  const clients = urls.map((url) => httpClient(url));
  const body = JSON.stringify({
    type: 2,
    application_id: DEMO_APP_ID,
    guild_id: TEST_GUILD_ID,
    channel_id: GENERAL,
    data: { id: command.id, name: command.name, type: 1, version: command.version },
  });
  const headers = { authorization: ALICE_TOKEN, 'content-type': 'application/json' };
  return {
    /** Invokes on node `i mod n`: the interaction id. */
    async invoke(i: number): Promise<string> {
      const reply = await clients[i % clients.length]!.call('POST', '/api/v10/interactions', headers, body);
      if (reply.status !== 200) throw new Error(`invocation answered ${reply.status}: ${reply.text}`);
      return (JSON.parse(reply.text) as { id: string }).id;
    },
    close: () => clients.forEach((c) => c.close()),
  };
}

async function createCommand(url: string): Promise<Command> {
  const http = httpClient(url);
  try {
    const reply = await http.call(
      'POST',
      `/api/v10/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`,
      { authorization: `Bot ${DEMO_BOT_TOKEN}`, 'content-type': 'application/json' },
      JSON.stringify({ name: 'ping', description: 'ping' }),
    );
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`create answered ${reply.status}`);
    return JSON.parse(reply.text) as Command;
  } finally {
    http.close();
  }
}

/** Three-node cluster on a fresh schema and Redis prefix; `extra` flags for every node. */
async function startCluster(extra: string[] = []) {
  const schema = freshSchemaName('bench_faults');
  const prefix = `bench-faults-${randomBytes(6).toString('hex')}:`;
  const store = await openBenchStore(schema, 1);
  await store.world.replaceWorld(exampleWorld());
  await store.close();
  const nodes: ChildServer[] = [];
  const args = [
    '--db',
    postgresConnectionString,
    '--db-schema',
    schema,
    '--redis',
    REDIS_URL,
    '--redis-prefix',
    prefix,
    '--admin-token',
    'bench',
    ...extra,
  ];
  const add = async () => {
    const node = await startSlashdWith(args);
    nodes.push(node);
    return node;
  };
  for (let i = 0; i < 3; i++) await add();
  return {
    nodes,
    add,
    /** SIGKILL: no drain; the node leaves the list. */
    async kill(node: ChildServer) {
      const gone = new Promise<void>((resolve) => node.child.once('exit', () => resolve()));
      node.child.kill('SIGKILL');
      await gone;
      nodes.splice(nodes.indexOf(node), 1);
    },
    async close() {
      for (const node of nodes) await node.stop();
      await dropSchema(schema);
    },
  };
}

interface Paced {
  rate: number;
  refused: number;
  /** p50 of `POST /interactions` alone (ms): what of the flow is spent before the bot is involved. */
  invokeP50: number;
  flows: number;
  p50: number;
  p99: number;
  maxLagMs: number;
}

/** Warm-up, then each of RATES flows/s for PACED_SECONDS over `urls`, the bot on the first node's gateway. */
async function pacedRoundTrips(urls: string[]): Promise<Paced[]> {
  const command = await createCommand(urls[0]!);
  const bot = await startBot(urls[0]!);
  const load = invoker(urls, command);
  try {
    let invokeTimes: number[] = [];
    const flow = async (i: number) => {
      const started = performance.now();
      const id = await load.invoke(i);
      invokeTimes.push(performance.now() - started);
      await bot.answered(id);
    };
    await paced(RATES[0]!, WARMUP_SECONDS, flow);
    const results: Paced[] = [];
    for (const rate of RATES) {
      const before = bot.refused();
      invokeTimes = [];
      const { times, maxLagMs } = await paced(rate, PACED_SECONDS, flow);
      const sorted = [...times].sort((a, b) => a - b);
      results.push({
        rate,
        refused: bot.refused() - before,
        flows: times.length,
        invokeP50: percentile(
          [...invokeTimes].sort((a, b) => a - b),
          50,
        ),
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        maxLagMs,
      });
    }
    return results;
  } finally {
    load.close();
    await bot.destroy();
  }
}

async function durablePath(): Promise<string[]> {
  console.error('faults: durable path, 1 node');
  const single = await startSlashd(exampleWorld());
  let one: Paced[];
  try {
    one = await pacedRoundTrips([single.url]);
  } finally {
    await single.stop();
  }
  console.error('faults: durable path, 3 nodes');
  const cluster = await startCluster();
  let three: Paced[];
  try {
    three = await pacedRoundTrips(cluster.nodes.map((n) => n.url));
  } finally {
    await cluster.close();
  }
  const describe = (p: Paced) =>
    `p50 ${fixed(p.p50, 1)} ms, p99 ${fixed(p.p99, 1)} ms, POST /interactions alone p50 ${fixed(p.invokeP50, 1)} ms (scheduler behind at worst ${fixed(p.maxLagMs, 0)} ms; ${p.refused} of ${p.flows} replies refused)`;
  const lines: string[] = [];
  RATES.forEach((rate, i) => {
    const [a, b] = [one[i]!, three[i]!];
    lines.push(
      `${rate}/s, 1 node on SQLite: ${describe(a)}`,
      `${rate}/s, 3 nodes on PostgreSQL + Redis: ${describe(b)}`,
      `${rate}/s, p99 ratio 3 nodes / 1 node: ${fixed(b.p99 / a.p99)} (p50 ratio ${fixed(b.p50 / a.p50)})`,
    );
  });
  lines.push(
    `(each rate offered for ${PACED_SECONDS}s, open loop, after ${WARMUP_SECONDS}s of warm-up; a flow is POST /interactions to discord.js's reply() resolved, the bot and the load generator in this process; 3 nodes: invocations round-robin over the nodes, the bot on node 1)`,
  );
  return lines;
}

async function killToAnswered(): Promise<string[]> {
  const balancer = await startTcpBalancer();
  const cluster = await startCluster(['--gateway-url', `ws://127.0.0.1:${balancer.port}`]);
  const port = (node: ChildServer) => Number(new URL(node.url).port);
  try {
    // The bot's gateway lands on the last node; REST and invocations go to the first, never killed.
    const rest = cluster.nodes[0]!;
    balancer.setTargets([port(cluster.nodes[2]!), port(cluster.nodes[1]!)]);
    const command = await createCommand(rest.url);
    const bot = await startBot(rest.url);
    const load = invoker([rest.url], command);
    try {
      const trips: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        const started = performance.now();
        await bot.answered(await load.invoke(0));
        trips.push(performance.now() - started);
      }
      const recoveries: number[] = [];
      for (let round = 0; round < KILL_ROUNDS; round++) {
        const victim = cluster.nodes.find((n) => port(n) === balancer.forwarded.at(-1))!;
        await cluster.add();
        const killedAt = performance.now();
        await cluster.kill(victim);
        balancer.setTargets(cluster.nodes.filter((n) => n !== rest).map(port));
        // Invocations every 50 ms from the kill on; the first answered ends the round.
        let first: number | null = null;
        const answers: Promise<void>[] = [];
        while (first === null && performance.now() - killedAt < GUARD_MS) {
          answers.push(
            load.invoke(0).then(async (id) => {
              await bot.answered(id);
              first ??= performance.now() - killedAt;
            }),
          );
          await sleep(INVOKE_EVERY_MS);
        }
        await Promise.all(answers);
        console.error(`faults: kill round ${round + 1}: ${fixed(first ?? NaN, 0)} ms`);
        if (first === null) throw new Error('no interaction answered after the kill');
        recoveries.push(first);
      }
      const trip = median(trips);
      const recovery = median(recoveries);
      return [
        `normal round trip (median of ${ROUND_TRIPS}): ${fixed(trip, 1)} ms`,
        `kill -9 of the bot's node to the first answer of the resumed bot: median ${fixed(recovery, 0)} ms (rounds ${recoveries.map((r) => fixed(r, 0)).join(', ')}), ${fixed(recovery / trip, 0)}× the round trip`,
        `(3 nodes on PostgreSQL + Redis behind a TCP balancer, the discord.js bot resuming through it; invocations every ${INVOKE_EVERY_MS} ms on a surviving node from the kill on, ${bot.refused()} replies refused in all; ${KILL_ROUNDS} rounds, a new node added before each kill)`,
      ];
    } finally {
      load.close();
      await bot.destroy();
    }
  } finally {
    await cluster.close();
    await balancer.close();
  }
}

export async function runFaultsBench(): Promise<{ lines: string[] }> {
  const lines = [...(await durablePath()), ...(await killToAnswered())];
  return { lines };
}
