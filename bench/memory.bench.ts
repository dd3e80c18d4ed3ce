/**
 * A large world (default 1,000 guilds of 300 members, 100,000 users, one app with 50 commands),
 * each figure against a baseline measured in the same run:
 * (a) RSS after a picker sweep (every guild, three locales) with the read caches capped
 *     (`--cache-mb`, default 8) vs effectively uncapped (4096): each a fresh process on the same
 *     stored world (the import's garbage is not counted);
 * (b) one user written through the admin API (`PATCH /admin/users/{id}`) vs a GET of the command
 *     list, alternating, p50 and p99;
 * (c) a restart on the stored world (no `--world`) vs a start on an empty database; and the first
 *     start, which imports the world file.
 * Sizes: SCALE_GUILDS, SCALE_USERS, SCALE_MEMBERS, SCALE_CAP_MB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { World } from '../src/core/world/types.js';
import { slashCommands, benchApplication } from './fixtures.js';
import { REPO_ROOT } from './processes.js';
import { fixed, percentile } from './stats.js';

const GUILDS = Number(process.env.SCALE_GUILDS ?? 1000);
const USERS = Number(process.env.SCALE_USERS ?? 100_000);
const MEMBERS = Number(process.env.SCALE_MEMBERS ?? 300);
const CAP_MB = Number(process.env.SCALE_CAP_MB ?? 8);
/** "Uncapped": far above what the world can fill. */
const UNCAPPED_MB = 4096;
const LOCALES = ['en-US', 'fr', 'de'];
const WRITES = 300;
const APP_ID = '1100000000000000001';
const BOT = 'Bot scale-bot-token';
const ADMIN = 'Bearer bench';

const userId = (i: number) => `${1200000000000000000n + BigInt(i)}`;
const guildId = (g: number) => `${1300000000000000000n + BigInt(g)}`;
const channelId = (g: number) => `${1400000000000000000n + BigInt(g)}`;

function scaleWorld(): World {
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: userId(i),
    username: `user${i}`,
    token: `user-token-${i}`,
    locale: 'en-US',
    age_verified: false,
  }));
  const guilds = Array.from({ length: GUILDS }, (_, g) => ({
    id: guildId(g),
    name: `guild ${g}`,
    owner_id: userId(0),
    preferred_locale: 'en-US',
    roles: [{ id: guildId(g), name: '@everyone', permissions: '2147486720' }],
    channels: [{ id: channelId(g), type: 0, name: 'general', nsfw: false, parent_id: null, permission_overwrites: [] }],
    // Members spread over the users, each guild a different slice (its owner first).
    members: Array.from({ length: MEMBERS }, (_, m) => ({
      user_id: userId(m === 0 ? 0 : (g * MEMBERS + m) % USERS),
      roles: [],
      nick: null,
      joined_at: '2026-01-01T00:00:00.000Z',
    })).filter((member, index, all) => all.findIndex((other) => other.user_id === member.user_id) === index),
    installs: [{ application_id: APP_ID, scopes: ['bot', 'applications.commands'], permissions: '2048' }],
    messages: [],
  }));
  return {
    applications: [benchApplication(APP_ID, 'Scale App', userId(0), 'scale-bot-token')],
    users,
    guilds,
    oauth2_tokens: [],
  };
}

interface Started {
  url: string;
  child: ChildProcess;
  /** From spawn to the "listening" line. */
  startMs: number;
  stop(): Promise<void>;
}

async function serve(args: string[]): Promise<Started> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['bin/slashd.js', 'serve', '--port', '0', '--rate-limits', 'off', '--admin-token', 'bench', ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${buffered}`)));
  });
  const startMs = performance.now() - started;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, child, startMs, stop };
}

/** Resident and peak resident memory of a process, in MiB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function call(url: string, init: RequestInit = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status}`);
  return performance.now() - started;
}

/** Every guild's picker, in each locale, as a member of that guild. */
async function pickerSweep(server: Started, world: World): Promise<void> {
  for (const locale of LOCALES) {
    for (const [g, guild] of world.guilds.entries()) {
      const member = guild.members[1 + (g % (guild.members.length - 1))]!;
      const token = `user-token-${Number(BigInt(member.user_id) - 1200000000000000000n)}`;
      await call(`${server.url}/api/v10/channels/${channelId(g)}/application-command-index`, {
        headers: { authorization: token, 'x-discord-locale': locale },
      });
    }
  }
}

