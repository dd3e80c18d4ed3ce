/**
 * Interactions while their users poll (issue 27): invoke → signed HTTP delivery → the app's answer,
 * with each invoking user reading `GET /interactions/{id}` every 5 ms until its interaction is
 * answered, at a fixed offered rate (open loop). The app (a child process, discord-interactions'
 * `verifyKey` on every request) acknowledges with 202 and answers through the callback endpoint,
 * as a bot that defers does: the user sees `pending` until the callback lands. Reported:
 * - (a) the flows that failed (not answered within the 3 s deadline, or any error) and p50 / p99
 *   of the flow, invoke to the read that shows it answered; the reads made and their statuses;
 * - (b) the sustained maximum of invocations answered inline (closed loop) against a bare relay in
 *   the same run: a node:http server that signs the bytes slashd delivered, sends them to the same
 *   app and answers with the app's answer; and the CPU time each server spent per invocation (steadier
 *   than rates on a shared machine);
 * - (c) status reads alone (an answered interaction's, closed loop), against a bare node:http
 *   server answering the same bytes: reads per second and CPU per read.
 * Sizes: `SLASHD_POLLS_RATE` (flows/s, default 500), `SLASHD_POLLS_SECONDS` (default 5),
 * `SLASHD_POLLS_MAX_SECONDS` (each closed loop, default 3).
 *
 * `pollingFlow(options)` runs (a) alone on its own slashd and returns `{ failed, total, p50, p99,
 * polls, statuses, callbacks }`; `sustainedFlow(options)` runs (b) alone and returns `{ slashd,
 * relay, ratio }`: the growth bench imports them.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMs, REPO_ROOT, startBareServer, startSlashd, type ChildServer } from './processes.js';
import { fixed, percentile } from './stats.js';
import {
  benchWorld,
  client,
  closedLoop,
  deployPing,
  paced,
  startApp,
  USER_TOKEN,
  CHANNELS,
  type BenchApp,
} from './interactions.bench.js';

/** Flows offered per second (the trial's 500). */
const DEFAULT_RATE = 500;
/** How long the paced run lasts. */
const DEFAULT_SECONDS = 5;
/** How long each closed loop of the sustained maximum lasts. */
const DEFAULT_MAX_SECONDS = 3;
/** How often a user reads the state of its pending interaction. */
const POLL_EVERY_MS = 5;
/** A flow not answered by then failed: the interaction's own 3 s deadline, plus the last read. */
const FLOW_DEADLINE_MS = 3_500;
/** Flows in flight in the closed loops (slashd's and the relay's alike). */
const MAX_IN_FLIGHT = 32;
/** Flows run once before measuring (JIT, pools, caches). */
const WARMUP_FLOWS = 200;

/**
 * The app: PONG to PING; a command whose text is `callback` gets 202 and then its answer through
 * slashd's callback endpoint; any other an inline answer. A request with `x-bench-relay` comes
 * from the bare relay and is verified with the relay's key.
 */
const APP_SCRIPT = `
  const http = require('node:http');
  const { verifyKey, InteractionType, InteractionResponseType } = require('discord-interactions');
  const keys = { app: process.env.APP_PUBLIC_KEY, relay: process.env.RELAY_PUBLIC_KEY };
  const slashd = new URL(process.env.SLASHD_URL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const stats = { callbacks: {}, rejected: 0, lastInline: '' };
  function callback(interaction) {
    const body = JSON.stringify({ type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'pong ' + interaction.id } });
    const req = http.request({ agent, host: slashd.hostname, port: slashd.port, method: 'POST',
      path: '/api/v10/interactions/' + interaction.id + '/' + interaction.token + '/callback',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      stats.callbacks[res.statusCode] = (stats.callbacks[res.statusCode] || 0) + 1;
      res.resume();
    });
    req.on('error', () => { stats.callbacks.error = (stats.callbacks.error || 0) + 1; });
    req.end(body);
  }
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'GET') { res.writeHead(200); return res.end(JSON.stringify(stats)); }
      const raw = Buffer.concat(chunks);
      const key = req.headers['x-bench-relay'] ? keys.relay : keys.app;
      if (!(await verifyKey(raw, req.headers['x-signature-ed25519'] || '', req.headers['x-signature-timestamp'] || '', key))) {
        stats.rejected++; res.writeHead(401); return res.end('bad signature');
      }
      const interaction = JSON.parse(raw.toString('utf8'));
      if (interaction.type === InteractionType.PING) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ type: InteractionResponseType.PONG }));
      }
      if (interaction.data.options[0].value === 'callback') {
        res.writeHead(202);
        res.end();
        return callback(interaction);
      }
      if (!req.headers['x-bench-relay']) stats.lastInline = raw.toString('utf8');
      const body = JSON.stringify({ type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'pong ' + interaction.id } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/**
 * The bare relay: for each request it gets, signs the interaction slashd delivered last (the same
 * bytes, Ed25519 as slashd signs), sends it to the app and answers with the app's answer.
 */
const RELAY_SCRIPT = `
  const http = require('node:http');
  const { createPrivateKey, sign } = require('node:crypto');
  const key = createPrivateKey(process.env.RELAY_PRIVATE_KEY);
  const body = process.env.RELAY_BODY;
  const app = new URL(process.env.APP_URL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const timestamp = Math.floor(Date.now() / 1000).toString();
      const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
      const out = http.request({ agent, host: app.hostname, port: app.port, method: 'POST', path: '/interactions',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
          'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'x-bench-relay': '1' } }, (answer) => {
        const parts = [];
        answer.on('data', (c) => parts.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(parts);
          res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': text.length });
          res.end(text);
        });
      });
      out.on('error', () => { res.writeHead(502); res.end(); });
      out.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** A key pair for the relay: its private key (PEM) and its public key as verifyKey takes it (hex). */
