/**
 * (d) of the profiles bench (issue 27, cache misses): a world of many guilds, each with several
 * apps installed and each app's guild commands deployed there, and bots listing a random app's
 * commands in a random guild (or its global list), so that the lists read are spread over the
 * whole world. Profiled at the default cache size, and with a cache far too small for the world
 * (every list read is a miss), against a bare node:http server serving one list's bytes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Guild, World } from '../src/core/world/types.js';
import { application } from '../test/store-contract/fixtures.js';
import { sharesOf, topFunctions } from './cpu-profile.js';
import { slashCommands } from './fixtures.js';
import { startBareServer, startSlashdWith, type ChildServer } from './processes.js';
import { fixed } from './stats.js';
import { guildId, guild as worldChangesGuild, user } from './world-changes.bench.js';

/** The world's size: guilds, apps installed in each, guild commands of each app in each guild. */
const GUILDS = Number(process.env.PROFILE_MISS_GUILDS ?? 1_000);
const APPS = Number(process.env.PROFILE_MISS_APPS ?? 5);
const GUILD_COMMANDS = Number(process.env.PROFILE_MISS_COMMANDS ?? 10);
const CONNECTIONS = 32;
const SECONDS = Number(process.env.PROFILE_MISS_SECONDS ?? 8);
const TOP = 12;
/** Deploys (and reads warming the cache) in flight at once. */
const IN_FLIGHT = 8;
/** A cache far smaller than the world's lists: every list read misses. */
const TINY_CACHE_MB = '1';
/** The costs issue 27 named for cache misses. */
const NAMED = ['rowToCommand', 'readCommandRows', 'deepFreeze', 'isDeeplyFrozen', 'getGuild', 'stringify', 'parse'];

const appId = (a: number) => `${1500000000000000000n + BigInt(a)}`;
const botToken = (a: number) => `miss-bot-${a}`;

/** world-changes.bench.ts's guild, with every app installed and only the owners among the users. */
function guild(g: number): Guild {
  return {
    ...worldChangesGuild(g),
    members: [],
    installs: Array.from({ length: APPS }, (_, a) => ({
      application_id: appId(a),
      scopes: ['bot', 'applications.commands'],
      permissions: '2048',
    })),
  };
}

function world(): World {
  return {
    applications: Array.from({ length: APPS }, (_, a) => application(appId(a), botToken(a))),
    users: [user(0), user(1)],
    guilds: Array.from({ length: GUILDS }, (_, g) => guild(g)),
    oauth2_tokens: [],
  };
}

const listPath = (a: number, g: number | null) =>
  g === null
    ? `/api/v10/applications/${appId(a)}/commands`
    : `/api/v10/applications/${appId(a)}/guilds/${guildId(g)}/commands`;

/** `visit` for every app's global list and its guild list in every guild, a few at a time. */
async function forEachList(visit: (a: number, g: number | null) => Promise<void>): Promise<void> {
  const jobs: Array<[number, number | null]> = [];
  for (let a = 0; a < APPS; a++) {
    jobs.push([a, null]);
    for (let g = 0; g < GUILDS; g++) jobs.push([a, g]);
  }
  const worker = async () => {
    for (let job = jobs.pop(); job; job = jobs.pop()) await visit(...job);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function deployAll(server: ChildServer): Promise<void> {
  await forEachList(async (a, g) => {
    const put = await fetch(`${server.url}${listPath(a, g)}`, {
      method: 'PUT',
      headers: { authorization: `Bot ${botToken(a)}`, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(GUILD_COMMANDS, g === null ? 'global' : `guild-${g}`)),
    });
    if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
  });
}

/** Every list read once: a cache the working set fits is then warm (a few thousand requests in the profile). */
async function readAll(server: ChildServer): Promise<void> {
  await forEachList(async (a, g) => {
    const list = await fetch(`${server.url}${listPath(a, g)}`, { headers: { authorization: `Bot ${botToken(a)}` } });
    if (!list.ok) throw new Error(`list failed: ${list.status} ${await list.text()}`);
    await list.arrayBuffer();
  });
}

/** One list in ten is the app's global list, the rest a random guild's. */
function randomList(): { path: string; headers: Record<string, string> } {
  const a = Math.floor(Math.random() * APPS);
  const g = Math.random() < 0.1 ? null : Math.floor(Math.random() * GUILDS);
  return { path: listPath(a, g), headers: { authorization: `Bot ${botToken(a)}` } };
}

async function randomLoad(server: ChildServer): Promise<{ rate: number; statuses: string }> {
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, ...randomList() }) }],
  });
  return { rate: result.requests.average, statuses: JSON.stringify(result.statusCodeStats) };
}

