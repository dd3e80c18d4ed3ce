/**
 * Gateway benchmark. slashd runs as a child process on a fresh SQLite file (its CLI for (a)/(d);
 * bench/gateway-node.ts for (b)/(c), which reports RSS after a full collection); the bots are raw
 * v10 gateway sessions (bench/gateway-client.ts) in this process. Reported, each against a
 * baseline measured in the same run:
 * (a) invoke → INTERACTION_CREATE at a connected bot → callback (type 4) → the user reads the
 *     answer (`GET /channels/{id}/messages?limit=1`), p50/p99 at 500 flows/s (open loop); the
 *     baseline is the same flow over HTTP delivery (an app endpoint in a child process, verifying
 *     with discord-interactions and answering inline), in the same slashd at the same rate;
 * (b) N idle sessions (default 10,000; GATEWAY_BENCH_SESSIONS) heartbeating on one node: RSS per
 *     session (after a full collection, N sessions against none) against a bare `ws` server holding the same sockets (HELLO, READY, ACKs: the least a gateway must do),
 *     and the heartbeat ACK p50/p99 over one heartbeat interval (every session beats once);
 * (c) the same with compress=zlib-stream (GATEWAY_BENCH_ZLIB_SESSIONS, default N); the bare
 *     baseline keeps one zlib deflate context per socket, as any zlib-stream server must, with
 *     zlib's default sizes (32 KiB window, memLevel 8): what a plain server allocates;
 * (d) one APPLICATION_COMMAND_PERMISSIONS_UPDATE fanned out to 1,000 sessions of one app
 *     (GATEWAY_BENCH_FANOUT): from the PUT to the last session receiving it, over several rounds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { World } from '../src/core/world/types.js';
import { benchApplication } from './fixtures.js';
import {
  ALICE_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../test/helpers/world.js';
import { openSession, openSessions, type GatewayPayload, type Session, type SessionOptions } from './gateway-client.js';
import { client, paced, startApp } from './interactions.bench.js';
import { REPO_ROOT, startSlashd } from './processes.js';
import { fixed, percentile } from './stats.js';

const RATE = 500;
const PACED_SECONDS = 10;
const WARMUP_FLOWS = 300;
const WARMUP_PACED_SECONDS = 2;
export const CHANNELS = 64;

/** One `POST /interactions` body per channel: the app's `ping` command, invoked in each of the CHANNELS. */
export function pingInvocations(appId: string, command: { id: string; version: string }): string[] {
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
/** Handshakes in flight while opening many sessions. */
const OPEN_IN_FLIGHT = 100;
const FANOUT_ROUNDS = 10;
/** How long a flow waits for its INTERACTION_CREATE and callback before counting as failed. */
const DISPATCH_GUARD_MS = 10_000;

function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Idle sessions for (b); 10,000 is the goal, lower it on a small machine. */
const SESSIONS = intFromEnv('GATEWAY_BENCH_SESSIONS', 10_000);
/** Idle zlib-stream sessions for (c). */
const ZLIB_SESSIONS = intFromEnv('GATEWAY_BENCH_ZLIB_SESSIONS', SESSIONS);
/** Sessions of one app for the fan-out (d). */
const FANOUT = intFromEnv('GATEWAY_BENCH_FANOUT', 1000);
/** The heartbeat window of (b)/(c): one heartbeat interval unless capped (ms). */
const WINDOW_CAP_MS = intFromEnv('GATEWAY_BENCH_WINDOW_MS', 60_000);

const USER_TOKEN = 'alice-user-token';
const FANOUT_APP_ID = '1324165260902409001';
const FANOUT_BOT_TOKEN = 'fanout-bench-bot-token';
const FANOUT_PERM_TOKEN = 'alice-fanout-perm-token';
const IDLE_APP_BASE = 1324165260910000000n;

export const channelId = (i: number): string => (1345183757107203000n + BigInt(i % CHANNELS)).toString();

/**
 * (a) and (d): the example world with 64 bench channels in the Test Guild, the Other App installed
 * there too (the HTTP-delivery path), and a fan-out app with alice's permissions token for it.
 */
export function flowWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  for (let i = 0; i < CHANNELS; i++) {
    guild.channels.push({
      id: channelId(i),
      type: 0,
      name: `bench-${i}`,
      nsfw: false,
      parent_id: null,
      permission_overwrites: [],
    });
  }
  world.applications.push(benchApplication(FANOUT_APP_ID, 'Fan-out App', ALICE_ID, FANOUT_BOT_TOKEN));
  for (const id of [OTHER_APP_ID, FANOUT_APP_ID]) {
    guild.installs.push({ application_id: id, scopes: ['bot', 'applications.commands'], permissions: '2147552256' });
  }
  world.oauth2_tokens.push({
    access_token: FANOUT_PERM_TOKEN,
    user_id: ALICE_ID,
    application_id: FANOUT_APP_ID,
    scopes: ['identify', 'applications.commands.permissions.update'],
  });
  return world;
}