function relayKeys(): { privatePem: string; publicHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicHex: Buffer.from(jwk.x ?? '', 'base64url').toString('hex'),
  };
}

function startRelay(appUrl: string, privatePem: string, body: string): Promise<BenchApp & { pid: number | undefined }> {
  const child = spawn(process.execPath, ['-e', RELAY_SCRIPT], {
    cwd: REPO_ROOT,
    env: { ...process.env, APP_URL: appUrl, RELAY_PRIVATE_KEY: privatePem, RELAY_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match?.[1]) {
        const url = match[1];
        resolve({
          url,
          pid: child.pid,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`relay exited early (${code}): ${buffered}`)));
  });
}

export interface PollingFlowOptions {
  /** Flows offered per second (default `SLASHD_POLLS_RATE` or 500). */
  rate?: number;
  /** Seconds of the paced run (default `SLASHD_POLLS_SECONDS` or 5). */
  seconds?: number;
  /**
   * More arguments for `slashd serve`; they come last, so `['--db', url, '--db-schema', schema]`
   * puts slashd on PostgreSQL instead of its fresh SQLite file.
   */
  slashdArgs?: readonly string[];
  /** Flags for slashd's node (e.g. `--cpu-prof`). */
  nodeFlags?: readonly string[];
}

export interface PollingFlowResult {
  /** Flows whose interaction was not seen answered within 3.5 s, or that met any error. */
  failed: number;
  total: number;
  /** Of the flows that did not fail, invoke to the read that showed the answer, in ms. */
  p50: number;
  p99: number;
  /** Status reads made, and how many answered each status. */
  polls: number;
  statuses: Record<string, number>;
  /** What the app's callbacks were answered, by status (204 when accepted). */
  callbacks: Record<string, number>;
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

interface Harness {
  slashd: ChildServer;
  api: ReturnType<typeof client>;
  app: BenchApp;
  /** Invocations answered through the callback (0) and inline (1), one body per channel each. */
  bodies: { callback: string[]; inline: string[] };
  relay: { privatePem: string; publicHex: string };
  stop(): Promise<void>;
}

async function harness(options: PollingFlowOptions): Promise<Harness> {
  const slashd = await startSlashd(benchWorld(), options.slashdArgs ?? [], options.nodeFlags ?? []);
  const api = client(slashd.url);
  const relay = relayKeys();
  const start = (verifyKeyHex: string) =>
    startApp(verifyKeyHex, APP_SCRIPT, { RELAY_PUBLIC_KEY: relay.publicHex, SLASHD_URL: slashd.url });
  try {
    const { app, invokeBodies } = await deployPing(api, start, 'callback');
    const inline = invokeBodies.map((body) => body.replace('"value":"callback"', '"value":"inline"'));
    return {
      slashd,
      api,
      app,
      relay,
      bodies: { callback: invokeBodies, inline },
      stop: async () => {
        api.close();
        await app.stop();
        await slashd.stop();
      },
    };
  } catch (error) {
    api.close();
    await slashd.stop();
    throw error;
  }
}

/** The paced run of flows whose users poll: the counts and the latencies. */
async function pollingRun(h: Harness, rate: number, seconds: number): Promise<Omit<PollingFlowResult, 'callbacks'>> {
  const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };
  const read = { authorization: USER_TOKEN };
  const statuses: Record<string, number> = {};
  let polls = 0;
  let failed = 0;
  const answeredIn: number[] = [];
  const flow = async (i: number): Promise<void> => {
    const started = performance.now();
    try {
      const invoked = await h.api.call('POST', '/api/v10/interactions', user, h.bodies.callback[i % CHANNELS]);
      if (invoked.status !== 200) throw new Error(`invoke ${invoked.status}`);
      let { id, state } = JSON.parse(invoked.text) as { id: string; state: string };
      let next = performance.now();
      while (state === 'pending' && performance.now() - started < FLOW_DEADLINE_MS) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        next = performance.now() + POLL_EVERY_MS;
        const status = await h.api.call('GET', `/api/v10/interactions/${id}`, read);
        polls++;
        statuses[status.status] = (statuses[status.status] ?? 0) + 1;
        if (status.status !== 200) break;
        ({ id, state } = JSON.parse(status.text) as { id: string; state: string });
      }
      if (state !== 'responded' && state !== 'deferred') throw new Error(`ended ${state}`);
      answeredIn.push(performance.now() - started);
    } catch {
      failed++;
    }
  };
  await paced(rate, seconds, flow);
  const sorted = answeredIn.sort((a, b) => a - b);
  return {
    failed,
    total: Math.round(rate * seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    polls,
    statuses,
  };
}

