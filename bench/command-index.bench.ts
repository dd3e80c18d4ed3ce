/**
 * The command picker (`GET /channels/{c}/application-command-index`) as the world grows (issue 27:
 * "command index p50 ≤ 3× bare, flat across sizes"): sequential picker opens by members drawn
 * over a whole guild (so nearly every open is a member not seen before), in (a) a small world (one
 * guild of SMALL members) and (b) a large one (GUILDS guilds, one of them of LARGE members), each
 * against its own bare node:http server serving the same bytes, measured in the same run.
 * The app has 100 commands (INDEX_BENCH_COMMANDS); each command has role overwrites (members share ROLE_SETS role sets)
 * and user overwrites naming a few members, so the answer depends on the role set and, for those
 * few, on the member.
 * Sizes: INDEX_BENCH_SMALL, INDEX_BENCH_GUILDS, INDEX_BENCH_LARGE, INDEX_BENCH_REQUESTS, INDEX_BENCH_COMMANDS.
 * Exported for the growth bench: the world (`commandIndexWorld`), its deploy, its picker URL and
 * member tokens, and `pickerAgainstBare`.
 */
import { loadavg } from 'node:os';
import type { Guild, World } from '../src/core/world/types.js';
import { benchApplication, benchUsers, slashCommands } from './fixtures.js';
import { cpuMs, startBareServer, startSlashd, type ChildServer } from './processes.js';
import { fixed, percentile } from './stats.js';

const SMALL = Number(process.env.INDEX_BENCH_SMALL ?? 100);
const GUILDS = Number(process.env.INDEX_BENCH_GUILDS ?? 1000);
const LARGE = Number(process.env.INDEX_BENCH_LARGE ?? 100_000);
const REQUESTS = Number(process.env.INDEX_BENCH_REQUESTS ?? 2000);
const WARM_UP_REQUESTS = 100;
const COMMANDS = Number(process.env.INDEX_BENCH_COMMANDS ?? 100);
/** Distinct role sets among the members: each command allows some and denies others. */
const ROLE_SETS = 8;
/** Members named by user overwrites (allowed a command their role set is denied). */
const NAMED_MEMBERS = 4;
/** Members of each guild of the large world but the large one. */
const MEMBERS_PER_OTHER_GUILD = 3;

const APP_ID = '1400000000000000001';
const BOT_TOKEN = 'index-bench-bot-token';
const OWNER_PERMISSIONS_TOKEN = 'index-bench-owner-permissions';
/** USE_APPLICATION_COMMANDS, VIEW_CHANNEL, SEND_MESSAGES and READ_MESSAGE_HISTORY for @everyone. */
const EVERYONE_BITS = '2147552256';

const userId = (i: number) => `${1410000000000000000n + BigInt(i)}`;
const userToken = (i: number) => `index-bench-user-${i}`;
const guildId = (g: number) => `${1420000000000000000n + BigInt(g) * 1000n}`;
const channelOf = (guild: string) => `${BigInt(guild) + 1n}`;
const roleOf = (guild: string, set: number) => `${BigInt(guild) + 10n + BigInt(set)}`;

function benchGuild(id: string, members: number): Guild {
  return {
    id,
    name: `guild of ${members}`,
    owner_id: userId(0),
    preferred_locale: 'en-US',
    roles: [
      ...Array.from({ length: ROLE_SETS }, (_, set) => ({ id: roleOf(id, set), name: `set-${set}`, permissions: '0' })),
      { id, name: '@everyone', permissions: EVERYONE_BITS },
    ],
    channels: [
      { id: channelOf(id), type: 0, name: 'general', nsfw: false, parent_id: null, permission_overwrites: [] },
    ],
    members: Array.from({ length: members }, (_, m) => ({
      user_id: userId(m),
      roles: m === 0 ? [] : [roleOf(id, m % ROLE_SETS)],
      nick: null,
      joined_at: '2026-01-01T00:00:00.000Z',
    })),
    installs: [{ application_id: APP_ID, scopes: ['bot', 'applications.commands'], permissions: '2048' }],
    messages: [],
  };
}

/** A world of `guilds` guilds, the first of `members` members, the others of a few. */
export function commandIndexWorld(guilds: number, members: number): World {
  return {
    applications: [benchApplication(APP_ID, 'Index App', userId(0), BOT_TOKEN)],
    users: benchUsers(members, userId, userToken),
    guilds: Array.from({ length: guilds }, (_, g) =>
      benchGuild(guildId(g), g === 0 ? members : Math.min(members, MEMBERS_PER_OTHER_GUILD)),
    ),
    oauth2_tokens: [
      {
        access_token: OWNER_PERMISSIONS_TOKEN,
        user_id: userId(0),
        application_id: APP_ID,
        scopes: ['identify', 'applications.commands.permissions.update'],
      },
    ],
  };
}

/** Command `n`'s overwrites in `guild`: two role sets denied, the others allowed, a named member allowed. */
function overwritesOf(guild: string, n: number): { id: string; type: number; permission: boolean }[] {
  return [
    ...Array.from({ length: ROLE_SETS }, (_, set) => ({
      id: roleOf(guild, set),
      type: 1,
      permission: set !== n % ROLE_SETS && set !== (n + 3) % ROLE_SETS,
    })),
    { id: userId(1 + (n % NAMED_MEMBERS)), type: 2, permission: true },
  ];
}

