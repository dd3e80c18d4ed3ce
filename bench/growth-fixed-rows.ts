/**
 * The rows of the growth bench that do not depend on the world's size (bench/growth.bench.ts),
 * run once, on the gateway bench's flow world (the example world with 64 text channels):
 * 6. interactions sustained with HTTP delivery (closed loop, each answered inline by a
 *    discord-interactions app) vs the bare HTTP relay (bench/bare-relays.ts) in front of the same app;
 * 7. interactions sustained over the gateway (closed loop, invoke → INTERACTION_CREATE → callback)
 *    vs the bare gateway relay;
 * 8. 500 interactions/s offered, the app answering through the callback after a 202, each invoking
 *    user polling `GET /interactions/{id}` every 5 ms until answered: failed interactions;
 * 9. one PostgreSQL (+Redis) node vs one SQLite node: the 100-command list GET and creates;
 * 10. idle gateway sessions: heap per session vs a bare `ws` server (bench/gateway.bench.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../test/helpers/world.js';
import { relayTo, startBareGatewayRelay, startBareHttpRelay, type BareRelay } from './bare-relays.js';
import {
  CHANNELS,
  channelId,
  createCommand,
  flowWorld,
  gatewayUrl,
  idleComparison,
  openAnsweringBot,
  type AnsweringBot,
} from './gateway.bench.js';
import { atLeast, atMost, attempt, judged, runRow } from './goals.js';
import { client, closedLoop, paced, startApp } from './interactions.bench.js';
import { APPLICATIONS, createLoad, dropRedisPrefix, REDIS_URL } from './nodes.bench.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { startSlashd, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile } from './stats.js';
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

/** Flows in flight in the sustained rows (6, 7), as the interactions bench's sustained maximum. */
const FLOWS_IN_FLIGHT = 32;
/** Row 8: how often each invoking user reads its interaction's state. */
const POLL_EVERY_MS = 5;
/** Row 8: past the 3 s deadline and some: an interaction still pending then has failed. */
const POLL_GIVE_UP_MS = 5_000;
/** A dispatch that has not come back answered by then counts as a failed flow (rows 7). */
const DISPATCH_GUARD_MS = 10_000;

type Api = ReturnType<typeof client>;
const user = { authorization: ALICE_TOKEN, 'content-type': 'application/json' };

function invocations(appId: string, command: { id: string; version: string }): string[] {
  return Array.from({ length: CHANNELS }, (_, i) =>
    JSON.stringify({
      type: 2,
      application_id: appId,
      guild_id: TEST_GUILD_ID,
      channel_id: channelId(i),
      data: { id: command.id, name: 'ping', type: 1, version: command.version },
    }),
  );
}

/** Points the app's interactions endpoint at `endpoint` (slashd verifies it with a PING). */
async function setEndpoint(api: Api, endpoint: string): Promise<void> {
  const reply = await api.call(
    'PATCH',
    '/api/v10/applications/@me',
    { authorization: `Bot ${OTHER_BOT_TOKEN}`, 'content-type': 'application/json' },
    JSON.stringify({ interactions_endpoint_url: endpoint }),
  );
  if (reply.status !== 200) throw new Error(`endpoint verification failed: ${reply.status} ${reply.text}`);
}

async function verifyKey(api: Api): Promise<string> {
  const me = await api.call('GET', '/api/v10/applications/@me', { authorization: `Bot ${OTHER_BOT_TOKEN}` });
  return (JSON.parse(me.text) as { verify_key: string }).verify_key;
}

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

