/**
 * Issue 40's figures in one run: each row is slashd against its baseline measured in the same
 * run, for this build and (with PACE_BEFORE=DIR, a built tree of an earlier commit) the build
 * before, the two alternating with the baseline round by round. Benches that do not flatter:
 * - the server under test and every baseline server are pinned to one core (PACE_SERVER_CPUS,
 *   default 0), this load generator and the apps to the other (PACE_CLIENT_CPUS, default 1);
 * - two ratios per figure: the rate ratio (slashd / baseline) and the CPU ratio (the baseline's CPU
 *   time per request / slashd's, both read from /proc), steadier on a shared machine;
 * - the load average before and after each row;
 * - lists on a 10-command guild list; random lists and the picker over the whole world; first
 *   reads measured cold (both servers restarted before each round); realistic bodies.
 * Rows (PACE_ROWS, comma-separated; default all but `worlds`, which builds the worlds into
 * PACE_WORLDS and measures nothing):
 * - `lists`, per world of PACE_GUILDS guilds (default 100,10000; bench/growth-world.ts): the hot
 *   guild list, random app × guild lists (first reads after a restart, then steady), the picker
 *   (command index) of a random member in a random guild, sequential p50 (goal ≤ 4×);
 * - `interactions`, per world: invoke (a random member, a random guild) → signed HTTP delivery →
 *   inline answer → the user reads the answer (GET messages?limit=1), 32 flows in flight, against
 *   a bare relay that signs the same bytes, delivers them to the same app and answers both requests;
 * - `gateway`: invoke → INTERACTION_CREATE → the bot's callback, against a bare `ws` relay;
 * - `messages`: message create and reaction add (bot token, 32 connections) against bare node:http
 *   answering the same bytes; a 1 MiB upload (sequential p50 and CPU) against a bare server that
 *   stores the body in SQLite;
 * - `postgres`: one PostgreSQL (+Redis) node against one SQLite node, the same guild list;
 * - `profiles`: `--cpu-prof` of the interaction and message-create paths, top functions side by side.
 * PACE_SECONDS (each round, default 3), PACE_ROUNDS (default 3), PACE_WORLDS=DIR keeps built
 * worlds (world-G.json, world-G.sqlite) between runs.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID, exampleWorld } from '../test/helpers/world.js';
import { startBareGatewayRelay } from './bare-relays.js';
import { topFunctions } from './cpu-profile.js';
import { createCommand, flowWorld, gatewayUrl, openAnsweringBot, pingInvocations, CHANNELS } from './gateway.bench.js';
import { atLeast, atMost, attempt, judged, type Goal } from './goals.js';
import {
  GROWTH_APPS,
  GUILD_COMMANDS_PER_APP,
  MEMBERS_PER_GUILD,
  appId,
  botToken,
  channelId,
  deployGrowthCommands,
  guildId,
  userToken,
  writeGrowthWorld,
} from './growth-world.js';
import { client, closedLoop } from './interactions.bench.js';
import { dropRedisPrefix, REDIS_URL } from './nodes.bench.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { cpuMs, REPO_ROOT, startBareServer, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile, picker } from './stats.js';

function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const SECONDS = intFromEnv('PACE_SECONDS', 3);
const ROUNDS = intFromEnv('PACE_ROUNDS', 3);
const GUILD_COUNTS = (process.env.PACE_GUILDS ?? '100,10000').split(',').map(Number);
const ALL_ROWS = ['lists', 'interactions', 'gateway', 'messages', 'postgres', 'profiles'];
const ROWS = new Set((process.env.PACE_ROWS ?? ALL_ROWS.join(',')).split(','));
const SERVER_CPUS = process.env.PACE_SERVER_CPUS ?? '0';
const CLIENT_CPUS = process.env.PACE_CLIENT_CPUS ?? '1';
/** Connections of the autocannon loads, and flows in flight in the closed loops. */
const CONNECTIONS = 32;
/** Sequential picker requests per side and round. */
const PICKER_REQUESTS = 200;
/** Sequential uploads per side and round. */
const UPLOADS = 30;
const MIB = 1024 * 1024;
const ADMIN_TOKEN = 'bench';
/** ATTACH_FILES | ADD_REACTIONS | SEND_MESSAGES | VIEW_CHANNEL | READ_MESSAGE_HISTORY for the demo bot. */
const MESSAGE_PERMISSIONS = ((1n << 15n) | (1n << 6n) | (1n << 11n) | (1n << 10n) | (1n << 16n)).toString();

interface Build {
  name: 'before' | 'after';
  root: string;
}

const BUILDS: Build[] = [
  ...(process.env.PACE_BEFORE ? [{ name: 'before' as const, root: process.env.PACE_BEFORE }] : []),
  { name: 'after', root: REPO_ROOT },
];

let pinning = true;
/** Pins every thread of `pid` to `cpus`; without taskset the run says it is unpinned. */
function pin(pid: number | undefined, cpus: string): void {
  if (pid === undefined || !pinning) return;
  try {
    execFileSync('taskset', ['-a', '-pc', cpus, String(pid)], { stdio: 'ignore' });
  } catch {
    pinning = false;
  }
}

const load = () =>
  loadavg()
    .map((l) => fixed(l))
    .join(' ');

async function startServer(build: Build, args: string[], nodeFlags: string[] = []): Promise<ChildServer> {
  const limits = args.includes('--rate-limits') ? [] : ['--rate-limits', 'off'];
  const server = await startSlashdWith(
    ['--admin-token', ADMIN_TOKEN, ...limits, ...args],
    () => {},
    nodeFlags,
    build.root,
  );
  pin(server.child.pid, SERVER_CPUS);
  return server;
}