/** What the app counted: its callbacks' answers by status, and the last interaction slashd delivered for an inline answer. */
async function appStats(app: BenchApp): Promise<{ callbacks: Record<string, number>; lastInline: string }> {
  return JSON.parse(await fetch(`${app.url}/stats`).then((r) => r.text())) as {
    callbacks: Record<string, number>;
    lastInline: string;
  };
}

/** Warms slashd up with sequential inline invocations, so the measured run starts hot. */
async function warmUp(h: Harness): Promise<void> {
  const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };
  for (let i = 0; i < WARMUP_FLOWS; i++)
    await h.api.call('POST', '/api/v10/interactions', user, h.bodies.inline[i % CHANNELS]);
}

/** (a) alone, on its own slashd: what the growth bench imports. */
export async function pollingFlow(options: PollingFlowOptions = {}): Promise<PollingFlowResult> {
  const rate = options.rate ?? envNumber('SLASHD_POLLS_RATE', DEFAULT_RATE);
  const seconds = options.seconds ?? envNumber('SLASHD_POLLS_SECONDS', DEFAULT_SECONDS);
  const h = await harness(options);
  try {
    await warmUp(h);
    const run = await pollingRun(h, rate, seconds);
    return { ...run, callbacks: (await appStats(h.app)).callbacks };
  } finally {
    await h.stop();
  }
}

/** Invocations answered per second, and the CPU each cost the server (µs; null without /proc). */
interface Sustained {
  slashd: number;
  relay: number;
  slashdCpuUs: number | null;
  relayCpuUs: number | null;
}

/** The CPU time a process used since `before` (ms), per answer, in µs. */
function cpuPerAnswer(pid: number | undefined, before: number | null, answers: number): number | null {
  const after = cpuMs(pid);
  return before === null || after === null || answers === 0 ? null : ((after - before) * 1000) / answers;
}

/** (b): invocations answered inline through slashd, then through the bare relay, closed loop. */
async function sustained(h: Harness, seconds: number): Promise<Sustained> {
  const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };
  let errors = 0;
  let done = 0;
  const slashdCpu = cpuMs(h.slashd.child.pid);
  const viaSlashd = await closedLoop(MAX_IN_FLIGHT, seconds, async (i) => {
    const invoked = await h.api.call('POST', '/api/v10/interactions', user, h.bodies.inline[i % CHANNELS]);
    if (invoked.status !== 200 || !invoked.text.includes('"responded"')) errors++;
    done++;
  });
  const slashdCpuUs = cpuPerAnswer(h.slashd.child.pid, slashdCpu, done);
  const relay = await startRelay(h.app.url, h.relay.privatePem, (await appStats(h.app)).lastInline);
  const relayClient = client(relay.url);
  try {
    done = 0;
    const relayCpu = cpuMs(relay.pid);
    const viaRelay = await closedLoop(MAX_IN_FLIGHT, seconds, async (i) => {
      const answered = await relayClient.call('POST', '/interactions', user, h.bodies.inline[i % CHANNELS]);
      if (answered.status !== 200) errors++;
      done++;
    });
    const relayCpuUs = cpuPerAnswer(relay.pid, relayCpu, done);
    if (errors > 0) throw new Error(`${errors} invocations were not answered`);
    return { slashd: viaSlashd, relay: viaRelay, slashdCpuUs, relayCpuUs };
  } finally {
    relayClient.close();
    await relay.stop();
  }
}

/**
 * (b) alone, on its own slashd: invocations answered inline per second through slashd and through
 * the bare relay, and their ratio; what the growth bench imports for its interactions row.
 */
export async function sustainedFlow(
  options: Omit<PollingFlowOptions, 'rate'> = {},
): Promise<Sustained & { ratio: number }> {
  const seconds = options.seconds ?? envNumber('SLASHD_POLLS_MAX_SECONDS', DEFAULT_MAX_SECONDS);
  const h = await harness(options);
  try {
    await warmUp(h);
    const max = await sustained(h, seconds);
    return { ...max, ratio: max.slashd / max.relay };
  } finally {
    await h.stop();
  }
}

