/**
 * A member write in a guild of 1,000 members and in one of 100,000 (issue 25, item 8), under read
 * load, each against the same run: the two guilds live in one world served by one `slashd serve`
 * child process on a fresh SQLite file, the writes alternate between them, and reads of members of
 * both (a bot's `GET /guilds/{g}/members/{u}` and a member's command picker) are sent at a steady
 * rate the whole time. Baseline: the same admin write path for a user who is in no guild.
 * Reported: p50 and p99 of each, the ratio 100k / 1k (goal ≤ 1.2) and p50 (goal ≤ 5 ms).
 * Sizes: MEMBERS_BENCH_SMALL, MEMBERS_BENCH_LARGE, MEMBERS_BENCH_WRITES, MEMBERS_BENCH_READS (per second).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Guild, World } from '../src/core/world/types.js';
import { startSlashdWith, type ChildServer } from './processes.js';
import { fixed, percentile } from './stats.js';
import { benchApplication, benchUsers } from './fixtures.js';

const SMALL = Number(process.env.MEMBERS_BENCH_SMALL ?? 1000);
const LARGE = Number(process.env.MEMBERS_BENCH_LARGE ?? 100_000);
/** Writes per guild, alternating between the two. */
const WRITES = Number(process.env.MEMBERS_BENCH_WRITES ?? 300);
/** Reads sent per second while the writes are measured. */
const READS_PER_SECOND = Number(process.env.MEMBERS_BENCH_READS ?? 200);
const MAX_READS_IN_FLIGHT = 32;
const WARM_UP_WRITES = 20;
const APP_ID = '1100000000000000001';
const BOT = 'Bot members-bot-token';
const ADMIN = 'Bearer bench';
/** Users past the large guild's members: in no guild (the baseline's writes). */
const GUILDLESS = 100;

const userId = (i: number) => `${1200000000000000000n + BigInt(i)}`;
const userToken = (i: number) => `user-token-${i}`;
const SMALL_GUILD = '1300000000000000001';
const LARGE_GUILD = '1300000000000000002';
const channelOf = (guildId: string) => `${BigInt(guildId) + 100000000000000000n}`;

function guildOf(id: string, size: number): Guild {
  return {
    id,
    name: `guild of ${size}`,
    owner_id: userId(0),
    preferred_locale: 'en-US',
    roles: [{ id, name: '@everyone', permissions: '2147486720' }],
    channels: [
      { id: channelOf(id), type: 0, name: 'general', nsfw: false, parent_id: null, permission_overwrites: [] },
    ],
    members: Array.from({ length: size }, (_, m) => ({
      user_id: userId(m),
      roles: [],
      nick: null,
      joined_at: '2026-01-01T00:00:00.000Z',
    })),
    // SEND_MESSAGES and MANAGE_NICKNAMES: the bot renames members (below it: they have no role).
    installs: [
      { application_id: APP_ID, scopes: ['bot', 'applications.commands'], permissions: String(2048 | (1 << 27)) },
    ],
    messages: [],
  };
}

function membersWorld(): World {
  return {
    applications: [benchApplication(APP_ID, 'Members App', userId(0), 'members-bot-token')],
    users: benchUsers(LARGE + GUILDLESS, userId, userToken),
    guilds: [guildOf(SMALL_GUILD, SMALL), guildOf(LARGE_GUILD, LARGE)],
    oauth2_tokens: [],
  };
}