async function startBare(body: string): Promise<ChildServer> {
  const bare = await startBareServer(body);
  pin(bare.child.pid, SERVER_CPUS);
  return bare;
}

/** A side of a comparison: where to send the load, and whose CPU to count. */
interface Side {
  url: string;
  pid: number | undefined;
}

interface Round {
  rate: number;
  /** CPU µs per request (null without /proc). */
  cpuUs: number | null;
}

/** One round of `work` against `side`: requests per second and CPU per request. */
async function measure(side: Side, work: (url: string) => Promise<number>): Promise<Round> {
  const cpuBefore = cpuMs(side.pid);
  const started = performance.now();
  const done = await work(side.url);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(side.pid);
  const cpuUs = cpuBefore === null || cpuAfter === null || done === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / done;
  return { rate: done / elapsed, cpuUs };
}

/** Per build: its rounds and the baseline's rounds beside them (the same round index). */
interface Comparison {
  ours: Map<Build['name'], Round[]>;
  bare: Round[];
}

/**
 * ROUNDS rounds after one warm-up of each: every build's side, then the baseline's, in each.
 * `before` (optional) runs at the start of each round (a restart, for cold first reads).
 */
async function compare(
  sides: Map<Build['name'], () => Side>,
  bare: Side,
  work: (url: string) => Promise<number>,
  warm = true,
  before?: () => Promise<void>,
): Promise<Comparison> {
  if (warm) {
    for (const side of sides.values()) await work(side().url);
    await work(bare.url);
  }
  const out: Comparison = { ours: new Map([...sides.keys()].map((name) => [name, []])), bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    await before?.();
    for (const [name, side] of sides) out.ours.get(name)!.push(await measure(side(), work));
    out.bare.push(await measure(bare, work));
  }
  return out;
}

const cpuText = (us: number | null | undefined) => (us === null || us === undefined ? 'n/a' : `${fixed(us, 0)} µs`);

/** "before 1,234/s, rate ratio 0.31 (rounds …), CPU ratio 0.20 (610 µs vs 122 µs); after …: goal". */
function describe(label: string, c: Comparison, goal: Goal, unit = 'req/s', baseline = 'bare'): string {
  const parts = [...c.ours].map(([name, rounds]) => {
    const ratios = rounds.map((r, i) => r.rate / c.bare[i]!.rate);
    const cpuRatios = rounds.flatMap((r, i) => {
      const bareCpu = c.bare[i]!.cpuUs;
      return r.cpuUs === null || bareCpu === null ? [] : [bareCpu / r.cpuUs];
    });
    const rate = median(ratios);
    const ourCpu = median(rounds.flatMap((r) => (r.cpuUs === null ? [] : [r.cpuUs])));
    const bareCpu = median(c.bare.flatMap((r) => (r.cpuUs === null ? [] : [r.cpuUs])));
    const verdict = name === 'after' ? judged(rate, goal) : fixed(rate);
    return (
      `${name} ${fixed(median(rounds.map((r) => r.rate)), 0)} ${unit}, rate ratio ${verdict} ` +
      `(rounds ${ratios.map((r) => fixed(r)).join(', ')}), CPU ratio ${cpuRatios.length ? fixed(median(cpuRatios)) : 'n/a'} ` +
      `(${cpuText(ourCpu)} vs ${cpuText(bareCpu)} a request)`
    );
  });
  return `${label ? `${label}: ` : ''}${baseline} ${fixed(median(c.bare.map((r) => r.rate)), 0)} ${unit}; ${parts.join('; ')}`;
}

interface Request {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Requests completed in SECONDS at CONNECTIONS connections, each from `next`; any non-2xx fails the row. */
function autocannonLoad(next: () => Request): (url: string) => Promise<number> {
  return async (url) => {
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request) => {
            const { method, path, headers, body } = next();
            return { ...request, method: (method ?? 'GET') as 'GET', path, headers, ...(body ? { body } : {}) };
          },
        },
      ],
    });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`);
    }
    return result.requests.total;
  };
}

async function getText(base: string, path: string, authorization: string): Promise<string> {
  const response = await fetch(`${base}${path}`, { headers: { authorization } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

async function sendJson(base: string, method: string, path: string, authorization: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text;
}

// ---------------------------------------------------------------------------------------------
// The app and the bare relay of HTTP delivery.

/** PONG to PING, an inline answer otherwise; verifies slashd's key, or the relay's when it says so. */
const APP_SCRIPT = `
  const http = require('node:http');
  const { verifyKey } = require('discord-interactions');
  const keys = { app: process.env.APP_PUBLIC_KEY, relay: process.env.RELAY_PUBLIC_KEY };
  const stats = { rejected: 0, lastInline: '' };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'GET') { res.writeHead(200); return res.end(JSON.stringify(stats)); }
      const raw = Buffer.concat(chunks);
      const relay = Boolean(req.headers['x-bench-relay']);
      if (!(await verifyKey(raw, req.headers['x-signature-ed25519'] || '', req.headers['x-signature-timestamp'] || '', relay ? keys.relay : keys.app))) {
        stats.rejected++; res.writeHead(401); return res.end('bad signature');
      }
      const interaction = JSON.parse(raw.toString('utf8'));
      if (!relay && interaction.type !== 1) stats.lastInline = raw.toString('utf8');
      const body = JSON.stringify(interaction.type === 1 ? { type: 1 } : { type: 4, data: { content: 'pong ' + interaction.id } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/**
 * The least a relay of HTTP delivery does: POST /api/v10/interactions signs the bytes slashd
 * delivered (RELAY_BODY), sends them to the app and answers the app's answer as slashd answers
 * (RELAY_ANSWER); a GET answers the message the user reads (RELAY_READ).
 */
const RELAY_SCRIPT = `
  const http = require('node:http');
  const { createPrivateKey, sign } = require('node:crypto');
  const key = createPrivateKey(process.env.RELAY_PRIVATE_KEY);
  const body = process.env.RELAY_BODY;
  const answerBytes = Buffer.from(process.env.RELAY_ANSWER);
  const readBytes = Buffer.from(process.env.RELAY_READ);
  const app = new URL(process.env.APP_URL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': readBytes.length });
        return res.end(readBytes);
      }
      const timestamp = Math.floor(Date.now() / 1000).toString();
      const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
      const out = http.request({ agent, host: app.hostname, port: app.port, method: 'POST', path: '/interactions',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
          'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'x-bench-relay': '1' } }, (answer) => {
        const parts = [];
        answer.on('data', (c) => parts.push(c));
        answer.on('end', () => {
          JSON.parse(Buffer.concat(parts).toString('utf8'));
          res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': answerBytes.length });
          res.end(answerBytes);
        });
      });
      out.on('error', () => { res.writeHead(502); res.end(); });
      out.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** A bare server that stores each request's body in a SQLite file and answers the same bytes. */
const STORING_SCRIPT = `
  const http = require('node:http');
  const Database = require('better-sqlite3');
  const db = new Database(process.env.STORE_PATH);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO files (bytes) VALUES (?)');
  const answer = Buffer.from(process.env.STORE_ANSWER);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      insert.run(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface ScriptProcess extends Side {
  stop(): Promise<void>;
}

async function startScript(script: string, env: Record<string, string>, cpus: string): Promise<ScriptProcess> {
  const child = spawn(process.execPath, ['-e', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`script exited early (${code}): ${buffered}`)));
  });
  pin(child.pid, cpus);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, stop };
}

