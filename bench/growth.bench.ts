/**
 * Flat cost as the world grows (issue 27): every row of the issue's table, each as slashd against
 * its baseline measured in the same run, for worlds of 100, 1,000 and 10,000 guilds (10k, 100k and
 * 1M users; 5k, 50k and 500k guild commands: bench/growth-world.ts), on SQLite and on PostgreSQL.
 * Per world size and store, the world is built (imported by `serve --world`, its commands deployed
 * through the API), then measured on a `slashd serve` child started afresh with the defaults:
 * 1. `POST /admin/world` adding one user vs `PATCH /admin/users/{id}` (goal ≤ 2), and the reply;
 * 2. a start with `--world` and the same file vs a start without (goal ≤ 1.2);
 * 3. list GET of a random app × guild over the whole world (cache misses once the world outgrows
 *    the default cache) vs bare node:http serving the same bytes (goal ≥ 0.5);
 * 4. the hot list (the 10-command guild list of app 0 in guild 0, goal ≥ 0.7; then the 100-command
 *    global list, goal ≥ 0.8; 32 connections) vs bare;
 * 5. the command index (picker) of a random member in a random guild, p50 and p99 vs bare (goal ≤ 3).
 * Rows 6-10 do not depend on the world size and run once (bench/growth-fixed-rows.ts).
 *
 * Env: GROWTH_GUILDS (default 100,1000,10000), GROWTH_STORES (sqlite,postgres), GROWTH_ROWS (1-10,
 * comma-separated; default all; 0 builds the worlds alone), GROWTH_SECONDS (each load round,
 * default 4), GROWTH_ROUNDS (alternating rounds, default 3), GROWTH_SEQUENTIAL (row 5's requests
 * per side, default 400), GROWTH_WRITES (row 1, default 20), GROWTH_STARTS (row 2, default 3),
 * GROWTH_POLLED_RATE (row 8, default 500/s), GROWTH_SESSIONS (row 10, default 10,000;
 * GATEWAY_BENCH_WINDOW_MS shortens its heartbeat window). `--keep` keeps the PostgreSQL schemas and
 * Redis prefixes (dropped otherwise).
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { atLeast, atMost, attempt, judged, runRow, type Goal } from './goals.js';
import { runFixedRows } from './growth-fixed-rows.js';
import {
  GROWTH_APPS,
  GUILD_COMMANDS_PER_APP,
  HOT_LIST_COMMANDS,
  MEMBERS_PER_GUILD,
  appId,
  botToken,
  channelId,
  deployGrowthCommands,
  growthUser,
  guildId,
  userId,
  userToken,
  writeGrowthWorld,
} from './growth-world.js';
import { client } from './interactions.bench.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { startBareServer, startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile, picker } from './stats.js';
import { alternatingStarts } from './world-changes.bench.js';

function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const GUILD_COUNTS = (process.env.GROWTH_GUILDS ?? '100,1000,10000').split(',').map(Number);
const STORES = (process.env.GROWTH_STORES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
/** In GROWTH_ROWS: build the worlds and report their build, measure nothing. */
const BUILD_ONLY_ROW = 0;
const ROWS = new Set((process.env.GROWTH_ROWS ?? '1,2,3,4,5,6,7,8,9,10').split(',').map(Number));
const SECONDS = intFromEnv('GROWTH_SECONDS', 4);
const ROUNDS = intFromEnv('GROWTH_ROUNDS', 3);
const SEQUENTIAL = intFromEnv('GROWTH_SEQUENTIAL', 400);
const WRITES = intFromEnv('GROWTH_WRITES', 20);
const STARTS = intFromEnv('GROWTH_STARTS', 3);
const SESSIONS = intFromEnv('GROWTH_SESSIONS', 10_000);
const POLLED_RATE = intFromEnv('GROWTH_POLLED_RATE', 500);
/** The hot list's load, as the issue measured it. */
const CONNECTIONS = 32;
/** Requests of one side before the other's, in row 5. */
const SEQUENTIAL_BLOCK = 100;
/**
 * PostgreSQL's statement timeout for the start that imports a world: the default (10 s) is for
 * serving; a first import of a million users on a loaded machine may run a longer statement.
 */
const IMPORT_STATEMENT_TIMEOUT_MS = 600_000;
const ADMIN = { authorization: 'Bearer bench', 'content-type': 'application/json' };

const load = () =>
  loadavg()
    .map((l) => fixed(l))
    .join(' ');
