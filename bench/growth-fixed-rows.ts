/**
 * The rows of the growth bench that do not depend on the world's size (bench/growth.bench.ts),
 * run once, each on its own small world:
 * 6. interactions sustained with HTTP delivery, answered inline, vs a bare relay in front of the
 *    same app (bench/interaction-polls.bench.ts (b));
 * 7. interactions sustained over the gateway (closed loop, invoke → INTERACTION_CREATE → callback,
 *    on the gateway bench's flow world) vs the bare gateway relay (bench/bare-relays.ts);
 * 8. 500 interactions/s offered, the app answering through the callback after a 202, each invoking
 *    user polling `GET /interactions/{id}` every 5 ms until answered: failed interactions
 *    (bench/interaction-polls.bench.ts (a));
 * 9. one PostgreSQL (+Redis) node vs one SQLite node: the 100-command list GET and creates;
 * 10. idle gateway sessions: heap per session vs a bare `ws` server (bench/gateway.bench.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ALICE_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, exampleWorld } from '../test/helpers/world.js';
import { startBareGatewayRelay } from './bare-relays.js';
import {
  CHANNELS,
  createCommand,
  flowWorld,
  gatewayUrl,
  idleComparison,
  openAnsweringBot,
  pingInvocations,
  type AnsweringBot,
} from './gateway.bench.js';
import { atLeast, atMost, judged, runRow } from './goals.js';
import { pollingFlow, sustainedFlow } from './interaction-polls.bench.js';
import { client, closedLoop } from './interactions.bench.js';
import { APPLICATIONS, createLoad, dropRedisPrefix, REDIS_URL } from './nodes.bench.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { startSlashd, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';
import { deploy, requestsPerSecond } from './stores.bench.js';

export interface FixedRowsOptions {
  rows: ReadonlySet<number>;
  /** Alternating rounds of each comparison. */
  rounds: number;
  /** Seconds of each round. */
  seconds: number;
  /** Idle sessions of row 10. */
  sessions: number;
  keep: boolean;
  /** Row 8's offered rate (500/s in the issue). */
  polledRate: number;
}

/** Flows in flight in row 7, as the interactions bench's sustained maximum. */
const FLOWS_IN_FLIGHT = 32;
/** A dispatch that has not come back answered by then counts as a failed flow (row 7). */
const DISPATCH_GUARD_MS = 10_000;

type Api = ReturnType<typeof client>;
const user = { authorization: ALICE_TOKEN, 'content-type': 'application/json' };

interface Sustained {
  ours: number[];
  bare: number[];
}

/** Alternating closed-loop rounds of the two flows (after a warm-up of each): flows per second. */
async function sustained(
  options: FixedRowsOptions,
  ours: (i: number) => Promise<void>,
  bare: (i: number) => Promise<void>,
): Promise<Sustained> {
  await closedLoop(FLOWS_IN_FLIGHT, 1, ours);
  await closedLoop(FLOWS_IN_FLIGHT, 1, bare);
  const out: Sustained = { ours: [], bare: [] };
  for (let round = 0; round < options.rounds; round++) {
    out.ours.push(await closedLoop(FLOWS_IN_FLIGHT, options.seconds, ours));
    out.bare.push(await closedLoop(FLOWS_IN_FLIGHT, options.seconds, bare));
  }
  return out;
}

function describeSustained(label: string, result: Sustained, failures: string): string {
  const ratios = result.ours.map((rate, i) => rate / result.bare[i]!);
  return (
    `${label}: slashd ${fixed(median(result.ours), 0)}/s, bare ${fixed(median(result.bare), 0)}/s, ratio ` +
    `${judged(median(ratios), atLeast(0.7))} (median of ${ratios.length} alternating rounds, range ` +
    `${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))}, ${FLOWS_IN_FLIGHT} in flight); ${failures}`
  );
}

/**
 * Row 6: bench/interaction-polls.bench.ts (b), invocations answered inline through slashd and
 * through its bare relay, a round on a fresh slashd each.
 */