/** Ed25519 keys for the relay: its private key (PEM) and its public key as verifyKey takes it (hex). */
async function relayKeys(): Promise<{ privatePem: string; publicHex: string }> {
  const { generateKeyPairSync } = await import('node:crypto');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicHex: Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex'),
  };
}

/** The app of `server`'s app `a` (its endpoint set and verified): the app process. */
async function endpointApp(server: ChildServer, token: string, relayPublicHex: string): Promise<ScriptProcess> {
  const me = JSON.parse(await getText(server.url, '/api/v10/applications/@me', `Bot ${token}`)) as {
    verify_key: string;
  };
  const app = await startScript(
    APP_SCRIPT,
    { APP_PUBLIC_KEY: me.verify_key, RELAY_PUBLIC_KEY: relayPublicHex },
    CLIENT_CPUS,
  );
  await sendJson(server.url, 'PATCH', '/api/v10/applications/@me', `Bot ${token}`, {
    interactions_endpoint_url: `${app.url}/interactions`,
  });
  return app;
}

// ---------------------------------------------------------------------------------------------
// Worlds.

interface BuiltWorld {
  guilds: number;
  /** The stored world, built by the first build: each build serves a copy of it. */
  sqlite: string;
}

/** The growth world of `guilds` guilds imported and deployed by `build` (kept in PACE_WORLDS when set). */
async function builtWorld(guilds: number, dir: string, build: Build, say: (line: string) => void): Promise<BuiltWorld> {
  const sqlite = join(dir, `world-${guilds}.sqlite`);
  if (existsSync(sqlite)) return { guilds, sqlite };
  const worldPath = join(dir, `world-${guilds}.json`);
  writeGrowthWorld(worldPath, guilds);
  const building = join(dir, `building-${guilds}.sqlite`);
  const started = performance.now();
  const server = await startServer(build, ['--db', building, '--world', worldPath]);
  try {
    await deployGrowthCommands(server.url, guilds);
  } finally {
    await server.stop();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(building + suffix, { force: true });
  copyFileSync(building, sqlite);
  rmSync(building, { force: true });
  rmSync(worldPath, { force: true });
  say(`[${guilds} guilds] world built by ${build.name} in ${fixed((performance.now() - started) / 1000, 0)} s`);
  return { guilds, sqlite };
}

/** A copy of the built world for `build`, removed by `cleanup`. */
function copyOf(world: BuiltWorld, build: Build, dir: string): { path: string; cleanup: () => void } {
  const path = join(dir, `serve-${world.guilds}-${build.name}.sqlite`);
  copyFileSync(world.sqlite, path);
  return {
    path,
    cleanup: () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    },
  };
}

/** A server per build on its own copy of the world; restartable (cold first reads). */
class WorldServers {
  readonly servers = new Map<Build['name'], ChildServer>();
  private readonly copies: { path: string; cleanup: () => void }[] = [];

  constructor(
    private readonly world: BuiltWorld,
    private readonly dir: string,
  ) {}

  async start(): Promise<void> {
    for (const build of BUILDS) {
      const copy = copyOf(this.world, build, this.dir);
      this.copies.push(copy);
      this.servers.set(build.name, await startServer(build, ['--db', copy.path]));
    }
  }

  async restart(): Promise<void> {
    for (const build of BUILDS) {
      const copy = join(this.dir, `serve-${this.world.guilds}-${build.name}.sqlite`);
      await this.servers.get(build.name)?.stop();
      this.servers.set(build.name, await startServer(build, ['--db', copy]));
    }
  }

  sides(): Map<Build['name'], () => Side> {
    return new Map(
      BUILDS.map((b) => [
        b.name,
        () => {
          const server = this.servers.get(b.name)!;
          return { url: server.url, pid: server.child.pid };
        },
      ]),
    );
  }

  async stop(): Promise<void> {
    for (const server of this.servers.values()) await server.stop();
    for (const copy of this.copies) copy.cleanup();
  }
}

