/**
 * World changes proportional to the change (issue 27), at 100 and 1,000 guilds (10k and 100k
 * users, 100 members per guild), each world in one `slashd serve` child on a fresh SQLite file:
 * - `POST /admin/world` adding one new user, against `PATCH /admin/users/{id}` renaming a member
 *   (goal: ratio ≤ 2);
 * - a start with `--world` and the file imported last, against a start without `--world` on the
 *   same database (goal: ratio ≤ 1.2).
 * Both sides of each ratio run alternately in the same run. Reported with the load average, as the
 * machine may be shared. Sizes: WORLD_BENCH_GUILDS (comma-separated), WORLD_BENCH_WRITES, WORLD_BENCH_STARTS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Guild, User, World } from '../src/core/world/types.js';
import { startSlashdWith } from './processes.js';
import { fixed, median } from './stats.js';
import { benchApplication } from './fixtures.js';

const GUILD_COUNTS = (process.env.WORLD_BENCH_GUILDS ?? '100,1000').split(',').map(Number);
const MEMBERS_PER_GUILD = 100;
/** Writes of each kind, alternating. */
const WRITES = Number(process.env.WORLD_BENCH_WRITES ?? 30);
/** Starts of each kind, alternating. */
const STARTS = Number(process.env.WORLD_BENCH_STARTS ?? 3);
const APP_ID = '1100000000000000001';
const ADMIN = 'Bearer bench';

const userId = (i: number) => `${1200000000000000000n + BigInt(i)}`;
export const guildId = (g: number) => `${1300000000000000000n + BigInt(g)}`;

export function user(i: number, username = `user${i}`): User {
  return { id: userId(i), username, token: `user-token-${i}`, locale: 'en-US', age_verified: false };
}

export function guild(g: number): Guild {
  const id = guildId(g);
  return {
    id,
    name: `guild ${g}`,
    owner_id: userId(0),
    preferred_locale: 'en-US',
    roles: [{ id, name: '@everyone', permissions: '2147486720' }],
    channels: [
      {
        id: `${BigInt(id) + 100000000000000000n}`,
        type: 0,
        name: 'general',
        nsfw: false,
        parent_id: null,
        permission_overwrites: [],
      },
    ],
    members: Array.from({ length: MEMBERS_PER_GUILD }, (_, m) => ({
      user_id: userId(g * MEMBERS_PER_GUILD + m),
      roles: [],
      nick: null,
      joined_at: '2026-01-01T00:00:00.000Z',
    })),
    installs: [{ application_id: APP_ID, scopes: ['bot', 'applications.commands'], permissions: '2048' }],
    messages: [],
  };
}

function worldOf(guilds: number): World {
  return {
    applications: [benchApplication(APP_ID, 'World App', userId(0), 'world-bot-token')],
    users: Array.from({ length: guilds * MEMBERS_PER_GUILD }, (_, i) => user(i)),
    guilds: Array.from({ length: guilds }, (_, g) => guild(g)),
    oauth2_tokens: [],
  };
}

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

function adminCall(url: string, method: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}/admin${path}`, {
    method,
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * After writes that changed the stored world: one start with `withWorld` to import the difference
 * (not measured), then `count` starts of each kind, alternating; each start's time to listening, in ms.
 */
export async function alternatingStarts(
  withWorld: readonly string[],
  without: readonly string[],
  count: number,
): Promise<{ startsWith: number[]; startsWithout: number[] }> {
  await (await startSlashdWith([...withWorld])).stop();
  const startsWith: number[] = [];
  const startsWithout: number[] = [];
  for (let s = 0; s < count; s++) {
    for (const [args, into] of [
      [withWorld, startsWith],
      [without, startsWithout],
    ] as const) {
      const started = performance.now();
      const server = await startSlashdWith([...args]);
      into.push(performance.now() - started);
      await server.stop();
    }
  }
  return { startsWith, startsWithout };
}

async function measureSize(guilds: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-world-bench-'));
  try {
    const worldPath = join(dir, 'world.json');
    const db = join(dir, 'bench.sqlite');
    const users = guilds * MEMBERS_PER_GUILD;
    writeFileSync(worldPath, JSON.stringify(worldOf(guilds)));
    const withWorld = ['--db', db, '--world', worldPath, '--admin-token', 'bench'];
    const without = ['--db', db, '--admin-token', 'bench'];
    // The first start imports the world; it is not measured.
    const server = await startSlashdWith(withWorld);
    const posts: number[] = [];
    const patches: number[] = [];
    for (let w = 0; w < WRITES; w++) {
      const added = user(users + w, `added${w}`);
      posts.push(await timed(() => adminCall(server.url, 'POST', '/world', { users: [added] })));
      const member = (w * 7919) % users;
      patches.push(
        await timed(() => adminCall(server.url, 'PATCH', `/users/${userId(member)}`, { username: `renamed${w}` })),
      );
    }
    await server.stop();
    const { startsWith, startsWithout } = await alternatingStarts(withWorld, without, STARTS);
    const post = median(posts);
    const patch = median(patches);
    const startWith = median(startsWith);
    const startWithout = median(startsWithout);
    return [
      `${guilds} guilds, ${users} users: POST /admin/world (one user added) p50 ${fixed(post)} ms, PATCH /admin/users p50 ${fixed(patch)} ms, ratio ${fixed(post / patch)} (goal ≤ 2)`,
      `${guilds} guilds, ${users} users: start with --world (same file) p50 ${fixed(startWith)} ms, without p50 ${fixed(startWithout)} ms, ratio ${fixed(startWith / startWithout)} (goal ≤ 1.2)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runWorldChangesBench(): Promise<{ lines: string[] }> {
  const lines = [
    `load average at start: ${loadavg()
      .map((l) => fixed(l))
      .join(' ')}`,
  ];
  for (const guilds of GUILD_COUNTS) lines.push(...(await measureSize(guilds)));
  lines.push(
    `load average at end: ${loadavg()
      .map((l) => fixed(l))
      .join(' ')}`,
  );
  return { lines };
}