async function httpDelivery(options: FixedRowsOptions): Promise<string> {
  const rounds: { slashd: number; relay: number; ratio: number }[] = [];
  for (let round = 0; round < options.rounds; round++) rounds.push(await sustainedFlow({ seconds: options.seconds }));
  const ratios = rounds.map((r) => r.ratio);
  return (
    `(6) interactions sustained, HTTP delivery answered inline, vs a bare relay (signs the bytes slashd delivered, ` +
    `sends them to the same app, answers with its answer): slashd ${fixed(median(rounds.map((r) => r.slashd)), 0)}/s, ` +
    `bare ${fixed(median(rounds.map((r) => r.relay)), 0)}/s, ratio ${judged(median(ratios), atLeast(0.7))} ` +
    `(median of ${ratios.length} rounds, range ${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))})`
  );
}

/** A flow over the gateway: invoke, then wait until the bot's callback has been answered. */
function gatewayFlow(api: Api, bot: AnsweringBot, bodies: string[], failures: { count: number }) {
  return async (i: number): Promise<void> => {
    const invoked = await api.call('POST', '/api/v10/interactions', user, bodies[i % CHANNELS]);
    if (invoked.status !== 200) {
      failures.count++;
      return;
    }
    const { id } = JSON.parse(invoked.text) as { id: string };
    const lost = sleep(DISPATCH_GUARD_MS).then(() => 'lost' as const);
    if ((await Promise.race([bot.answered.wait(id), lost])) === 'lost') failures.count++;
    bot.dispatched.delete(id);
  };
}

/** Row 7. */
async function overGateway(options: FixedRowsOptions, api: Api): Promise<string> {
  const command = await createCommand(api, DEMO_APP_ID, DEMO_BOT_TOKEN);
  const bodies = pingInvocations(DEMO_APP_ID, command);
  const bot = await openAnsweringBot(api, await gatewayUrl(api), DEMO_BOT_TOKEN);
  const relay = await startBareGatewayRelay();
  const bareApi = client(relay.url);
  let bareBot: AnsweringBot | null = null;
  try {
    bareBot = await openAnsweringBot(bareApi, relay.detail, 'bare');
    const failures = { count: 0 };
    const result = await sustained(
      options,
      gatewayFlow(api, bot, bodies, failures),
      gatewayFlow(bareApi, bareBot, bodies, { count: 0 }),
    );
    const callbacks = JSON.stringify(Object.fromEntries(bot.callbackErrors));
    return describeSustained(
      '(7) interactions sustained over the gateway (invoke → INTERACTION_CREATE → callback), vs a bare gateway relay',
      result,
      `${failures.count} failed, failed callbacks by status ${callbacks}`,
    );
  } finally {
    await bareBot?.session.close();
    await bot.session.close();
    bareApi.close();
    await relay.stop();
  }
}

/** Row 8: bench/interaction-polls.bench.ts (a), the users polling their interactions' state. */
async function polledInteractions(options: FixedRowsOptions): Promise<string> {
  const r = await pollingFlow({ rate: options.polledRate, seconds: options.seconds });
  return (
    `(8) ${options.polledRate} interactions/s offered for ${options.seconds} s (${r.total}), the app answering ` +
    `through the callback after a 202, each invoking user polling GET /interactions/{id} every 5 ms ` +
    `(${r.polls} reads, by status ${JSON.stringify(r.statuses)}): failed interactions ${judged(r.failed, atMost(0), 0)}; ` +
    `answered in p50 ${fixed(r.p50)} ms, p99 ${fixed(r.p99)} ms; callbacks answered ${JSON.stringify(r.callbacks)}`
  );
}

/** Row 7, in one slashd on SQLite. */
async function gatewayRow(options: FixedRowsOptions): Promise<string> {
  const slashd = await startSlashd(flowWorld());
  const api = client(slashd.url);
  try {
    return await overGateway(options, api);
  } finally {
    api.close();
    await slashd.stop();
  }
}