const guildList = (a: number, g: number): Request => ({
  path: `/api/v10/applications/${appId(a)}/guilds/${guildId(g)}/commands`,
  headers: { authorization: `Bot ${botToken(a)}` },
});

async function listRows(servers: WorldServers, guilds: number, say: (line: string) => void): Promise<void> {
  const label = `[${guilds} guilds] `;
  const any = [...servers.servers.values()][0]!;
  const hot = guildList(0, 0);
  const hotBody = await getText(any.url, hot.path, hot.headers.authorization!);
  if ((JSON.parse(hotBody) as unknown[]).length !== GUILD_COMMANDS_PER_APP)
    throw new Error('the hot list is not 10 commands');
  await attempt(say, `${label}hot list`, async () => {
    const bare = await startBare(hotBody);
    try {
      const c = await compare(
        servers.sides(),
        { url: bare.url, pid: bare.child.pid },
        autocannonLoad(() => hot),
      );
      say(
        `${label}hot guild list (${GUILD_COMMANDS_PER_APP} commands, ${hotBody.length} bytes, ${CONNECTIONS} connections): ${describe('', c, atLeast(0.7))}`,
      );
    } finally {
      await bare.stop();
    }
  });
  const pick = picker(0x40);
  const random = () => guildList(pick(GROWTH_APPS), pick(guilds));
  await attempt(say, `${label}random lists`, async () => {
    const bare = await startBare(hotBody);
    try {
      const steady = await compare(servers.sides(), { url: bare.url, pid: bare.child.pid }, autocannonLoad(random));
      say(
        `${label}random app × guild list over ${GROWTH_APPS * guilds} lists, steady: ${describe('', steady, atLeast(0.4))}`,
      );
      const cold = await compare(
        servers.sides(),
        { url: bare.url, pid: bare.child.pid },
        autocannonLoad(random),
        false,
        () => servers.restart(),
      );
      say(
        `${label}random app × guild list, first reads (both servers restarted before each round, ${SECONDS} s from the start): ${describe('', cold, atLeast(0.4))}`,
      );
    } finally {
      await bare.stop();
    }
  });
  await attempt(say, `${label}picker`, () => pickerRow(servers, guilds, label, say));
}