async function call(url: string, init: RequestInit = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status}`);
  return performance.now() - started;
}

function writeMember(server: ChildServer, guildId: string, member: number, nick: string): Promise<number> {
  return call(`${server.url}/admin/guilds/${guildId}/members/${userId(member)}`, {
    method: 'PUT',
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ roles: [], nick, joined_at: '2026-01-01T00:00:00.000Z' }),
  });
}

/** A moderation bot's member write: a nickname, through the v10 route (never the owner, member 0). */
function botWriteMember(server: ChildServer, guildId: string, member: number, nick: string): Promise<number> {
  return call(`${server.url}/api/v10/guilds/${guildId}/members/${userId(member)}`, {
    method: 'PATCH',
    headers: { authorization: BOT, 'content-type': 'application/json', 'x-audit-log-reason': 'bench' },
    body: JSON.stringify({ nick }),
  });
}

function writeGuildlessUser(server: ChildServer, index: number, name: string): Promise<number> {
  return call(`${server.url}/admin/users/${userId(LARGE + (index % GUILDLESS))}`, {
    method: 'PATCH',
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ username: name }),
  });
}

/** The i-th read: a member of either guild read by the bot, or a member's picker there. */
function read(server: ChildServer, i: number): Promise<number> {
  const guildId = i % 2 === 0 ? SMALL_GUILD : LARGE_GUILD;
  const size = guildId === SMALL_GUILD ? SMALL : LARGE;
  const member = (i * 104729) % size;
  if (i % 4 < 2) {
    return call(`${server.url}/api/v10/guilds/${guildId}/members/${userId(member)}`, {
      headers: { authorization: BOT },
    });
  }
  return call(`${server.url}/api/v10/channels/${channelOf(guildId)}/application-command-index`, {
    headers: { authorization: userToken(member) },
  });
}

/**
 * Reads at READS_PER_SECOND, open loop (each sent on time whatever the others' latency, at most
 * MAX_READS_IN_FLIGHT at once), until `stop`: a load that does not follow the writes' pace.
 */
async function readLoad(server: ChildServer, stop: { done: boolean }, latencies: number[]): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let i = 0; !stop.done; i++) {
    const due = started + (i * 1000) / READS_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (inFlight.size >= MAX_READS_IN_FLIGHT) await Promise.race(inFlight);
    const pending: Promise<void> = read(server, i).then((ms) => {
      latencies.push(ms);
      inFlight.delete(pending);
    });
    inFlight.add(pending);
  }
  await Promise.all(inFlight);
}

const summary = (sorted: number[]) =>
  `p50 ${fixed(percentile(sorted, 50))} ms, p99 ${fixed(percentile(sorted, 99))} ms`;

export async function runMembersBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'slashd-members-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(membersWorld()));
  lines.push(
    `world: one guild of ${SMALL} members, one of ${LARGE}, ${LARGE + GUILDLESS} users; ${READS_PER_SECOND} reads/s`,
  );
  const server = await startSlashdWith([
    '--db',
    join(dir, 'members.sqlite'),
    '--world',
    worldPath,
    '--admin-token',
    'bench',
  ]);
  try {
    for (let i = 0; i < WARM_UP_WRITES; i++) {
      await writeMember(server, SMALL_GUILD, i % SMALL, `warm${i}`);
      await writeMember(server, LARGE_GUILD, i % LARGE, `warm${i}`);
      await writeGuildlessUser(server, i, `warm${i}`);
    }
    const stop = { done: false };
    const reads: number[] = [];
    const readers = readLoad(server, stop, reads);
    const small: number[] = [];
    const large: number[] = [];
    const baseline: number[] = [];
    const botSmall: number[] = [];
    const botLarge: number[] = [];
    try {
      for (let i = 0; i < WRITES; i++) {
        // A different member each time, spread over the guild (the large guild's reach its far end).
        small.push(await writeMember(server, SMALL_GUILD, (i * 7919) % SMALL, `nick${i}`));
        large.push(await writeMember(server, LARGE_GUILD, (i * 104729) % LARGE, `nick${i}`));
        baseline.push(await writeGuildlessUser(server, i, `name${i}`));
        botSmall.push(await botWriteMember(server, SMALL_GUILD, 1 + ((i * 7919) % (SMALL - 1)), `bot${i}`));
        botLarge.push(await botWriteMember(server, LARGE_GUILD, 1 + ((i * 104729) % (LARGE - 1)), `bot${i}`));
      }
    } finally {
      stop.done = true;
      await readers;
    }
    for (const list of [small, large, baseline, reads, botSmall, botLarge]) list.sort((a, b) => a - b);
    const ratio = percentile(large, 50) / percentile(small, 50);
    lines.push(`member write (PUT /admin/guilds/{g}/members/{u}), ${SMALL} members: ${summary(small)}`);
    lines.push(`member write, ${LARGE} members: ${summary(large)}`);
    lines.push(`ratio ${LARGE} / ${SMALL}, p50: ${fixed(ratio)} (goal ≤ 1.2)`);
    lines.push(
      `baseline, a guildless user written (PATCH /admin/users/{id}): ${summary(baseline)}; ` +
        `member write / baseline, p50: ${fixed(percentile(small, 50) / percentile(baseline, 50))} (${SMALL}), ` +
        `${fixed(percentile(large, 50) / percentile(baseline, 50))} (${LARGE})`,
    );
    lines.push(
      `member write by the bot (PATCH /api/v10/guilds/{g}/members/{u}), ${SMALL} members: ${summary(botSmall)}`,
    );
    lines.push(`member write by the bot, ${LARGE} members: ${summary(botLarge)}`);
    lines.push(
      `bot writes, ratio ${LARGE} / ${SMALL}, p50: ${fixed(percentile(botLarge, 50) / percentile(botSmall, 50))} (goal ≤ 1.2)`,
    );
    lines.push(`reads meanwhile (${reads.length}): ${summary(reads)}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { lines };
}