/**
 * (b) and (c): the idle sessions' bots, 500 sessions each (within session_start_limit). A few bots, not one per session: a large world's import leaves freed pages that RSS still
 * counts, which the sessions would then reuse and look cheaper than they are.
 */
const SESSIONS_PER_IDLE_BOT = 500;
const idleToken = (session: number): string => `idle-bot-${Math.floor(session / SESSIONS_PER_IDLE_BOT)}`;

function idleWorld(sessions: number): World {
  const count = Math.ceil(sessions / SESSIONS_PER_IDLE_BOT);
  const world = exampleWorld();
  for (let i = 0; i < count; i++) {
    world.applications.push(
      benchApplication((IDLE_APP_BASE + BigInt(i)).toString(), `Idle ${i}`, ALICE_ID, `idle-bot-${i}`),
    );
  }
  return world;
}

/**
 * A process's memory after a full collection. RSS is the figure asked for; heap + external is
 * given beside it because RSS keeps pages the heap has freed (start-up garbage then makes the
 * sessions look cheaper than they are).
 */
interface Memory {
  rss: number;
  heap: number;
}

/** A server in a child process under --expose-gc that reports its RSS after a full collection. */
export interface MeasuredServer {
  url: string;
  /** RSS, and JS heap used plus external memory, in bytes, after a full garbage collection in the child. */
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

/** Spawns `args` under --expose-gc; the child prints "listening on <url>" and answers "memory". */
async function startMeasured(args: string[], cleanup: () => void = () => undefined): Promise<MeasuredServer> {
  const child = spawn(process.execPath, ['--expose-gc', ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  let listening: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve, reject) => {
    listening = resolve;
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  lines.on('line', (line) => {
    const match = /listening on (\S+)/.exec(line);
    if (match?.[1]) listening(match[1]);
    else if (line.startsWith('memory ')) waiting.shift()?.(line);
  });
  return {
    url: await url,
    memory: () =>
      new Promise<Memory>((resolve) => {
        waiting.push((line) => {
          const [, rss, heap] = line.split(' ');
          resolve({ rss: Number(rss), heap: Number(heap) });
        });
        child.stdin.write('memory\n');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          cleanup();
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

/** slashd (bench/gateway-node.ts: createSlashd as `slashd serve` does) on `world` and a fresh SQLite file. */
export async function startMeasuredSlashd(world: World): Promise<MeasuredServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-gateway-bench-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(world));
  return startMeasured(
    [join(REPO_ROOT, 'dist', 'bench', 'gateway-node.js'), worldPath, join(dir, 'bench.sqlite')],
    () => rmSync(dir, { recursive: true, force: true }),
  );
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function latency(values: number[]): string {
  const all = sorted(values);
  return `p50 ${fixed(percentile(all, 50))} ms, p99 ${fixed(percentile(all, 99))} ms, max ${fixed(all[all.length - 1] ?? NaN)} ms`;
}

const kib = (bytes: number): string => `${fixed(bytes / 1024, 1)} KiB`;

/** A one-shot promise with its resolver, keyed by id, whichever side arrives first. */
export class Rendezvous<T> {
  private readonly waiting = new Map<string, { promise: Promise<T>; resolve: (value: T) => void }>();

  private entry(id: string) {
    let found = this.waiting.get(id);
    if (!found) {
      let resolve!: (value: T) => void;
      const promise = new Promise<T>((r) => (resolve = r));
      found = { promise, resolve };
      this.waiting.set(id, found);
    }
    return found;
  }

  settle(id: string, value: T): void {
    this.entry(id).resolve(value);
  }

  async wait(id: string): Promise<T> {
    const value = await this.entry(id).promise;
    this.waiting.delete(id);
    return value;
  }
}

export async function gatewayUrl(api: ReturnType<typeof client>): Promise<string> {
  const response = await api.call('GET', '/api/v10/gateway/bot', { authorization: `Bot ${DEMO_BOT_TOKEN}` });
  if (response.status !== 200) throw new Error(`GET /gateway/bot: ${response.status} ${response.text}`);
  return (JSON.parse(response.text) as { url: string }).url;
}

export async function createCommand(api: ReturnType<typeof client>, appId: string, token: string) {
  const created = await api.call(
    'POST',
    `/api/v10/applications/${appId}/guilds/${TEST_GUILD_ID}/commands`,
    { authorization: `Bot ${token}`, 'content-type': 'application/json' },
    JSON.stringify({ name: 'ping', description: 'Ping' }),
  );
  if (created.status !== 201) throw new Error(`command create failed: ${created.status} ${created.text}`);
  return JSON.parse(created.text) as { id: string; version: string };
}

/** A gateway bot that answers every INTERACTION_CREATE through the callback (type 4), at once. */
export interface AnsweringBot {
  session: Session;
  /** When each interaction's dispatch arrived (performance.now()), by id. */
  dispatched: Map<string, number>;
  /** Settled, by interaction id, once its callback has been answered. */
  answered: Rendezvous<number>;
  /** Failed callbacks by status (an interaction past its 3 s deadline answers 404 or 400). */
  callbackErrors: Map<number, number>;
}

export async function openAnsweringBot(
  api: ReturnType<typeof client>,
  url: string,
  token: string,
): Promise<AnsweringBot> {
  const json = { 'content-type': 'application/json' };
  const dispatched = new Map<string, number>();
  const answered = new Rendezvous<number>();
  const callbackErrors = new Map<number, number>();
  const session = await openSession({
    url,
    token,
    intents: 0,
    zlib: false,
    heartbeat: true,
    onDispatch: (payload: GatewayPayload, at: number) => {
      if (payload.t !== 'INTERACTION_CREATE') return;
      const interaction = payload.d as { id: string; token: string };
      dispatched.set(interaction.id, at);
      void api
        .call(
          'POST',
          `/api/v10/interactions/${interaction.id}/${interaction.token}/callback`,
          json,
          JSON.stringify({ type: 4, data: { content: `pong ${interaction.id}` } }),
        )
        .then((reply) => {
          if (reply.status !== 204) callbackErrors.set(reply.status, (callbackErrors.get(reply.status) ?? 0) + 1);
          answered.settle(interaction.id, performance.now());
        });
    },
  });
  return { session, dispatched, answered, callbackErrors };
}

/** (a) and (d), in one slashd. */
async function flowsAndFanout(lines: string[]): Promise<void> {
  const slashd = await startSlashd(flowWorld());
  const api = client(slashd.url);
  const sessions: Session[] = [];
  let app: { url: string; stop(): Promise<void> } | null = null;
  try {
    const url = await gatewayUrl(api);
    const otherBot = { authorization: `Bot ${OTHER_BOT_TOKEN}`, 'content-type': 'application/json' };
    const me = await api.call('GET', '/api/v10/applications/@me', otherBot);
    app = await startApp((JSON.parse(me.text) as { verify_key: string }).verify_key);
    const patched = await api.call(
      'PATCH',
      '/api/v10/applications/@me',
      otherBot,
      JSON.stringify({ interactions_endpoint_url: `${app.url}/interactions` }),
    );
    if (patched.status !== 200) throw new Error(`endpoint verification failed: ${patched.status} ${patched.text}`);
    const gatewayCommand = await createCommand(api, DEMO_APP_ID, DEMO_BOT_TOKEN);
    const httpCommand = await createCommand(api, OTHER_APP_ID, OTHER_BOT_TOKEN);
    const gatewayBodies = pingInvocations(DEMO_APP_ID, gatewayCommand);
    const httpBodies = pingInvocations(OTHER_APP_ID, httpCommand);
    const readPaths = Array.from({ length: CHANNELS }, (_, i) => `/api/v10/channels/${channelId(i)}/messages?limit=1`);
    const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };

    const { session: bot, answered, dispatched, callbackErrors } = await openAnsweringBot(api, url, DEMO_BOT_TOKEN);
    sessions.push(bot);

    let errors = 0;
    let unseen = 0;
    const dispatchTimes: number[] = [];
    const flow = (bodies: string[], overGateway: boolean) => async (i: number) => {
      const channel = i % CHANNELS;
      const started = performance.now();
      const invoked = await api.call('POST', '/api/v10/interactions', user, bodies[channel]);
      if (invoked.status !== 200) {
        errors++;
        return;
      }
      const { id } = JSON.parse(invoked.text) as { id: string };
      if (overGateway) {
        // A dispatch that never arrives counts as a failure instead of stalling the run.
        const lost = sleep(DISPATCH_GUARD_MS).then(() => 'lost' as const);
        if ((await Promise.race([answered.wait(id), lost])) === 'lost') {
          errors++;
          return;
        }
        dispatchTimes.push(dispatched.get(id)! - started);
        dispatched.delete(id);
      }
      const read = await api.call('GET', readPaths[channel]!, { authorization: USER_TOKEN });
      const [newest] = JSON.parse(read.text) as { interaction_metadata?: { id: string } }[];
      if (read.status !== 200 || !newest?.interaction_metadata) unseen++;
    };
    const gatewayFlow = flow(gatewayBodies, true);
    const httpFlow = flow(httpBodies, false);

    for (const run of [gatewayFlow, httpFlow]) {
      for (let i = 0; i < WARMUP_FLOWS; i++) await run(i);
      await paced(RATE, WARMUP_PACED_SECONDS, run);
    }
    dispatchTimes.length = 0;
    errors = 0;
    unseen = 0;
    callbackErrors.clear();
    const overGateway = await paced(RATE, PACED_SECONDS, gatewayFlow);
    const overHttp = await paced(RATE, PACED_SECONDS, httpFlow);
    const failed = `${errors} failed invocations, ${unseen} unreadable answers, failed callbacks by status ${JSON.stringify(Object.fromEntries(callbackErrors))}`;
    if (errors + unseen > RATE * PACED_SECONDS * 0.01) throw new Error(`(a) failed: ${failed}`);
    const gatewayP50 = percentile(sorted(overGateway.times), 50);
    const gatewayP99 = percentile(sorted(overGateway.times), 99);
    const httpP50 = percentile(sorted(overHttp.times), 50);
    const httpP99 = percentile(sorted(overHttp.times), 99);
    lines.push(
      `(a) invoke → INTERACTION_CREATE → callback → GET messages?limit=1 over the gateway, ${RATE} flows/s for ${PACED_SECONDS} s (open loop): ${latency(overGateway.times)} (goal p99 < 10 ms); invoke → INTERACTION_CREATE alone ${latency(dispatchTimes)}; load generator lag max ${fixed(overGateway.maxLagMs)} ms; ${failed}`,
      `(a') the same flow over HTTP delivery (discord-interactions app answering inline), same slashd, same rate: ${latency(overHttp.times)}; gateway/HTTP ratio p50 ${fixed(gatewayP50 / httpP50)}, p99 ${fixed(gatewayP99 / httpP99)}`,
    );

    // (d) fan-out: FANOUT sessions of one app, one permissions PUT, time until the last has it.
    const fanoutCommand = await createCommand(api, FANOUT_APP_ID, FANOUT_BOT_TOKEN);
    let round: { expected: number; received: number[]; done: () => void } | null = null;
    const opened = performance.now();
    const fanout = await openSessions(FANOUT, OPEN_IN_FLIGHT, () => ({
      url,
      token: FANOUT_BOT_TOKEN,
      intents: 0,
      zlib: false,
      heartbeat: true,
      onDispatch: (payload, at) => {
        if (payload.t !== 'APPLICATION_COMMAND_PERMISSIONS_UPDATE' || !round) return;
        round.received.push(at);
        if (round.received.length === round.expected) round.done();
      },
    }));
    const openMs = performance.now() - opened;
    sessions.push(...fanout);
    const lasts: number[] = [];
    const firsts: number[] = [];
    const puts: number[] = [];
    for (let r = 0; r < FANOUT_ROUNDS; r++) {
      const all = new Promise<void>((done) => {
        round = { expected: FANOUT, received: [], done };
      });
      const started = performance.now();
      const put = await api.call(
        'PUT',
        `/api/v10/applications/${FANOUT_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${fanoutCommand.id}/permissions`,
        { authorization: `Bearer ${FANOUT_PERM_TOKEN}`, 'content-type': 'application/json' },
        JSON.stringify({ permissions: [{ id: ALICE_ID, type: 2, permission: r % 2 === 0 }] }),
      );
      if (put.status !== 200) throw new Error(`permissions PUT: ${put.status} ${put.text}`);
      puts.push(performance.now() - started);
      const guard = sleep(30_000).then(() => 'timeout' as const);
      if ((await Promise.race([all, guard])) === 'timeout') {
        throw new Error(`(d) only ${round!.received.length}/${FANOUT} sessions received the update within 30 s`);
      }
      const received = round!.received;
      firsts.push(received[0]! - started);
      lasts.push(received[received.length - 1]! - started);
    }
    round = null;
    lines.push(
      `(d) one APPLICATION_COMMAND_PERMISSIONS_UPDATE to ${FANOUT} sessions of one app, ${FANOUT_ROUNDS} rounds: PUT → last session has it ${latency(lasts)}; PUT → first ${latency(firsts)}; the PUT's own response ${latency(puts)}; opening the ${FANOUT} sessions took ${fixed(openMs / 1000)} s`,
    );
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    api.close();
    await app?.stop();
    await slashd.stop();
  }
}

/** The baseline of (b)/(c): a bare `ws` server doing HELLO, READY and ACKs, optionally zlib-stream. */
export async function startBareGateway(heartbeatInterval: number): Promise<MeasuredServer> {
  const script = `
    require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      if (line.trim() !== 'memory') return;
      global.gc(); global.gc();
      const usage = process.memoryUsage();
      console.log('memory ' + usage.rss + ' ' + (usage.heapUsed + usage.external));
    });
    const { WebSocketServer } = require('ws');
    const zlib = require('node:zlib');
    const interval = ${heartbeatInterval};
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    let sessions = 0;
    wss.on('connection', (ws, req) => {
      const deflate = /compress=zlib-stream/.test(req.url) ? zlib.createDeflate() : null;
      const send = (payload) => {
        const text = JSON.stringify(payload);
        if (!deflate) return ws.send(text);
        deflate.write(text);
        const chunks = [];
        const onData = (c) => chunks.push(c);
        deflate.on('data', onData);
        deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => { deflate.off('data', onData); ws.send(Buffer.concat(chunks)); });
      };
      let seq = 0;
      send({ op: 10, d: { heartbeat_interval: interval }, s: null, t: null });
      ws.on('message', (data) => {
        const payload = JSON.parse(data.toString());
        if (payload.op === 1) send({ op: 11, d: null, s: null, t: null });
        else if (payload.op === 2) send({ op: 0, s: ++seq, t: 'READY', d: { v: 10, session_id: 'bare-' + (++sessions) } });
      });
      ws.on('close', () => deflate && deflate.close());
    });
    wss.on('listening', () => console.log('listening on ws://127.0.0.1:' + wss.address().port));
    process.on('SIGTERM', () => { for (const c of wss.clients) c.terminate(); wss.close(() => process.exit(0)); });
  `;
  return startMeasured(['-e', script]);
}

export interface IdleResult {
  perSessionBytes: number;
  heapPerSessionBytes: number;
  acks: number[];
  expectedAcks: number;
  interval: number;
  openSeconds: number;
}

/** N idle sessions against one server: RSS per session, and the ACKs of one heartbeat interval. */
export async function idleSessions(
  server: MeasuredServer,
  url: string,
  count: number,
  zlib: boolean,
  token: (i: number) => string,
): Promise<IdleResult> {
  // One session first, so that the server's gateway code is loaded and HELLO tells the interval.
  const probe = await openSession({ url, token: token(0), intents: 0, zlib, heartbeat: false });
  const heartbeatInterval = probe.heartbeatInterval;
  await probe.close();
  let acks: number[] = [];
  const sessionOptions = (i: number): SessionOptions => ({
    url,
    token: token(i),
    intents: 0,
    zlib,
    heartbeat: true,
    onAck: (ms) => acks.push(ms),
  });
  const before = await server.memory();
  const opened = performance.now();
  const sessions = await openSessions(count, OPEN_IN_FLIGHT, sessionOptions);
  const openSeconds = (performance.now() - opened) / 1000;
  try {
    // Every session beats once per interval: the window sees each of them once.
    acks = [];
    const window = Math.min(heartbeatInterval, WINDOW_CAP_MS);
    await sleep(window);
    const after = await server.memory();
    const closed = sessions.filter((s) => s.closedWith() !== null).length;
    if (closed > 0) throw new Error(`${closed} of ${count} idle sessions were closed by the server`);
    return {
      perSessionBytes: (after.rss - before.rss) / count,
      heapPerSessionBytes: (after.heap - before.heap) / count,
      acks,
      expectedAcks: Math.floor((count * window) / heartbeatInterval),
      interval: heartbeatInterval,
      openSeconds,
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** (b) or (c): slashd, then the bare ws server, each holding `count` idle sessions. */
export async function idleComparison(
  lines: string[],
  label: string,
  count: number,
  zlib: boolean,
): Promise<{ ours: IdleResult; theirs: IdleResult }> {
  const slashd = await startMeasuredSlashd(idleWorld(count));
  let ours: IdleResult;
  try {
    const api = client(slashd.url);
    const url = await gatewayUrl(api);
    api.close();
    ours = await idleSessions(slashd, url, count, zlib, idleToken);
  } finally {
    await slashd.stop();
  }
  const bare = await startBareGateway(ours.interval);
  let theirs: IdleResult;
  try {
    theirs = await idleSessions(bare, bare.url, count, zlib, () => 'bare');
  } finally {
    await bare.stop();
  }
  lines.push(
    `${label} ${count} idle sessions${zlib ? ' with compress=zlib-stream' : ''}, heartbeat interval ${ours.interval} ms: slashd ${kib(ours.perSessionBytes)} RSS per session, a bare ws server holding the same sockets${zlib ? ' (zlib default sizes)' : ''} ${kib(theirs.perSessionBytes)}: ratio ${fixed(ours.perSessionBytes / theirs.perSessionBytes)} (goal ≤ 1.5); JS heap + external per session ${kib(ours.heapPerSessionBytes)} against ${kib(theirs.heapPerSessionBytes)}: ratio ${fixed(ours.heapPerSessionBytes / theirs.heapPerSessionBytes)}; heartbeat ACK over one interval (${ours.acks.length}/${ours.expectedAcks} beats) ${latency(ours.acks)} (goal p99 < 50 ms), bare ${latency(theirs.acks)}; opening took ${fixed(ours.openSeconds)} s (bare ${fixed(theirs.openSeconds)} s)`,
  );
  return { ours, theirs };
}

/** Which parts run: GATEWAY_BENCH_PARTS, e.g. "ad" or "bc"; all by default. */
const PARTS = process.env.GATEWAY_BENCH_PARTS ?? 'abcd';

export async function runGatewayBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const [load1] = loadavg();
  lines.push(`machine: ${cpus().length} CPUs, load average ${fixed(load1 ?? NaN)} when the gateway bench started`);
  if (PARTS.includes('a') || PARTS.includes('d')) await flowsAndFanout(lines);
  if (PARTS.includes('b')) await idleComparison(lines, '(b)', SESSIONS, false);
  if (PARTS.includes('c')) await idleComparison(lines, '(c)', ZLIB_SESSIONS, true);
  return { lines };
}