/** The picker of a random member in a random guild: sequential p50 of each build against bare's. */
async function pickerRow(
  servers: WorldServers,
  guilds: number,
  label: string,
  say: (line: string) => void,
): Promise<void> {
  const index = (g: number, m: number): Request => ({
    path: `/api/v10/channels/${channelId(g, 0)}/application-command-index`,
    headers: { authorization: userToken(g * MEMBERS_PER_GUILD + m) },
  });
  const any = [...servers.servers.values()][0]!;
  const body = await getText(any.url, index(0, 1).path, index(0, 1).headers.authorization!);
  const bare = await startBare(body);
  const pick = picker(0x1d5);
  const sequential = async (side: Side): Promise<{ times: number[]; cpuUs: number | null }> => {
    const api = client(side.url);
    const times: number[] = [];
    const cpuBefore = cpuMs(side.pid);
    try {
      for (let i = 0; i < PICKER_REQUESTS; i++) {
        const { path, headers } = index(pick(guilds), pick(MEMBERS_PER_GUILD));
        const started = performance.now();
        const reply = await api.call('GET', path, headers);
        if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status}`);
        times.push(performance.now() - started);
      }
    } finally {
      api.close();
    }
    const cpuAfter = cpuMs(side.pid);
    return {
      times,
      cpuUs: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / PICKER_REQUESTS,
    };
  };
  try {
    const bareSide = { url: bare.url, pid: bare.child.pid };
    const ours = new Map(BUILDS.map((b) => [b.name, { times: [] as number[], cpu: [] as number[] }]));
    const theirs = { times: [] as number[], cpu: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, side] of servers.sides()) {
        const r = await sequential(side());
        if (round === 0) continue;
        ours.get(name)!.times.push(...r.times);
        if (r.cpuUs !== null) ours.get(name)!.cpu.push(r.cpuUs);
      }
      const r = await sequential(bareSide);
      if (round === 0) continue;
      theirs.times.push(...r.times);
      if (r.cpuUs !== null) theirs.cpu.push(r.cpuUs);
    }
    const p50 = (times: number[]) =>
      percentile(
        [...times].sort((a, b) => a - b),
        50,
      );
    const bareP50 = p50(theirs.times);
    const parts = [...ours].map(([name, o]) => {
      const ratio = p50(o.times) / bareP50;
      return `${name} p50 ${fixed(p50(o.times), 3)} ms, ratio ${name === 'after' ? judged(ratio, atMost(4)) : fixed(ratio)}, CPU ${cpuText(median(o.cpu))} a request`;
    });
    say(
      `${label}picker of a random member in a random guild (${body.length} bytes), ${PICKER_REQUESTS * ROUNDS} sequential each: ` +
        `bare p50 ${fixed(bareP50, 3)} ms, CPU ${cpuText(median(theirs.cpu))}; ${parts.join('; ')}`,
    );
  } finally {
    await bare.stop();
  }
}

/** Interactions end to end on the growth world: a random member of a random guild invokes app 0's global command. */
async function interactionRow(servers: WorldServers, guilds: number, say: (line: string) => void): Promise<void> {
  const label = `[${guilds} guilds] `;
  const keys = await relayKeys();
  const apps: ScriptProcess[] = [];
  try {
    const bodies = new Map<Build['name'], (g: number) => string>();
    for (const [name, server] of servers.servers) {
      apps.push(await endpointApp(server, botToken(0), keys.publicHex));
      const list = JSON.parse(
        await getText(server.url, `/api/v10/applications/${appId(0)}/commands`, `Bot ${botToken(0)}`),
      ) as {
        id: string;
        name: string;
        version: string;
      }[];
      const command = list[0]!;
      bodies.set(name, (g) =>
        JSON.stringify({
          type: 2,
          application_id: appId(0),
          guild_id: guildId(g),
          channel_id: channelId(g, 0),
          data: {
            id: command.id,
            name: command.name,
            type: 1,
            version: command.version,
            options: [{ name: 'query', type: 3, value: 'hello' }],
          },
        }),
      );
    }
    const pick = picker(0x17);
    let failures = 0;
    const flow = (bodyOf: (g: number) => string) => async (url: string) => {
      const api = client(url);
      let done = 0;
      try {
        await closedLoop(CONNECTIONS, SECONDS, async () => {
          const g = pick(guilds);
          const user = userToken(g * MEMBERS_PER_GUILD + pick(MEMBERS_PER_GUILD));
          const invoked = await api.call(
            'POST',
            '/api/v10/interactions',
            { authorization: user, 'content-type': 'application/json' },
            bodyOf(g),
          );
          if (invoked.status !== 200 || !invoked.text.includes('"responded"')) failures++;
          const read = await api.call('GET', `/api/v10/channels/${channelId(g, 0)}/messages?limit=1`, {
            authorization: user,
          });
          if (read.status !== 200 || !read.text.includes('interaction_metadata')) failures++;
          done++;
        });
      } finally {
        api.close();
      }
      return done;
    };
    // The relay signs what slashd delivered and answers what slashd answered, byte for byte.
    const first = [...servers.servers.values()][0]!;
    const bodyOf = bodies.get([...servers.servers.keys()][0]!)!;
    const sample = client(first.url);
    const invoked = await sample.call(
      'POST',
      '/api/v10/interactions',
      { authorization: userToken(1), 'content-type': 'application/json' },
      bodyOf(0),
    );
    const read = await sample.call('GET', `/api/v10/channels/${channelId(0, 0)}/messages?limit=1`, {
      authorization: userToken(1),
    });
    sample.close();
    const delivered = (JSON.parse(await fetch(`${apps[0]!.url}/stats`).then((r) => r.text())) as { lastInline: string })
      .lastInline;
    const relay = await startScript(
      RELAY_SCRIPT,
      {
        RELAY_PRIVATE_KEY: keys.privatePem,
        RELAY_BODY: delivered,
        RELAY_ANSWER: invoked.text,
        RELAY_READ: read.text,
        APP_URL: apps[0]!.url,
      },
      SERVER_CPUS,
    );
    try {
      const sides = servers.sides();
      const works = new Map([...bodies].map(([name, b]) => [name, flow(b)]));
      // Each build's flow carries its own command; the relay's any.
      const c: Comparison = { ours: new Map([...sides.keys()].map((n) => [n, []])), bare: [] };
      for (const [name, side] of sides) await works.get(name)!(side().url);
      await flow(bodyOf)(relay.url);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, side] of sides) c.ours.get(name)!.push(await measure(side(), works.get(name)!));
        c.bare.push(await measure(relay, flow(bodyOf)));
      }
      say(
        `${label}interaction end to end over HTTP delivery (invoke → signed delivery → inline answer → the user's GET messages?limit=1), ${CONNECTIONS} flows in flight, vs the bare signed relay: ` +
          `${describe('', c, atLeast(0.5), 'flows/s')}; ${failures} failed checks`,
      );
    } finally {
      await relay.stop();
    }
  } finally {
    for (const app of apps) await app.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Small worlds: gateway, messages, PostgreSQL.

function messagesWorld(): ReturnType<typeof flowWorld> {
  const world = flowWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | BigInt(MESSAGE_PERMISSIONS)).toString();
  return world;
}

/** `build` on a fresh SQLite file of `world`, in `dir`. */
async function smallServer(build: Build, world: object, dir: string, extra: string[] = [], nodeFlags: string[] = []) {
  const sub = mkdtempSync(join(dir, `${build.name}-`));
  writeFileSync(join(sub, 'world.json'), JSON.stringify(world));
  return startServer(
    build,
    ['--db', join(sub, 'slashd.sqlite'), '--world', join(sub, 'world.json'), ...extra],
    nodeFlags,
  );
}

async function gatewayRow(dir: string, say: (line: string) => void): Promise<void> {
  const servers = new Map<Build['name'], ChildServer>();
  const stops: (() => Promise<void>)[] = [];
  try {
    const works = new Map<Build['name'], () => Promise<number>>();
    let failures = 0;
    const flowOf =
      (api: ReturnType<typeof client>, bot: Awaited<ReturnType<typeof openAnsweringBot>>, bodies: string[]) =>
      async () => {
        let done = 0;
        await closedLoop(CONNECTIONS, SECONDS, async (i) => {
          const invoked = await api.call(
            'POST',
            '/api/v10/interactions',
            { authorization: 'alice-user-token', 'content-type': 'application/json' },
            bodies[i % CHANNELS],
          );
          if (invoked.status !== 200) {
            failures++;
            return;
          }
          const { id } = JSON.parse(invoked.text) as { id: string };
          const lost = sleep(10_000).then(() => 'lost' as const);
          if ((await Promise.race([bot.answered.wait(id), lost])) === 'lost') failures++;
          bot.dispatched.delete(id);
          done++;
        });
        return done;
      };
    for (const build of BUILDS) {
      const server = await smallServer(build, flowWorld(), dir);
      servers.set(build.name, server);
      const api = client(server.url);
      const bot = await openAnsweringBot(api, await gatewayUrl(api), DEMO_BOT_TOKEN);
      stops.push(async () => {
        await bot.session.close();
        api.close();
        await server.stop();
      });
      const bodies = pingInvocations(DEMO_APP_ID, await createCommand(api, DEMO_APP_ID, DEMO_BOT_TOKEN));
      works.set(build.name, flowOf(api, bot, bodies));
    }
    const relay = await startBareGatewayRelay();
    pin(relay.pid, SERVER_CPUS);
    const relayApi = client(relay.url);
    const relayBot = await openAnsweringBot(relayApi, relay.detail, 'bare');
    stops.push(async () => {
      await relayBot.session.close();
      relayApi.close();
      await relay.stop();
    });
    const relayWork = flowOf(relayApi, relayBot, pingInvocations(DEMO_APP_ID, { id: '1', version: '1' }));
    const c: Comparison = { ours: new Map(BUILDS.map((b) => [b.name, []])), bare: [] };
    for (const work of works.values()) await work();
    await relayWork();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of servers) {
        c.ours.get(name)!.push(await measure({ url: server.url, pid: server.child.pid }, works.get(name)!));
      }
      c.bare.push(await measure({ url: relay.url, pid: relay.pid }, relayWork));
    }
    say(
      `interactions over the gateway (invoke → INTERACTION_CREATE → the bot's callback answered), ${CONNECTIONS} in flight, vs the bare ws relay: ` +
        `${describe('', c, atLeast(0.4), 'flows/s')}; ${failures} failed`,
    );
  } finally {
    for (const stop of stops) await stop();
  }
}