const seconds = (ms: number) => `${fixed(ms / 1000, 1)} s`;

interface Store {
  name: 'sqlite' | 'postgres';
  /** The `--db` arguments of every server of this world. */
  dbArgs: string[];
  /** Arguments of the start that imports the world (not a measured figure). */
  importArgs: string[];
  drop(): Promise<void>;
}

interface Request {
  path: string;
  authorization: string;
}

/** Requests per second over SECONDS at CONNECTIONS connections, each request from `next`. */
async function rate(base: string, next: () => Request): Promise<number> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          const { path, authorization } = next();
          return { ...request, path, headers: { authorization } };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`);
  }
  return result.requests.total / SECONDS;
}

/**
 * Alternating rounds of slashd and a bare server answering `body`, the same requests to each:
 * slashd's rate over bare's, the median of the per-round ratios.
 */
async function againstBare(server: ChildServer, body: string, next: () => Request, goal: Goal): Promise<string> {
  const bare = await startBareServer(body);
  try {
    await rate(server.url, next);
    await rate(bare.url, next);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await rate(server.url, next));
      theirs.push(await rate(bare.url, next));
    }
    const ratios = ours.map((r, i) => r / theirs[i]!);
    return (
      `slashd ${fixed(median(ours), 0)} req/s, bare ${fixed(median(theirs), 0)} req/s, ratio ${judged(median(ratios), goal)} ` +
      `(rounds ${ratios.map((r) => fixed(r)).join(', ')}; ${CONNECTIONS} connections, ${SECONDS} s each, ${body.length} bytes)`
    );
  } finally {
    await bare.stop();
  }
}

async function getText(base: string, path: string, authorization: string): Promise<string> {
  const response = await fetch(`${base}${path}`, { headers: { authorization } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** Row 3: every request a random app's guild list in a random guild, over the whole world. */
async function cacheMissList(server: ChildServer, guilds: number): Promise<string> {
  const pick = picker(0x6e0);
  const list = (a: number, g: number): Request => ({
    path: `/api/v10/applications/${appId(a)}/guilds/${guildId(g)}/commands`,
    authorization: `Bot ${botToken(a)}`,
  });
  const body = await getText(server.url, list(0, 0).path, list(0, 0).authorization);
  const listed = (JSON.parse(body) as unknown[]).length;
  if (listed !== GUILD_COMMANDS_PER_APP) throw new Error(`a guild list of ${listed} commands`);
  const figure = await againstBare(server, body, () => list(pick(GROWTH_APPS), pick(guilds)), atLeast(0.5));
  return `(3) list GET of a random app × guild over all ${GROWTH_APPS * guilds} lists (default cache size): ${figure}`;
}

/**
 * Row 4: one hot list, again and again: the 10-command guild list (app 0 in guild 0, goal
 * ≥ 0.7), then the 100-command global list as before.
 */
async function hotList(server: ChildServer): Promise<string> {
  const guildList: Request = {
    path: `/api/v10/applications/${appId(0)}/guilds/${guildId(0)}/commands`,
    authorization: `Bot ${botToken(0)}`,
  };
  const guildBody = await getText(server.url, guildList.path, guildList.authorization);
  const guildListed = (JSON.parse(guildBody) as unknown[]).length;
  if (guildListed !== GUILD_COMMANDS_PER_APP) throw new Error(`the hot guild list has ${guildListed} commands`);
  const guildFigure = await againstBare(server, guildBody, () => guildList, atLeast(0.7));
  const hot: Request = { path: `/api/v10/applications/${appId(0)}/commands`, authorization: `Bot ${botToken(0)}` };
  const body = await getText(server.url, hot.path, hot.authorization);
  const listed = (JSON.parse(body) as unknown[]).length;
  if (listed !== HOT_LIST_COMMANDS) throw new Error(`the hot list has ${listed} commands`);
  return (
    `(4) hot guild list GET (${GUILD_COMMANDS_PER_APP} commands, ${guildBody.length} bytes, rate limits off): ${guildFigure}\n` +
    `(4b) hot global list GET (${HOT_LIST_COMMANDS} commands, rate limits off): ${await againstBare(server, body, () => hot, atLeast(0.8))}`
  );
}

/** Sequential GETs through one kept-alive connection: each one's time in ms. */
async function sequential(base: string, count: number, next: () => Request): Promise<number[]> {
  const api = client(base);
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const { path, authorization } = next();
      const started = performance.now();
      const reply = await api.call('GET', path, { authorization });
      if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    api.close();
  }
}

/** Row 5: the picker of a random member in a random guild, sequential, blocks alternating with bare. */
async function commandIndex(server: ChildServer, guilds: number): Promise<string> {
  const pick = picker(0x1d5);
  const index = (g: number, m: number): Request => ({
    path: `/api/v10/channels/${channelId(g, 0)}/application-command-index`,
    authorization: userToken(g * MEMBERS_PER_GUILD + m),
  });
  const body = await getText(server.url, index(0, 1).path, index(0, 1).authorization);
  const shown = (JSON.parse(body) as { application_commands: unknown[] }).application_commands.length;
  const expected = HOT_LIST_COMMANDS + GROWTH_APPS * GUILD_COMMANDS_PER_APP;
  if (shown !== expected) throw new Error(`the index shows ${shown} commands, not ${expected}`);
  const bare = await startBareServer(body);
  const random = () => index(pick(guilds), pick(MEMBERS_PER_GUILD));
  try {
    await sequential(server.url, SEQUENTIAL_BLOCK, random);
    await sequential(bare.url, SEQUENTIAL_BLOCK, random);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let done = 0; done < SEQUENTIAL; done += SEQUENTIAL_BLOCK) {
      ours.push(...(await sequential(server.url, SEQUENTIAL_BLOCK, random)));
      theirs.push(...(await sequential(bare.url, SEQUENTIAL_BLOCK, random)));
    }
    ours.sort((a, b) => a - b);
    theirs.sort((a, b) => a - b);
    const [p50, p99] = [percentile(ours, 50), percentile(ours, 99)];
    const [bareP50, bareP99] = [percentile(theirs, 50), percentile(theirs, 99)];
    return (
      `(5) command index of a random member in a random guild (${expected} commands, ${body.length} bytes): ` +
      `p50 ${fixed(p50, 3)} ms vs bare ${fixed(bareP50, 3)} ms, ratio ${judged(p50 / bareP50, atMost(3))}; ` +
      `p99 ${fixed(p99, 3)} ms vs bare ${fixed(bareP99, 3)} ms, ratio ${fixed(p99 / bareP99)} ` +
      `(${ours.length} sequential requests each, blocks of ${SEQUENTIAL_BLOCK} alternating)`
    );
  } finally {
    await bare.stop();
  }
}

/** Row 1: a user added through the world endpoint against a user renamed, alternating. */
async function worldWrite(server: ChildServer, guilds: number): Promise<string> {
  const api = client(server.url);
  const users = guilds * MEMBERS_PER_GUILD;
  const posts: number[] = [];
  const patches: number[] = [];
  const replies: number[] = [];
  let sample = '';
  const timed = async (method: string, path: string, body: unknown, into: number[]) => {
    const started = performance.now();
    const reply = await api.call(method, `/admin${path}`, ADMIN, JSON.stringify(body));
    into.push(performance.now() - started);
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.text;
  };
  try {
    for (let w = 0; w < WRITES; w++) {
      sample = await timed('POST', '/world', { users: [growthUser(users + w, `added${w}`)] }, posts);
      replies.push(Buffer.byteLength(sample));
      await timed('PATCH', `/users/${userId((w * 7919) % users)}`, { username: `renamed${w}` }, patches);
    }
  } finally {
    api.close();
  }
  const [post, patch] = [median(posts), median(patches)];
  return (
    `(1) POST /admin/world adding one user p50 ${fixed(post)} ms vs PATCH /admin/users/{id} p50 ${fixed(patch)} ms: ` +
    `ratio ${judged(post / patch, atMost(2))}; reply ${fixed(median(replies), 0)} bytes: ${sample.slice(0, 200)}` +
    ` (${WRITES} of each, alternating)`
  );
}

/** Row 2: starts with the file imported last against starts without `--world`, alternating. */
async function restarts(store: Store, worldPath: string): Promise<string> {
  const withWorld = [...store.dbArgs, '--world', worldPath, '--admin-token', 'bench'];
  const without = [...store.dbArgs, '--admin-token', 'bench'];
  // Row 1 changed the stored world: the first start brings it back to the file (not measured).
  const { startsWith, startsWithout } = await alternatingStarts(withWorld, without, STARTS);
  const [withMs, withoutMs] = [median(startsWith), median(startsWithout)];
  return (
    `(2) serve --world with the same file ${fixed(withMs, 0)} ms vs a start without --world ${fixed(withoutMs, 0)} ms: ` +
    `ratio ${judged(withMs / withoutMs, atMost(1.2))} (p50 of ${STARTS} starts each, alternating)`
  );
}

/** Peak RSS of a live process (VmHWM), in MB; NaN where /proc is not there. */
function peakRssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

function openStore(name: Store['name'], dir: string, keep: boolean): Store {
  if (name === 'sqlite') {
    const db = join(dir, `growth-${Date.now()}.sqlite`);
    return {
      name,
      dbArgs: ['--db', db],
      importArgs: [],
      drop: async () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      },
    };
  }
  const schema = freshSchemaName('bench_growth');
  return {
    name,
    dbArgs: ['--db', postgresConnectionString, '--db-schema', schema],
    importArgs: ['--db-statement-timeout', String(IMPORT_STATEMENT_TIMEOUT_MS)],
    drop: async () => {
      if (!keep) await dropSchema(schema);
    },
  };
}

/** Imports the world into the store and deploys its commands, in one server: the build's line. */
async function build(guilds: number, store: Store, worldPath: string): Promise<string> {
  const importing = performance.now();
  const server = await startSlashdWith([
    ...store.dbArgs,
    ...store.importArgs,
    '--world',
    worldPath,
    '--admin-token',
    'bench',
  ]);
  try {
    const importMs = performance.now() - importing;
    const deploying = performance.now();
    await deployGrowthCommands(server.url, guilds);
    return (
      `built: world imported (serve --world) in ${seconds(importMs)}, ${guilds * GROWTH_APPS * GUILD_COMMANDS_PER_APP} ` +
      `guild commands (+${HOT_LIST_COMMANDS} global) deployed by bulk overwrites in ${seconds(performance.now() - deploying)}; ` +
      `that server's peak RSS ${fixed(peakRssMb(server.child.pid), 0)} MB`
    );
  } finally {
    await server.stop();
  }
}