function cpuText(us: number | null): string {
  return us === null ? 'n/a' : `${fixed(us, 0)} µs`;
}

/** Status reads per second and the server CPU each cost, for slashd and for a bare server answering the same bytes. */
export interface StatusReads {
  slashd: number;
  bare: number;
  slashdCpuUs: number | null;
  bareCpuUs: number | null;
}

/**
 * (c) GET /interactions/{id} alone, closed loop: one answered interaction's status read over and
 * over, then a bare node:http server answering its bytes the same way.
 */
async function statusReads(h: Harness, seconds: number): Promise<StatusReads> {
  const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };
  const invoked = await h.api.call('POST', '/api/v10/interactions', user, h.bodies.inline[0]);
  const { id } = JSON.parse(invoked.text) as { id: string };
  const path = `/api/v10/interactions/${id}`;
  const first = await h.api.call('GET', path, { authorization: USER_TOKEN });
  if (first.status !== 200) throw new Error(`status read ${first.status} ${first.text}`);
  const measure = async (server: ChildServer, api: ReturnType<typeof client>) => {
    let done = 0;
    const before = cpuMs(server.child.pid);
    const rate = await closedLoop(MAX_IN_FLIGHT, seconds, async () => {
      await api.call('GET', path, { authorization: USER_TOKEN });
      done++;
    });
    return { rate, cpuUs: cpuPerAnswer(server.child.pid, before, done) };
  };
  const viaSlashd = await measure(h.slashd, h.api);
  const bare = await startBareServer(first.text);
  const bareClient = client(bare.url);
  try {
    const viaBare = await measure(bare, bareClient);
    return { slashd: viaSlashd.rate, bare: viaBare.rate, slashdCpuUs: viaSlashd.cpuUs, bareCpuUs: viaBare.cpuUs };
  } finally {
    bareClient.close();
    await bare.stop();
  }
}

/** The 1, 5 and 15 minute load averages of this shared machine, printed with the figures. */
function loadAverage(): string {
  return `load average ${loadavg()
    .map((v) => fixed(v))
    .join(' ')}`;
}

export async function runInteractionPollsBench(): Promise<{ lines: string[] }> {
  const rate = envNumber('SLASHD_POLLS_RATE', DEFAULT_RATE);
  const seconds = envNumber('SLASHD_POLLS_SECONDS', DEFAULT_SECONDS);
  const maxSeconds = envNumber('SLASHD_POLLS_MAX_SECONDS', DEFAULT_MAX_SECONDS);
  const h = await harness({});
  try {
    await warmUp(h);
    const max = await sustained(h, maxSeconds);
    const run = await pollingRun(h, rate, seconds);
    const callbacks = (await appStats(h.app)).callbacks;
    const reads = await statusReads(h, maxSeconds);
    return {
      lines: [
        `(a) invoke → signed delivery → 202 → the app's callback, each user reading GET /interactions/{id} every ${POLL_EVERY_MS} ms until answered, ${rate} flows/s offered for ${seconds} s (open loop, ${run.total} flows): ${run.failed} failed (goal 0); p50 ${fixed(run.p50)} ms, p99 ${fixed(run.p99)} ms; ${run.polls} reads, statuses ${JSON.stringify(run.statuses)}; the app's callbacks answered ${JSON.stringify(callbacks)}; ${loadAverage()}`,
        `(b) sustained maximum, invocations answered inline (closed loop, ${MAX_IN_FLIGHT} in flight, ${maxSeconds} s each): slashd ${fixed(max.slashd, 0)}/s, bare relay (signs the bytes slashd delivers, sends them to the same app, answers its answer) ${fixed(max.relay, 0)}/s: ratio ${fixed(max.slashd / max.relay)} (goal ≥ 0.7); CPU per invocation: slashd ${cpuText(max.slashdCpuUs)}, relay ${cpuText(max.relayCpuUs)}, ratio ${max.slashdCpuUs && max.relayCpuUs ? fixed(max.relayCpuUs / max.slashdCpuUs) : 'n/a'}; ${loadAverage()}`,
        `(c) GET /interactions/{id} of an answered interaction, closed loop (${MAX_IN_FLIGHT} in flight, ${maxSeconds} s each): slashd ${fixed(reads.slashd, 0)}/s, bare node:http (the same bytes) ${fixed(reads.bare, 0)}/s: ratio ${fixed(reads.slashd / reads.bare)}; CPU per read: slashd ${cpuText(reads.slashdCpuUs)}, bare ${cpuText(reads.bareCpuUs)}; ${loadAverage()}`,
      ],
    };
  } finally {
    await h.stop();
  }
}