/** Row 9: one node of each store, the example world plus the creates' applications. */
async function storeRows(options: FixedRowsOptions): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-growth-stores-'));
  const worldPath = join(dir, 'world.json');
  const world = exampleWorld();
  world.applications.push(...APPLICATIONS);
  writeFileSync(worldPath, JSON.stringify(world));
  const schema = freshSchemaName('bench_growth_nodes');
  const prefix = `bench-growth-${randomBytes(6).toString('hex')}:`;
  const common = ['--world', worldPath, '--admin-token', 'bench'];
  const servers: ChildServer[] = [];
  try {
    servers.push(
      await startSlashdWith(['--db', join(dir, 'bench.sqlite'), ...common]),
      await startSlashdWith([
        '--db',
        postgresConnectionString,
        '--db-schema',
        schema,
        '--redis',
        REDIS_URL,
        '--redis-prefix',
        prefix,
        ...common,
      ]),
    );
    const [sqlite, postgres] = servers as [ChildServer, ChildServer];
    const listUrl = (server: ChildServer) => `${server.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
    await deploy(listUrl(sqlite));
    await deploy(listUrl(postgres));
    const counters = new Map<ChildServer, number>([
      [sqlite, 0],
      [postgres, 0],
    ]);
    const createRate = async (server: ChildServer): Promise<number> => {
      const next = () => {
        const n = counters.get(server)!;
        counters.set(server, n + 1);
        return n;
      };
      const load = await createLoad([server.url], options.seconds, next);
      return load.created / load.seconds;
    };
    const listRatios: number[] = [];
    const createRatios: number[] = [];
    await createRate(sqlite);
    await createRate(postgres);
    for (let round = 0; round < options.rounds; round++) {
      const [first, second] = round % 2 === 0 ? [sqlite, postgres] : [postgres, sqlite];
      const lists = new Map([
        [first, await requestsPerSecond(listUrl(first))],
        [second, await requestsPerSecond(listUrl(second))],
      ]);
      const creates = new Map([
        [first, await createRate(first)],
        [second, await createRate(second)],
      ]);
      listRatios.push(lists.get(postgres)! / lists.get(sqlite)!);
      createRatios.push(creates.get(postgres)! / creates.get(sqlite)!);
    }
    const range = (values: number[]) => `${fixed(Math.min(...values))}-${fixed(Math.max(...values))}`;
    return (
      `(9) one PostgreSQL (+Redis) node vs one SQLite node, ratio PostgreSQL/SQLite: 100-command list GET ` +
      `${judged(median(listRatios), atLeast(0.5))} (rounds ${range(listRatios)}), creates ` +
      `${judged(median(createRatios), atLeast(0.7))} (rounds ${range(createRatios)}); median of ${options.rounds} alternating rounds`
    );
  } finally {
    for (const server of servers) await server.stop();
    if (!options.keep) {
      await dropSchema(schema);
      await dropRedisPrefix(prefix);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows 6-10, each run once; `say` has each line as it comes. */
export async function runFixedRows(options: FixedRowsOptions, say: (line: string) => void): Promise<void> {
  say('rows 6-10 do not depend on the world size: run once, on their own small worlds');
  await runRow(options.rows, 6, say, '', () => httpDelivery(options));
  await runRow(options.rows, 7, say, '', () => gatewayRow(options));
  await runRow(options.rows, 8, say, '', () => polledInteractions(options));
  await runRow(options.rows, 9, say, '', () => storeRows(options));
  await runRow(options.rows, 10, say, '', async () => {
    const scratch: string[] = [];
    const { ours, theirs } = await idleComparison(scratch, '(10)', options.sessions, false);
    return (
      `(10) ${options.sessions} idle gateway sessions, JS heap + external per session: slashd ` +
      `${fixed(ours.heapPerSessionBytes / 1024, 1)} KiB, bare ws ${fixed(theirs.heapPerSessionBytes / 1024, 1)} KiB, ratio ` +
      `${judged(ours.heapPerSessionBytes / theirs.heapPerSessionBytes, atMost(1.5))}; RSS per session ratio ` +
      `${fixed(ours.perSessionBytes / theirs.perSessionBytes)}`
    );
  });
}