/** Row 6: the flow against slashd and against the bare relay, each to its own copy of the app. */
async function httpDelivery(options: FixedRowsOptions, api: Api, bodies: string[]): Promise<string> {
  const app = await startApp(await verifyKey(api));
  let relay: BareRelay | null = null;
  let relayApp: { url: string; stop(): Promise<void> } | null = null;
  let bareApi: Api | null = null;
  try {
    await setEndpoint(api, `${app.url}/interactions`);
    relay = await startBareHttpRelay();
    relayApp = await startApp(relay.detail);
    await relayTo(relay, `${relayApp.url}/interactions`);
    bareApi = client(relay.url);
    let failed = 0;
    const flow = (on: Api) => async (i: number) => {
      const invoked = await on.call('POST', '/api/v10/interactions', user, bodies[i % CHANNELS]);
      if (invoked.status !== 200 || (JSON.parse(invoked.text) as { state: string }).state !== 'responded') failed++;
    };
    const result = await sustained(options, flow(api), flow(bareApi));
    return describeSustained(
      `(6) interactions sustained, HTTP delivery answered inline, vs a bare relay (sign + deliver + answer)`,
      result,
      `${failed} failed`,
    );
  } finally {
    bareApi?.close();
    await relayApp?.stop();
    await relay?.stop();
    await app.stop();
  }
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
  const bodies = invocations(DEMO_APP_ID, command);
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

/** Row 8: the app answers through the callback; every invoking user polls until it sees the answer. */
async function polledInteractions(
  options: FixedRowsOptions,
  api: Api,
  slashdUrl: string,
  bodies: string[],
): Promise<string> {
  const app = await startApp(await verifyKey(api), slashdUrl);
  try {
    await setEndpoint(api, `${app.url}/interactions`);
    let failed = 0;
    let polls = 0;
    const answeredIn: number[] = [];
    const flow = async (i: number): Promise<void> => {
      const started = performance.now();
      const invoked = await api.call('POST', '/api/v10/interactions', user, bodies[i % CHANNELS]);
      if (invoked.status !== 200) {
        failed++;
        return;
      }
      const { id } = JSON.parse(invoked.text) as { id: string };
      const path = `/api/v10/interactions/${id}`;
      while (performance.now() - started < POLL_GIVE_UP_MS) {
        polls++;
        const read = await api.call('GET', path, { authorization: ALICE_TOKEN });
        const state = read.status === 200 ? (JSON.parse(read.text) as { state: string }).state : 'unreadable';
        if (state === 'responded' || state === 'acknowledged') {
          answeredIn.push(performance.now() - started);
          return;
        }
        if (state !== 'pending') break;
        await sleep(POLL_EVERY_MS);
      }
      failed++;
    };
    const failedCallbacks = async () =>
      ((await (await fetch(`${app.url}/stats`)).json()) as { failedCallbacks: Record<string, number> }).failedCallbacks;
    await paced(options.polledRate, 1, flow);
    failed = 0;
    polls = 0;
    answeredIn.length = 0;
    const before = await failedCallbacks();
    const run = await paced(options.polledRate, options.seconds, flow);
    const callbacks = Object.entries(await failedCallbacks()).map(([status, n]) => [status, n - (before[status] ?? 0)]);
    const times = answeredIn.sort((a, b) => a - b);
    return (
      `(8) ${options.polledRate} interactions/s offered for ${options.seconds} s (${run.times.length}), the app answering ` +
      `through the callback after a 202, each invoking user polling GET /interactions/{id} every ${POLL_EVERY_MS} ms ` +
      `(${polls} reads): failed interactions ${judged(failed, atMost(0), 0)}; answered in p50 ` +
      `${fixed(percentile(times, 50))} ms, p99 ${fixed(percentile(times, 99))} ms; failed callbacks ` +
      `${JSON.stringify(Object.fromEntries(callbacks))}; load generator lag max ${fixed(run.maxLagMs)} ms`
    );
  } finally {
    await app.stop();
  }
}

/** Rows 6, 7 and 8, in one slashd on SQLite. */
async function interactionRows(options: FixedRowsOptions, say: (line: string) => void): Promise<void> {
  const slashd = await startSlashd(flowWorld());
  const api = client(slashd.url);
  try {
    // The HTTP-delivery app's command, for rows 6 and 8.
    const bodies = invocations(OTHER_APP_ID, await createCommand(api, OTHER_APP_ID, OTHER_BOT_TOKEN));
    await runRow(options.rows, 6, say, '', () => httpDelivery(options, api, bodies));
    await runRow(options.rows, 7, say, '', () => overGateway(options, api));
    await runRow(options.rows, 8, say, '', () => polledInteractions(options, api, slashd.url, bodies));
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
  if ([6, 7, 8].some((row) => options.rows.has(row))) {
    await attempt(say, '(6-8)', () => interactionRows(options, say));
  }
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