async function ok(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** The app's 100 commands, and their overwrites in the measured guild (the first). */
export async function deployPickerCommands(server: ChildServer): Promise<void> {
  const api = `${server.url}/api/v10/applications/${APP_ID}`;
  const deployed = (await ok(
    await fetch(`${api}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(COMMANDS)),
    }),
    'deploy',
  )) as { id: string }[];
  const guild = guildId(0);
  for (const [n, command] of deployed.entries()) {
    await ok(
      await fetch(`${api}/guilds/${guild}/commands/${command.id}/permissions`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${OWNER_PERMISSIONS_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: overwritesOf(guild, n) }),
      }),
      `permissions of command ${n}`,
    );
  }
}

async function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${body}`);
  return { ms: performance.now() - started, body };
}

/** p50 and p99 of sequential latencies, in ms; the server's CPU time per answer, in µs (null without /proc). */
export interface Latencies {
  p50: number;
  p99: number;
  cpuPerAnswer: number | null;
}

/** Sequential GETs of `url`, the i-th with `headersOf(i)`, timed; CPU per answer of the process `pid`. */
async function timedGets(
  url: string,
  headersOf: (i: number) => Record<string, string>,
  count: number,
  pid: number | undefined,
): Promise<{ times: number[]; cpuMs: number | null }> {
  const before = cpuMs(pid);
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push((await timedGet(url, headersOf(i))).ms);
  const after = cpuMs(pid);
  return { times, cpuMs: before === null || after === null ? null : after - before };
}

function latenciesOf(times: number[], cpu: number | null): Latencies {
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cpuPerAnswer: cpu === null ? null : (cpu * 1000) / times.length,
  };
}

/**
 * `requests` sequential picker opens of `indexUrl` (served by the process `serverPid`), the i-th
 * by the member whose token is `tokenOf(i)`, then as many GETs of a bare node:http server serving
 * the first answer's bytes: each side's p50, p99 and CPU per answer, and the p50 ratio.
 */
export async function pickerAgainstBare(
  indexUrl: string,
  serverPid: number | undefined,
  tokenOf: (i: number) => string,
  requests: number,
): Promise<{ picker: Latencies; bare: Latencies; ratio: number; bytes: number }> {
  const sample = await timedGet(indexUrl, { authorization: tokenOf(0) });
  const bare = await startBareServer(sample.body);
  try {
    for (let i = 0; i < WARM_UP_REQUESTS; i++) {
      await timedGet(indexUrl, { authorization: tokenOf(i) });
      await timedGet(bare.url, {});
    }
    const pickerTimes: number[] = [];
    const bareTimes: number[] = [];
    let pickerCpu: number | null = 0;
    let bareCpu: number | null = 0;
    const half = Math.floor(requests / 2);
    // Alternating halves, so that drift on a shared machine hits both.
    for (let n = 0; n < 2; n++) {
      const first = WARM_UP_REQUESTS + n * half;
      const opens = await timedGets(indexUrl, (i) => ({ authorization: tokenOf(first + i) }), half, serverPid);
      const bares = await timedGets(bare.url, () => ({}), half, bare.child.pid);
      pickerTimes.push(...opens.times);
      bareTimes.push(...bares.times);
      pickerCpu = pickerCpu === null || opens.cpuMs === null ? null : pickerCpu + opens.cpuMs;
      bareCpu = bareCpu === null || bares.cpuMs === null ? null : bareCpu + bares.cpuMs;
    }
    const picker = latenciesOf(pickerTimes, pickerCpu);
    const baseline = latenciesOf(bareTimes, bareCpu);
    return { picker, bare: baseline, ratio: picker.p50 / baseline.p50, bytes: sample.body.length };
  } finally {
    await bare.stop();
  }
}

/** The token of the i-th member spread over a guild of `size` (a stride prime to it): nearly every open is a new member. */
export const memberToken = (size: number) => (i: number) => userToken((i * 104729) % size);

/** The picker URL of the measured guild's channel in `commandIndexWorld`, on `server`. */
export function pickerUrlOf(server: ChildServer): string {
  return `${server.url}/api/v10/channels/${channelOf(guildId(0))}/application-command-index`;
}

async function measureWorld(label: string, guilds: number, members: number): Promise<string> {
  const server = await startSlashd(commandIndexWorld(guilds, members));
  try {
    await deployPickerCommands(server);
    const { picker, bare, ratio, bytes } = await pickerAgainstBare(
      pickerUrlOf(server),
      server.child.pid,
      memberToken(members),
      REQUESTS,
    );
    const cpu =
      picker.cpuPerAnswer === null || bare.cpuPerAnswer === null
        ? ''
        : `; server CPU per answer ${fixed(picker.cpuPerAnswer, 0)} µs vs bare ${fixed(bare.cpuPerAnswer, 0)} µs ` +
          `(${fixed(picker.cpuPerAnswer / bare.cpuPerAnswer)}x)`;
    return (
      `${label} (${guilds} guilds, ${members} members in the measured one, ${bytes} bytes): ` +
      `picker p50 ${fixed(picker.p50)} ms, p99 ${fixed(picker.p99)} ms; bare p50 ${fixed(bare.p50)} ms, ` +
      `p99 ${fixed(bare.p99)} ms; p50 ratio ${fixed(ratio)} (goal ≤ 3), p99 ratio ${fixed(picker.p99 / bare.p99)}${cpu}`
    );
  } finally {
    await server.stop();
  }
}

const load = () =>
  loadavg()
    .map((l) => fixed(l))
    .join(' ');

export async function runCommandIndexBench(): Promise<{ lines: string[] }> {
  const lines = [`load average at start: ${load()}; ${REQUESTS} sequential opens per side`];
  lines.push(await measureWorld('(a) small world', 1, SMALL));
  lines.push(await measureWorld('(b) large world', GUILDS, LARGE));
  lines.push(`load average at end: ${load()}`);
  return { lines };
}
