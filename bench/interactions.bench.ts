/**
 * Interactions benchmark: invoke → signed delivery → inline answer → the message readable by the user.
 *
 * slashd runs as a child process (its CLI, a fresh SQLite file); the app's interactions endpoint
 * runs in another child process, verifies every request with discord-interactions' `verifyKey`
 * and answers inline (type 4). One flow is `POST /interactions` (a user token; slashd checks,
 * signs, delivers, stores the inline answer) followed by `GET /channels/{id}/messages?limit=1`
 * (the user reads the answer). Reported:
 * - p50 / p99 of the flow at a fixed offered rate of 500 flows/s for 10 s (open loop: each flow
 *   starts on its schedule whether or not earlier ones have finished);
 * - the sustained maximum (closed loop, 32 flows in flight): interactions per second;
 * - the share of signing: crypto.sign over the same bytes (timestamp + the delivered body) timed
 *   in-process, divided by the per-interaction time;
 * - the baseline in the same run: a bare node:http server answering the same two requests
 *   (same bodies, same pacing).
 * Flows are spread over 64 text channels so that two flows in flight never share one: the newest
 * message of the channel must then be exactly this interaction's answer, and every flow checks it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { World } from '../src/core/world/types.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID, exampleWorld } from '../test/helpers/world.js';
import { REPO_ROOT, startBareServer, startSlashd } from './processes.js';
import { fixed, percentile } from './stats.js';

const RATE = 500;
const PACED_SECONDS = 10;
const BASELINE_SECONDS = 3;
const WARMUP_FLOWS = 300;
const WARMUP_PACED_SECONDS = 2;
const MAX_SECONDS = 5;
const MAX_IN_FLIGHT = 32;
const SIGN_ITERATIONS = 5000;

export const USER_TOKEN = 'alice-user-token';
export const CHANNELS = 64;
/** The benchmark's text channels, added to the example's Test Guild (ids in a range of their own). */
export const channelId = (i: number): string => (1345183757107203000n + BigInt(i % CHANNELS)).toString();

export function benchWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID);
  if (!guild) throw new Error('the example world has no Test Guild');
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
  return world;
}

interface Reply {
  status: number;
  text: string;
}

/** A keep-alive HTTP client: one pool for the whole run, as a real client keeps its connections. */
export function client(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const origin = new URL(base);
  function call(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: origin.hostname,
          port: origin.port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  return { call, close: () => agent.destroy() };
}

/** The app: discord-interactions' verifyKey on every request, PONG to PING, an inline answer otherwise. */
const APP_SCRIPT = `
  const http = require('node:http');
  const { verifyKey, InteractionType, InteractionResponseType } = require('discord-interactions');
  const publicKey = process.env.APP_PUBLIC_KEY;
  const stats = { interactions: 0, pings: 0, unsigned: 0, rejected: 0, lastBody: '' };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(stats));
      }
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-signature-ed25519'];
      const timestamp = req.headers['x-signature-timestamp'];
      if (!signature || !timestamp) { stats.unsigned++; res.writeHead(401); return res.end('unsigned'); }
      if (!(await verifyKey(raw, signature, timestamp, publicKey))) { stats.rejected++; res.writeHead(401); return res.end('bad signature'); }
      const interaction = JSON.parse(raw.toString('utf8'));
      let answer;
      if (interaction.type === InteractionType.PING) { stats.pings++; answer = { type: InteractionResponseType.PONG }; }
      else {
        stats.interactions++;
        stats.lastBody = raw.toString('utf8');
        answer = { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'pong ' + interaction.id } };
      }
      const body = JSON.stringify(answer);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** An app's interactions endpoint, in a child process. */
export interface BenchApp {
  url: string;
  stop(): Promise<void>;
}

/** The app of `script` (APP_SCRIPT by default) verifying with `publicKey`; `env` adds to its environment. */
export async function startApp(
  publicKey: string,
  script: string = APP_SCRIPT,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  const child: ChildProcess = spawn(process.execPath, ['-e', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, APP_PUBLIC_KEY: publicKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`app exited early (${code}): ${buffered}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
}

/**
 * Starts `flow` RATE times a second for `seconds`, on a fixed schedule (open loop), and returns
 * every flow's duration in ms, in start order, plus how far the scheduler fell behind at worst.
 */
export async function paced(
  rate: number,
  seconds: number,
  flow: (i: number) => Promise<void>,
): Promise<{ times: number[]; maxLagMs: number }> {
  const total = rate * seconds;
  const interval = 1000 / rate;
  const times = new Array<number>(total);
  const running: Promise<void>[] = [];
  let maxLagMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(Math.floor(wait));
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    const started = performance.now();
    running.push(
      flow(i).then(() => {
        times[i] = performance.now() - started;
      }),
    );
  }
  await Promise.all(running);
  return { times, maxLagMs };
}