/** Message create, reaction add, a 1 MiB upload. */
async function messageRows(dir: string, say: (line: string) => void): Promise<void> {
  const servers = new Map<Build['name'], ChildServer>();
  try {
    for (const build of BUILDS) servers.set(build.name, await smallServer(build, messagesWorld(), dir));
    const sides = new Map(
      BUILDS.map((b) => [b.name, () => ({ url: servers.get(b.name)!.url, pid: servers.get(b.name)!.child.pid })]),
    );
    const bot = `Bot ${DEMO_BOT_TOKEN}`;
    const any = [...servers.values()][0]!;
    const created = await sendJson(any.url, 'POST', `/api/v10/channels/${GENERAL}/messages`, bot, {
      content: 'hello there, a message of a realistic length',
    });
    let n = 0;
    const create = (): Request => ({
      method: 'POST',
      path: `/api/v10/channels/${GENERAL}/messages`,
      headers: { authorization: bot, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `hello there, a message of a realistic length ${n++}` }),
    });
    await attempt(say, 'message create', async () => {
      const bare = await startBare(created);
      try {
        const c = await compare(sides, { url: bare.url, pid: bare.child.pid }, autocannonLoad(create));
        say(
          `message create (bot, JSON, ${CONNECTIONS} connections), vs bare answering the same bytes: ${describe('', c, atLeast(0.4))}`,
        );
      } finally {
        await bare.stop();
      }
    });
    await attempt(say, 'reaction add', async () => {
      // Each add is a new (message, emoji) pair: 20 emojis on each of the messages made for it.
      const emojis = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗'].map((e) => encodeURIComponent(e));
      const targets = new Map<Build['name'], string[]>();
      for (const [name, server] of servers) {
        const ids: string[] = [];
        const api = client(server.url);
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (ids.length < 2_000) {
              const reply = await api.call(
                'POST',
                `/api/v10/channels/${GENERAL}/messages`,
                { authorization: bot, 'content-type': 'application/json' },
                JSON.stringify({ content: 'react to me' }),
              );
              ids.push((JSON.parse(reply.text) as { id: string }).id);
            }
          }),
        );
        api.close();
        targets.set(name, ids);
      }
      const bare = await startBare('');
      try {
        const counters = new Map<string, number>();
        const add = (url: string) => {
          const name = [...servers].find(([, s]) => s.url === url)?.[0];
          const ids = targets.get(name ?? 'after')!;
          return autocannonLoad(() => {
            const i = counters.get(url) ?? 0;
            counters.set(url, i + 1);
            return {
              method: 'PUT',
              path: `/api/v10/channels/${GENERAL}/messages/${ids[Math.floor(i / emojis.length) % ids.length]}/reactions/${emojis[i % emojis.length]}/@me`,
              headers: { authorization: bot },
            };
          })(url);
        };
        const c = await compare(sides, { url: bare.url, pid: bare.child.pid }, add);
        say(
          `reaction add (a new message × emoji pair each, ${CONNECTIONS} connections), vs bare: ${describe('', c, atLeast(0.4))}`,
        );
      } finally {
        await bare.stop();
      }
    });
    await attempt(say, 'upload', () => uploadRow(servers, dir, say));
  } finally {
    for (const server of servers.values()) await server.stop();
  }
}