export async function runMemoryBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'slashd-scale-'));
  const db = join(dir, 'scale.sqlite');
  const world = scaleWorld();
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(world));
  lines.push(`world: ${GUILDS} guilds × ${MEMBERS} members, ${USERS} users, 50 commands in 3 locales`);
  const servers: Started[] = [];
  try {
    // The first start imports the world file; the app deploys its commands.
    const importing = await serve(['--db', db, '--world', worldPath]);
    servers.push(importing);
    const commands = slashCommands(50).map((command) => ({
      ...command,
      name_localizations: { fr: `${String(command.name)}-fr`, de: `${String(command.name)}-de` },
    }));
    await call(`${importing.url}/api/v10/applications/${APP_ID}/commands`, {
      method: 'PUT',
      headers: { authorization: BOT, 'content-type': 'application/json' },
      body: JSON.stringify(commands),
    });
    await importing.stop();
    servers.pop();

    // (c) restart on the stored world, vs a start on an empty database.
    const empty = await serve(['--db', join(dir, 'empty.sqlite')]);
    await empty.stop();
    const capped = await serve(['--db', db, '--cache-mb', String(CAP_MB)]);
    servers.push(capped);

    // (a) capped
    const cappedBefore = memoryOf(capped.child.pid!);
    await pickerSweep(capped, world);
    const cappedMemory = memoryOf(capped.child.pid!);

    // (b) a user write vs a list GET, alternating.
    const writes: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const id = userId((i * 7919) % USERS);
      writes.push(
        await call(`${capped.url}/admin/users/${id}`, {
          method: 'PATCH',
          headers: { authorization: ADMIN, 'content-type': 'application/json' },
          body: JSON.stringify({ username: `renamed${i}` }),
        }),
      );
      reads.push(
        await call(`${capped.url}/api/v10/applications/${APP_ID}/commands`, { headers: { authorization: BOT } }),
      );
    }
    writes.sort((a, b) => a - b);
    reads.sort((a, b) => a - b);
    await capped.stop();
    servers.pop();

    // (a) uncapped, same database and sweep.
    const uncapped = await serve(['--db', db, '--cache-mb', String(UNCAPPED_MB)]);
    servers.push(uncapped);
    const uncappedBefore = memoryOf(uncapped.child.pid!);
    await pickerSweep(uncapped, world);
    const uncappedMemory = memoryOf(uncapped.child.pid!);

    const cappedGrowth = cappedMemory.rss - cappedBefore.rss;
    const uncappedGrowth = uncappedMemory.rss - uncappedBefore.rss;
    lines.push(
      `(a) RSS after the picker sweep: capped at ${CAP_MB} MiB ${fixed(cappedMemory.rss, 0)} MiB (+${fixed(cappedGrowth, 0)} over the sweep, peak ${fixed(cappedMemory.peak, 0)}), ` +
        `uncapped ${fixed(uncappedMemory.rss, 0)} MiB (+${fixed(uncappedGrowth, 0)}, peak ${fixed(uncappedMemory.peak, 0)}): ` +
        `ratio ${fixed(cappedMemory.rss / uncappedMemory.rss)}, growth ratio ${fixed(cappedGrowth / uncappedGrowth)}`,
    );
    lines.push(
      `(b) user write (PATCH /admin/users/{id}) p50 ${fixed(percentile(writes, 50))} ms, p99 ${fixed(percentile(writes, 99))} ms; ` +
        `list GET p50 ${fixed(percentile(reads, 50))} ms, p99 ${fixed(percentile(reads, 99))} ms: ` +
        `ratio p50 ${fixed(percentile(writes, 50) / percentile(reads, 50))}`,
    );
    lines.push(
      `(c) restart on the stored world ${fixed(capped.startMs, 0)} ms vs empty database ${fixed(empty.startMs, 0)} ms: ` +
        `ratio ${fixed(capped.startMs / empty.startMs)}; first start importing the world file ${fixed(importing.startMs, 0)} ms`,
    );
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { lines };
}