/** Builds the world on one store, then rows 1-5 on a server started afresh on it (defaults only). */
async function measureWorld(
  guilds: number,
  store: Store,
  worldPath: string,
  say: (line: string) => void,
): Promise<void> {
  const label = `[${guilds} guilds, ${store.name}] `;
  try {
    say(label + (await build(guilds, store, worldPath)));
    if ([1, 3, 4, 5].some((row) => ROWS.has(row))) {
      const server = await startSlashdWith([...store.dbArgs, '--admin-token', 'bench']);
      try {
        await runRow(ROWS, 3, say, label, () => cacheMissList(server, guilds));
        await runRow(ROWS, 4, say, label, () => hotList(server));
        await runRow(ROWS, 5, say, label, () => commandIndex(server, guilds));
        await runRow(ROWS, 1, say, label, () => worldWrite(server, guilds));
      } finally {
        await server.stop();
      }
    }
    await runRow(ROWS, 2, say, label, () => restarts(store, worldPath));
  } finally {
    await store.drop();
  }
}

export async function runGrowthBench(flags: ReadonlySet<string>): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  // Each figure is also written to stderr as it comes: a 10,000-guild run takes a while.
  const say = (line: string) => {
    lines.push(line);
    console.error(`growth: ${line}`);
  };
  const keep = flags.has('--keep');
  say(`load average at start: ${load()}`);
  if ([6, 7, 8, 9, 10].some((row) => ROWS.has(row))) {
    await runFixedRows(
      { rows: ROWS, rounds: ROUNDS, seconds: SECONDS, sessions: SESSIONS, keep, polledRate: POLLED_RATE },
      say,
    );
  }
  if ([BUILD_ONLY_ROW, 1, 2, 3, 4, 5].some((row) => ROWS.has(row))) {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-growth-'));
    try {
      for (const guilds of GUILD_COUNTS) {
        const worldPath = join(dir, `world-${guilds}.json`);
        const writing = performance.now();
        writeGrowthWorld(worldPath, guilds);
        say(
          `[${guilds} guilds] world file: ${guilds * MEMBERS_PER_GUILD} users, ${GROWTH_APPS} apps installed in every guild, ` +
            `${fixed(statSync(worldPath).size / 1e6, 1)} MB, written in ${seconds(performance.now() - writing)}; load average ${load()}`,
        );
        for (const name of STORES) {
          const label = `[${guilds} guilds, ${name}] `;
          await attempt(say, label, () => measureWorld(guilds, openStore(name, dir, keep), worldPath, say));
        }
        rmSync(worldPath, { force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  say(`load average at end: ${load()}`);
  return { lines };
}