async function uploadRow(
  servers: Map<Build['name'], ChildServer>,
  dir: string,
  say: (line: string) => void,
): Promise<void> {
  const file = new Uint8Array(MIB).fill(7);
  const form = () => {
    const body = new FormData();
    body.append('payload_json', JSON.stringify({ content: 'a file', attachments: [{ id: 0, filename: 'data.bin' }] }));
    body.append('files[0]', new Blob([file], { type: 'application/octet-stream' }), 'data.bin');
    return body;
  };
  const bot = `Bot ${DEMO_BOT_TOKEN}`;
  const any = [...servers.values()][0]!;
  const answer = await fetch(`${any.url}/api/v10/channels/${GENERAL}/messages`, {
    method: 'POST',
    headers: { authorization: bot },
    body: form(),
  }).then((r) => r.text());
  const storing = await startScript(
    STORING_SCRIPT,
    { STORE_PATH: join(dir, 'bare-files.sqlite'), STORE_ANSWER: answer },
    SERVER_CPUS,
  );
  try {
    const sequential = async (side: Side, path: string): Promise<{ times: number[]; cpuUs: number | null }> => {
      const times: number[] = [];
      const cpuBefore = cpuMs(side.pid);
      for (let i = 0; i < UPLOADS; i++) {
        const started = performance.now();
        const response = await fetch(`${side.url}${path}`, {
          method: 'POST',
          headers: { authorization: bot },
          body: form(),
        });
        await response.text();
        if (!response.ok) throw new Error(`upload: ${response.status}`);
        times.push(performance.now() - started);
      }
      const cpuAfter = cpuMs(side.pid);
      return {
        times,
        cpuUs: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / UPLOADS,
      };
    };
    const ours = new Map(BUILDS.map((b) => [b.name, { times: [] as number[], cpu: [] as number[] }]));
    const theirs = { times: [] as number[], cpu: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, server] of servers) {
        const r = await sequential({ url: server.url, pid: server.child.pid }, `/api/v10/channels/${GENERAL}/messages`);
        if (round === 0) continue;
        ours.get(name)!.times.push(...r.times);
        if (r.cpuUs !== null) ours.get(name)!.cpu.push(r.cpuUs);
      }
      const r = await sequential(storing, '/');
      if (round === 0) continue;
      theirs.times.push(...r.times);
      if (r.cpuUs !== null) theirs.cpu.push(r.cpuUs);
    }
    const p50 = (times: number[]) =>
      percentile(
        [...times].sort((a, b) => a - b),
        50,
      );
    const parts = [...ours].map(([name, o]) => {
      const ratio = p50(o.times) / p50(theirs.times);
      return `${name} p50 ${fixed(p50(o.times))} ms, ${name === 'after' ? judged(ratio, atMost(2)) : fixed(ratio)}×, CPU ${cpuText(median(o.cpu))} an upload (${fixed(median(o.cpu) / median(theirs.cpu))}× bare's)`;
    });
    say(
      `1 MiB upload (multipart message create, sequential, ${UPLOADS * ROUNDS} each) vs a bare server storing the body in SQLite: ` +
        `bare p50 ${fixed(p50(theirs.times))} ms, CPU ${cpuText(median(theirs.cpu))}; ${parts.join('; ')}`,
    );
  } finally {
    await storing.stop();
  }
}