/** As many flows as `inFlight` workers complete in `seconds`: flows per second. */
export async function closedLoop(
  inFlight: number,
  seconds: number,
  flow: (i: number) => Promise<void>,
): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      // Each worker keeps to its own index (and so its own channel).
      const index = next++;
      while (performance.now() < end) {
        await flow(index);
        done++;
      }
    }),
  );
  return done / ((performance.now() - t0) / 1000);
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function describeLatency(times: number[]): string {
  const all = sorted(times);
  return `p50 ${fixed(percentile(all, 50))} ms, p99 ${fixed(percentile(all, 99))} ms, max ${fixed(all[all.length - 1]!)} ms`;
}

/** Mean µs of crypto.sign (Ed25519) over `bytes`, as slashd signs each delivery. */
function signMicros(bytes: Buffer): number {
  const { privateKey } = generateKeyPairSync('ed25519');
  for (let i = 0; i < 500; i++) sign(null, bytes, privateKey);
  const started = performance.now();
  for (let i = 0; i < SIGN_ITERATIONS; i++) sign(null, bytes, privateKey);
  return ((performance.now() - started) * 1000) / SIGN_ITERATIONS;
}

/**
 * The demo app's interactions endpoint set to the app `start` runs (given slashd's verify key) and
 * a `ping` command created in the Test Guild: the invocation bodies, one per channel, whose text
 * option is `text`.
 */
export async function deployPing(
  api: ReturnType<typeof client>,
  start: (verifyKeyHex: string) => Promise<BenchApp>,
  text = 'hello',
): Promise<{ app: BenchApp; invokeBodies: string[] }> {
  const bot = { authorization: `Bot ${DEMO_BOT_TOKEN}`, 'content-type': 'application/json' };
  const me = await api.call('GET', '/api/v10/applications/@me', bot);
  if (me.status !== 200) throw new Error(`GET /applications/@me: ${me.status} ${me.text}`);
  const verifyKeyHex = (JSON.parse(me.text) as { verify_key: string }).verify_key;
  const app = await start(verifyKeyHex);
  const patched = await api.call(
    'PATCH',
    '/api/v10/applications/@me',
    bot,
    JSON.stringify({ interactions_endpoint_url: `${app.url}/interactions` }),
  );
  if (patched.status !== 200) throw new Error(`endpoint verification failed: ${patched.status} ${patched.text}`);
  const created = await api.call(
    'POST',
    `/api/v10/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`,
    bot,
    JSON.stringify({
      name: 'ping',
      description: 'Ping',
      options: [{ type: 3, name: 'text', description: 'Text', required: true }],
    }),
  );
  if (created.status !== 201) throw new Error(`command create failed: ${created.status} ${created.text}`);
  const command = JSON.parse(created.text) as { id: string; version: string };
  const invokeBodies = Array.from({ length: CHANNELS }, (_, i) =>
    JSON.stringify({
      type: 2,
      application_id: DEMO_APP_ID,
      guild_id: TEST_GUILD_ID,
      channel_id: channelId(i),
      data: {
        id: command.id,
        name: 'ping',
        type: 1,
        version: command.version,
        options: [{ name: 'text', type: 3, value: text }],
      },
    }),
  );
  return { app, invokeBodies };
}