/**
 * A copy of a `.cpuprofile` holding only its last `seconds` of samples: the load, without the
 * start-up and the reads that warmed the cache before it (the server stops right after the load).
 */
export function lastSecondsOf(path: string, seconds: number): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    samples: number[];
    timeDeltas: number[];
    endTime: number;
    startTime: number;
  };
  const from = profile.endTime - seconds * 1e6;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples.forEach((sample, i) => {
    at += profile.timeDeltas[i]!;
    if (at < from) return;
    samples.push(sample);
    timeDeltas.push(profile.timeDeltas[i]!);
  });
  const trimmed = `${path}.last.cpuprofile`;
  writeFileSync(trimmed, JSON.stringify({ ...profile, samples, timeDeltas, startTime: from }));
  return trimmed;
}

/** The server on the world's database file (deployed before), profiled. */
async function profiledRun(
  db: string,
  label: string,
  args: readonly string[],
  bareRate: number,
  lines: string[],
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-profile-'));
  const slashd = await startSlashdWith(['--db', db, '--admin-token', 'bench', ...args], () => {}, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
  ]);
  try {
    await readAll(slashd);
    const measured = await randomLoad(slashd);
    await slashd.stop();
    const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile');
    const profile = lastSecondsOf(join(dir, file), SECONDS);
    const { busySamples, functions } = topFunctions(profile, TOP);
    const named = sharesOf(profile, NAMED);
    lines.push(
      `(d) ${label}: ${fixed(measured.rate, 0)} req/s, ratio to bare ${fixed(measured.rate / bareRate)}; statuses ${measured.statuses}; ${busySamples} busy samples`,
      ...functions.map((entry) => `    ${fixed(entry.share * 100, 1)} %  ${entry.name}`),
      `    named (inclusive): ${[...named].map(([key, share]) => `${key} ${fixed(share * 100, 1)} %`).join(', ')}`,
    );
  } finally {
    await slashd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** (d): the random list over the world, at the default cache size and with a tiny one. */
export async function cacheMissLists(lines: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bench-'));
  const db = join(dir, 'bench.sqlite');
  try {
    // The world and its commands are written once, unprofiled; the profiled servers open the file.
    const worldPath = join(dir, 'world.json');
    writeFileSync(worldPath, JSON.stringify(world()));
    const setup = await startSlashdWith(['--db', db, '--world', worldPath, '--admin-token', 'bench']);
    let body: string;
    try {
      await deployAll(setup);
      const first = await fetch(`${setup.url}${listPath(0, 0)}`, { headers: { authorization: `Bot ${botToken(0)}` } });
      body = await first.text();
    } finally {
      await setup.stop();
    }
    const bare = await startBareServer(body);
    let bareRate: number;
    try {
      bareRate = (await autocannon({ url: `${bare.url}/`, connections: CONNECTIONS, duration: SECONDS })).requests
        .average;
    } finally {
      await bare.stop();
    }
    lines.push(
      `(d) ${GUILDS} guilds x ${APPS} apps x ${GUILD_COMMANDS} guild commands, a random app's list in a random guild (1 in 10 its global list), ${CONNECTIONS} connections, ${SECONDS} s: bare node:http, one list's ${body.length} bytes: ${fixed(bareRate, 0)} req/s`,
    );
    await profiledRun(db, 'default cache size', [], bareRate, lines);
    await profiledRun(
      db,
      `--cache-mb ${TINY_CACHE_MB} (every list read misses)`,
      ['--cache-mb', TINY_CACHE_MB],
      bareRate,
      lines,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