/** One PostgreSQL (+Redis) node and one SQLite node of each build, the same 10-command guild list. */
async function postgresRow(dir: string, say: (line: string) => void): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  try {
    const bot = `Bot ${DEMO_BOT_TOKEN}`;
    const path = `/api/v10/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    const lines: string[] = [];
    for (const build of BUILDS) {
      const sqlite = await smallServer(build, exampleWorld(), dir);
      stops.push(() => sqlite.stop());
      const schema = freshSchemaName('bench_pace');
      const prefix = `bench-pace-${process.pid}-${build.name}:`;
      const sub = mkdtempSync(join(dir, `pg-${build.name}-`));
      writeFileSync(join(sub, 'world.json'), JSON.stringify(exampleWorld()));
      const pg = await startServer(build, [
        '--db',
        postgresConnectionString,
        '--db-schema',
        schema,
        '--redis',
        REDIS_URL,
        '--redis-prefix',
        prefix,
        '--world',
        join(sub, 'world.json'),
      ]);
      stops.push(async () => {
        await pg.stop();
        await dropSchema(schema);
        await dropRedisPrefix(prefix);
      });
      const list = JSON.stringify(
        Array.from({ length: GUILD_COMMANDS_PER_APP }, (_, i) => ({
          name: `guild-${i}`,
          description: `Guild command ${i}`,
          options: [{ type: 3, name: 'query', description: 'What to look for', required: true }],
        })),
      );
      for (const server of [sqlite, pg]) {
        const response = await fetch(`${server.url}${path}`, {
          method: 'PUT',
          headers: { authorization: bot, 'content-type': 'application/json' },
          body: list,
        });
        if (!response.ok) throw new Error(`deploy: ${response.status} ${await response.text()}`);
      }
      const work = autocannonLoad(() => ({ path, headers: { authorization: bot } }));
      const c = await compare(
        new Map([[build.name, () => ({ url: pg.url, pid: pg.child.pid })]]),
        { url: sqlite.url, pid: sqlite.child.pid },
        work,
      );
      lines.push(describe('', c, atLeast(0.4), 'req/s', 'SQLite node'));
    }
    say(
      `one PostgreSQL (+Redis) node vs one SQLite node of the same build, the 10-command guild list, ${CONNECTIONS} connections: ${lines.join(' | ')}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** The profiled loads, by path: each runs once to warm up, then once measured. */
const PROFILED = {
  interactions: 'the interaction flow (invoke + the read, HTTP delivery answered inline)',
  gateway: "the interaction flow over the gateway (invoke, dispatch, the bot's callback)",
  messages: 'message create (bot, JSON)',
} as const;
type ProfiledPath = keyof typeof PROFILED;

/** The load of `path` on `server` for `seconds`, set up first (an app, a bot session). */
async function profiledLoad(path: ProfiledPath, server: ChildServer): Promise<(seconds: number) => Promise<void>> {
  const api = client(server.url);
  const alice = { authorization: 'alice-user-token', 'content-type': 'application/json' };
  if (path === 'messages') {
    let n = 0;
    return async (seconds) => {
      await closedLoop(CONNECTIONS, seconds, async () => {
        await api.call(
          'POST',
          `/api/v10/channels/${GENERAL}/messages`,
          { authorization: `Bot ${DEMO_BOT_TOKEN}`, 'content-type': 'application/json' },
          JSON.stringify({ content: `hello there, a message of a realistic length ${n++}` }),
        );
      });
    };
  }
  if (path === 'gateway') {
    const bot = await openAnsweringBot(api, await gatewayUrl(api), DEMO_BOT_TOKEN);
    const bodies = pingInvocations(DEMO_APP_ID, await createCommand(api, DEMO_APP_ID, DEMO_BOT_TOKEN));
    return async (seconds) => {
      await closedLoop(CONNECTIONS, seconds, async (i) => {
        const invoked = await api.call('POST', '/api/v10/interactions', alice, bodies[i % CHANNELS]);
        const { id } = JSON.parse(invoked.text) as { id: string };
        await bot.answered.wait(id);
        bot.dispatched.delete(id);
      });
    };
  }
  const keys = await relayKeys();
  const app = await endpointApp(server, 'other-bot-token', keys.publicHex);
  const otherApp = '1324165260902400002';
  const bodies = pingInvocations(otherApp, await createCommand(api, otherApp, 'other-bot-token'));
  server.child.once('exit', () => void app.stop());
  return async (seconds) => {
    await closedLoop(CONNECTIONS, seconds, async (i) => {
      const body = bodies[i % CHANNELS]!;
      await api.call('POST', '/api/v10/interactions', alice, body);
      const channel = (JSON.parse(body) as { channel_id: string }).channel_id;
      await api.call('GET', `/api/v10/channels/${channel}/messages?limit=1`, { authorization: 'alice-user-token' });
    });
  };
}

/**
 * CPU profiles of each build under each path's load (`--cpu-prof`): the top self-time functions
 * of the measured window only (the start-up and the warm-up before it left out), side by side.
 */
async function profileRows(dir: string, say: (line: string) => void): Promise<void> {
  const tops = new Map<string, { busy: number; functions: { name: string; share: number }[] }>();
  const seconds = SECONDS * 2;
  for (const build of BUILDS) {
    for (const path of Object.keys(PROFILED) as ProfiledPath[]) {
      const profiles = mkdtempSync(join(dir, `prof-${build.name}-${path}-`));
      const world = path === 'messages' ? messagesWorld() : flowWorld();
      const server = await smallServer(build, world, dir, [], ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
      let measuredFrom: number;
      try {
        const run = await profiledLoad(path, server);
        await run(SECONDS);
        measuredFrom = performance.now();
        await run(seconds);
      } finally {
        await server.stop();
      }
      // The main thread's profile is the largest (the checkpoint worker writes one too).
      const file = readdirSync(profiles)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort((a, b) => statSync(join(profiles, b)).size - statSync(join(profiles, a)).size)[0];
      if (!file) throw new Error(`no profile written for ${build.name} ${path}`);
      if (process.env.PACE_KEEP_PROFILES) {
        mkdirSync(process.env.PACE_KEEP_PROFILES, { recursive: true });
        copyFileSync(join(profiles, file), join(process.env.PACE_KEEP_PROFILES, `${build.name}-${path}.cpuprofile`));
      }
      const { busySamples, functions } = topFunctions(join(profiles, file), 12, performance.now() - measuredFrom);
      tops.set(`${build.name} ${path}`, { busy: busySamples, functions });
    }
  }
  for (const path of Object.keys(PROFILED) as ProfiledPath[]) {
    say(`profile of ${PROFILED[path]}, ${seconds} s after a warm-up, top self-time functions:`);
    const columns = BUILDS.map((b) => tops.get(`${b.name} ${path}`)!);
    say(`| # | ${BUILDS.map((b, i) => `${b.name} (${columns[i]!.busy} busy samples)`).join(' | ')} |`);
    say(`|---|${BUILDS.map(() => '---').join('|')}|`);
    for (let i = 0; i < 12; i++) {
      const cells = columns.map((c) => {
        const f = c.functions[i];
        return f ? `${fixed(f.share * 100, 1)} % ${f.name}` : '';
      });
      say(`| ${i + 1} | ${cells.join(' | ')} |`);
    }
  }
}

export async function runPaceBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.error(`pace: ${line}`);
  };
  pin(process.pid, CLIENT_CPUS);
  say(
    `builds: ${BUILDS.map((b) => b.name).join(', ')}; servers pinned to CPU ${SERVER_CPUS}, load to CPU ${CLIENT_CPUS}${pinning ? '' : ' (taskset failed: unpinned)'}; ${ROUNDS} rounds of ${SECONDS} s; load average ${load()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'slashd-pace-'));
  const worlds = process.env.PACE_WORLDS ?? join(dir, 'worlds');
  mkdirSync(worlds, { recursive: true });
  try {
    if (ROWS.has('worlds')) {
      // Builds the worlds into PACE_WORLDS and measures nothing: a later run starts on them.
      for (const guilds of GUILD_COUNTS) await builtWorld(guilds, worlds, BUILDS[0]!, say);
    } else if (ROWS.has('lists') || ROWS.has('interactions')) {
      for (const guilds of GUILD_COUNTS) {
        const world = await builtWorld(guilds, worlds, BUILDS[0]!, say);
        const servers = new WorldServers(world, dir);
        try {
          await servers.start();
          if (ROWS.has('interactions'))
            await attempt(say, `[${guilds} guilds] interactions`, () => interactionRow(servers, guilds, say));
          if (ROWS.has('lists')) await attempt(say, `[${guilds} guilds] lists`, () => listRows(servers, guilds, say));
        } finally {
          await servers.stop();
        }
        say(`[${guilds} guilds] load average ${load()}`);
      }
    }
    if (ROWS.has('gateway')) await attempt(say, 'gateway', () => gatewayRow(dir, say));
    if (ROWS.has('messages')) await attempt(say, 'messages', () => messageRows(dir, say));
    if (ROWS.has('postgres')) await attempt(say, 'postgres', () => postgresRow(dir, say));
    if (ROWS.has('profiles')) await attempt(say, 'profiles', () => profileRows(dir, say));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  say(`load average at end: ${load()}`);
  return { lines };
}