export async function runInteractionsBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const slashd = await startSlashd(benchWorld());
  const api = client(slashd.url);
  let app: BenchApp | null = null;
  try {
    const deployed = await deployPing(api, startApp);
    app = deployed.app;
    const { invokeBodies } = deployed;
    const readPaths = Array.from({ length: CHANNELS }, (_, i) => `/api/v10/channels/${channelId(i)}/messages?limit=1`);
    const user = { authorization: USER_TOKEN, 'content-type': 'application/json' };
    let errors = 0;
    let unseen = 0;

    /** Flows in flight per channel: the newest-message check is exact only for a flow alone in its channel. */
    const inFlight = new Uint16Array(CHANNELS);
    const started = new Uint32Array(CHANNELS);
    let shared = 0;
    /** Flow i runs in channel i mod 64: the newest message there must be this interaction's answer. */
    const flow = async (i: number): Promise<void> => {
      const channel = i % CHANNELS;
      const wasIdle = inFlight[channel] === 0;
      const mine = ++started[channel]!;
      inFlight[channel]!++;
      try {
        const invoked = await api.call('POST', '/api/v10/interactions', user, invokeBodies[channel]);
        if (invoked.status !== 200) {
          errors++;
          return;
        }
        const { id, state } = JSON.parse(invoked.text) as { id: string; state: string };
        if (state !== 'responded') errors++;
        const read = await api.call('GET', readPaths[channel]!, { authorization: USER_TOKEN });
        const [newest] = JSON.parse(read.text) as { interaction_metadata?: { id: string } }[];
        // Alone: no other flow in this channel from this flow's start to its read.
        const alone = wasIdle && started[channel] === mine;
        if (!alone) shared++;
        if (read.status !== 200 || !newest?.interaction_metadata) unseen++;
        else if (alone && newest.interaction_metadata.id !== id) unseen++;
      } finally {
        inFlight[channel]!--;
      }
    };
    const invokeOnly = async (i: number): Promise<void> => {
      const invoked = await api.call('POST', '/api/v10/interactions', user, invokeBodies[i % CHANNELS]);
      if (invoked.status !== 200) errors++;
    };

    // Warm-up: sequential flows, then two seconds at the measured rate (JIT, caches, pools), discarded.
    for (let i = 0; i < WARMUP_FLOWS; i++) await flow(i);
    await paced(RATE, WARMUP_PACED_SECONDS, flow);
    shared = 0;

    // The main figure: 500 flows/s, open loop.
    const run = await paced(RATE, PACED_SECONDS, flow);
    const firstSecond = run.times.slice(0, RATE);
    const lastSecond = run.times.slice(-RATE);

    // Sustained maximum, closed loop: whole flows, then invocations alone.
    const maxFlows = await closedLoop(MAX_IN_FLIGHT, MAX_SECONDS, flow);
    const maxInvocations = await closedLoop(MAX_IN_FLIGHT, MAX_SECONDS, invokeOnly);

    // What the app saw: every delivery signed and verified, and the bytes that were signed.
    const stats = JSON.parse(await fetch(`${app.url}/stats`).then((r) => r.text())) as {
      interactions: number;
      pings: number;
      unsigned: number;
      rejected: number;
      lastBody: string;
    };
    if (errors > 0 || unseen > 0 || stats.unsigned > 0) {
      throw new Error(
        `benchmark run had ${errors} failed invocations, ${unseen} unreadable answers, ${stats.unsigned} unsigned deliveries`,
      );
    }

    // Baseline: a bare node:http server answering the same two requests at the same rate.
    const bare = await startBareServer(JSON.stringify([{ id: '0', content: 'pong' }]));
    const bareClient = client(bare.url);
    let bareRun: { times: number[]; maxLagMs: number };
    try {
      const bareFlow = async (i: number): Promise<void> => {
        await bareClient.call('POST', '/api/v10/interactions', user, invokeBodies[i % CHANNELS]);
        await bareClient.call('GET', readPaths[i % CHANNELS]!, { authorization: USER_TOKEN });
      };
      for (let i = 0; i < WARMUP_FLOWS; i++) await bareFlow(i);
      bareRun = await paced(RATE, BASELINE_SECONDS, bareFlow);
    } finally {
      bareClient.close();
      await bare.stop();
    }

    const timestamp = Math.floor(Date.now() / 1000).toString();
    const signedBytes = Buffer.from(timestamp + stats.lastBody);
    const signUs = signMicros(signedBytes);
    const p50Ms = percentile(sorted(run.times), 50);
    const perInteractionAtMaxUs = 1e6 / maxInvocations;

    lines.push(
      `(a) invoke → signed delivery → inline answer → GET messages?limit=1, ${RATE} flows/s offered for ${PACED_SECONDS} s (open loop, ${run.times.length} flows): ${describeLatency(run.times)} (goal p99 < 10 ms); first second p50 ${fixed(percentile(sorted(firstSecond), 50))} / p99 ${fixed(percentile(sorted(firstSecond), 99))} ms, last second p50 ${fixed(percentile(sorted(lastSecond), 50))} / p99 ${fixed(percentile(sorted(lastSecond), 99))} ms; load generator lag max ${fixed(run.maxLagMs)} ms`,
      `(a') baseline, a bare node:http server answering the same two requests at ${RATE}/s for ${BASELINE_SECONDS} s: ${describeLatency(bareRun.times)}; slashd adds p50 ${fixed(p50Ms - percentile(sorted(bareRun.times), 50))} ms`,
      `(b) sustained maximum (closed loop, ${MAX_IN_FLIGHT} in flight, ${MAX_SECONDS} s each): ${fixed(maxInvocations, 0)} interactions/s (POST /interactions alone, each delivered and answered inline), ${fixed(maxFlows, 0)} whole flows/s (with the read)`,
      `(c) signing: crypto.sign Ed25519 over ${signedBytes.length} bytes (timestamp + the delivered body) ${fixed(signUs, 1)} µs; ${fixed((signUs / (p50Ms * 1000)) * 100, 1)}% of the p50 flow at ${RATE}/s, ${fixed((signUs / perInteractionAtMaxUs) * 100, 1)}% of the time per interaction at the sustained maximum (1 / rate = ${fixed(perInteractionAtMaxUs, 0)} µs)`,
      `(d) the app (discord-interactions verifyKey) verified ${stats.interactions} interactions and ${stats.pings} PING(s); ${stats.rejected} rejected (the deliberately bad verification request), ${stats.unsigned} unsigned; warm-up before measuring: ${WARMUP_FLOWS} sequential flows and ${WARMUP_PACED_SECONDS} s at ${RATE}/s; ${shared} flows shared their channel with another in flight (checked loosely)`,
    );
  } finally {
    api.close();
    await app?.stop();
    await slashd.stop();
  }
  return { lines };
}
