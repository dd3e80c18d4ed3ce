/**
 * Permissions benchmark: the application command index of one channel for a member with 20 roles, in
 * a guild where the app has 100 commands, each with 100 permission overwrites (set through the
 * PUT endpoint with a Bearer token of the guild owner). Reported: p50 and p99 latency of sequential
 * index requests, and the index's throughput as a ratio to the plain list endpoint
 * (GET /applications/{app}/commands with the bot token, the same 100 commands), measured in the
 * same run in alternating rounds so that drift on a shared machine hits both; and, from the same
 * rounds, the server's CPU time per request of each (steadier than req/s when other work shares
 * the cores, as it counts only the server's own work).
 */
import autocannon from 'autocannon';
import type { World } from '../src/core/world/types.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, exampleWorld } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { cpuMs, startSlashd } from './processes.js';
import { fixed, median, percentile } from './stats.js';

const ROUNDS = 5;
const ROUND_SECONDS = 4;
const CONNECTIONS = 10;
const SEQUENTIAL_REQUESTS = 400;
const WARMUP_REQUESTS = 50;

const COMMANDS = 100;
const OVERWRITES_PER_COMMAND = 100;
const MEMBER_ROLES = 20;
const OTHER_ROLES = 40;
const OTHER_MEMBERS = 30;
const OTHER_CHANNELS = 40;
/** Every tenth command denies all of the member's roles: it is evaluated in full and left out. */
const HIDDEN_EVERY = 10;

// Ids of the benchmark guild, in a range of their own (snowflake strings).
const GUILD_ID = '1345183757107300000';
const ALL_CHANNELS = (BigInt(GUILD_ID) - 1n).toString();
const OWNER_ID = '1335036896870500000';
const MEMBER_ID = '1335036896870500001';
const MEMBER_TOKEN = 'bench-member-user-token';
const OWNER_PERMISSIONS_TOKEN = 'bench-owner-permissions-token';
const id = (base: string, offset: number): string => (BigInt(base) + BigInt(offset)).toString();
const roleId = (i: number) => id(GUILD_ID, 1000 + i);
const channelId = (i: number) => id(GUILD_ID, 2000 + i);
const otherUserId = (i: number) => id(OWNER_ID, 100 + i);
const TARGET_CHANNEL = channelId(0);

const EVERYONE_BITS = '2147552256';

/** The example world plus the benchmark guild, its users and the owner's permissions token. */
export function permissionsBenchWorld(): World {
  const world = exampleWorld();
  const roleCount = MEMBER_ROLES + OTHER_ROLES;
  world.users.push(
    { id: OWNER_ID, username: 'bench-owner', token: 'bench-owner-user-token', locale: 'en-US', age_verified: true },
    { id: MEMBER_ID, username: 'bench-member', token: MEMBER_TOKEN, locale: 'fr', age_verified: true },
    ...Array.from({ length: OTHER_MEMBERS }, (_, i) => ({
      id: otherUserId(i),
      username: `bench-user-${i}`,
      token: `bench-user-token-${i}`,
      locale: 'de',
      age_verified: true,
    })),
  );
  world.guilds.push({
    id: GUILD_ID,
    name: 'Benchmark Guild',
    owner_id: OWNER_ID,
    preferred_locale: 'en-US',
    roles: [
      // Listed highest first; each role adds a harmless bit (12 to 21: never ADMINISTRATOR, VIEW_CHANNEL or USE_APPLICATION_COMMANDS).
      ...Array.from({ length: roleCount }, (_, i) => ({
        id: roleId(i),
        name: `role-${i}`,
        permissions: String(1n << BigInt(12 + (i % 10))),
      })),
      { id: GUILD_ID, name: '@everyone', permissions: EVERYONE_BITS },
    ],
    channels: Array.from({ length: OTHER_CHANNELS + 1 }, (_, i) => ({
      id: channelId(i),
      type: 0,
      name: `channel-${i}`,
      nsfw: false,
      parent_id: null,
      // Channel overwrites for some of the member's roles and for the member: the v10 algorithm runs in full.
      permission_overwrites: [
        { id: GUILD_ID, type: 0 as const, allow: '0', deny: '16' },
        { id: roleId(i % MEMBER_ROLES), type: 0 as const, allow: '64', deny: '0' },
        { id: roleId((i + 7) % MEMBER_ROLES), type: 0 as const, allow: '0', deny: '128' },
        { id: MEMBER_ID, type: 1 as const, allow: '256', deny: '0' },
      ],
    })),
    members: [
      { user_id: OWNER_ID, roles: [], nick: null, joined_at: '2025-03-01T00:00:00.000Z' },
      {
        user_id: MEMBER_ID,
        roles: Array.from({ length: MEMBER_ROLES }, (_, i) => roleId(i)),
        nick: null,
        joined_at: '2025-03-02T00:00:00.000Z',
      },
      ...Array.from({ length: OTHER_MEMBERS }, (_, i) => ({
        user_id: otherUserId(i),
        roles: [roleId(MEMBER_ROLES + (i % OTHER_ROLES))],
        nick: null,
        joined_at: '2025-03-03T00:00:00.000Z',
      })),
    ],
    installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: EVERYONE_BITS }],
    messages: [],
  });
  world.oauth2_tokens.push({
    access_token: OWNER_PERMISSIONS_TOKEN,
    user_id: OWNER_ID,
    application_id: DEMO_APP_ID,
    scopes: ['identify', 'applications.commands.permissions.update'],
  });
  return world;
}

/**
 * 100 overwrites of command `n`: 40 channels (39 others, none for the measured channel, and the
 * all-channels constant allowing), 40 roles (the member's 20 and 20 others) and 20 other members.
 * The member's role overwrites allow once, except on every tenth command, where all deny.
 */
export function benchOverwrites(n: number): { id: string; type: number; permission: boolean }[] {
  const hidden = n % HIDDEN_EVERY === 0;
  const overwrites = [
    ...Array.from({ length: 39 }, (_, i) => ({ id: channelId(i + 1), type: 3, permission: (i + n) % 2 === 0 })),
    { id: ALL_CHANNELS, type: 3, permission: true },
    ...Array.from({ length: 20 }, (_, i) => ({ id: roleId(MEMBER_ROLES + i), type: 1, permission: (i + n) % 3 !== 0 })),
    ...Array.from({ length: MEMBER_ROLES }, (_, i) => ({
      id: roleId(i),
      type: 1,
      permission: !hidden && i === n % MEMBER_ROLES,
    })),
    ...Array.from({ length: 20 }, (_, i) => ({ id: otherUserId(i), type: 2, permission: (i + n) % 2 === 1 })),
  ];
  if (overwrites.length !== OVERWRITES_PER_COMMAND)
    throw new Error(`${overwrites.length} overwrites, not ${OVERWRITES_PER_COMMAND}`);
  return overwrites;
}

interface Round {
  rate: number;
  /** The server's CPU time per request, in µs (null without /proc): steadier than req/s on a shared machine. */
  cpuPerRequest: number | null;
}

async function round(serverPid: number | undefined, options: autocannon.Options): Promise<Round> {
  const cpuBefore = cpuMs(serverPid);
  const result = await autocannon({ connections: CONNECTIONS, duration: ROUND_SECONDS, ...options });
  const cpuAfter = cpuMs(serverPid);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`benchmark run had ${result.non2xx} non-2xx responses and ${result.errors} errors`);
  }
  const cpuPerRequest =
    cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { rate: result.requests.average, cpuPerRequest };
}

async function timedGets(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${url}: status ${response.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

async function checkedJson(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return JSON.parse(text);
}

export async function runPermissionsBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const slashd = await startSlashd(permissionsBenchWorld());
  const api = `${slashd.url}/api/v10`;
  const bot = { authorization: `Bot ${DEMO_BOT_TOKEN}` };
  const member = { authorization: MEMBER_TOKEN };
  const listUrl = `${api}/applications/${DEMO_APP_ID}/commands`;
  const indexUrl = `${api}/channels/${TARGET_CHANNEL}/application-command-index`;
  try {
    // 100 global commands, then 100 overwrites on each in the benchmark guild, by the owner.
    const deployed = (await checkedJson(
      await fetch(listUrl, {
        method: 'PUT',
        headers: { ...bot, 'content-type': 'application/json' },
        body: JSON.stringify(slashCommands(COMMANDS)),
      }),
      'deploy',
    )) as { id: string }[];
    for (const [n, command] of deployed.entries()) {
      await checkedJson(
        await fetch(`${api}/applications/${DEMO_APP_ID}/guilds/${GUILD_ID}/commands/${command.id}/permissions`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${OWNER_PERMISSIONS_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ permissions: benchOverwrites(n) }),
        }),
        `permissions of command ${n}`,
      );
    }
    const index = (await checkedJson(await fetch(indexUrl, { headers: member }), 'index')) as {
      application_commands: unknown[];
    };
    const expectedVisible = COMMANDS - Math.ceil(COMMANDS / HIDDEN_EVERY);
    if (index.application_commands.length !== expectedVisible) {
      throw new Error(`the index shows ${index.application_commands.length} commands, expected ${expectedVisible}`);
    }
    const indexBytes = JSON.stringify(index).length;
    const listBytes = (await (await fetch(listUrl, { headers: bot })).text()).length;

    await timedGets(indexUrl, member, WARMUP_REQUESTS);
    await timedGets(listUrl, bot, WARMUP_REQUESTS);
    // Sequential latency, the two endpoints in alternating halves.
    const indexTimes: number[] = [];
    const listTimes: number[] = [];
    for (let half = 0; half < 2; half++) {
      indexTimes.push(...(await timedGets(indexUrl, member, SEQUENTIAL_REQUESTS / 2)));
      listTimes.push(...(await timedGets(listUrl, bot, SEQUENTIAL_REQUESTS / 2)));
    }
    indexTimes.sort((a, b) => a - b);
    listTimes.sort((a, b) => a - b);

    const indexRounds: Round[] = [];
    const listRounds: Round[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      indexRounds.push(await round(slashd.child.pid, { url: indexUrl, headers: member }));
      listRounds.push(await round(slashd.child.pid, { url: listUrl, headers: bot }));
    }
    const indexRate = median(indexRounds.map((r) => r.rate));
    const listRate = median(listRounds.map((r) => r.rate));
    const roundRatios = indexRounds.map((r, n) => fixed(r.rate / listRounds[n]!.rate)).join(', ');
    lines.push(
      `(a) command index of one channel, member with ${MEMBER_ROLES} roles, ${COMMANDS} commands x ${OVERWRITES_PER_COMMAND} overwrites (${expectedVisible} shown, ${indexBytes} bytes): p50 ${fixed(percentile(indexTimes, 50))} ms, p99 ${fixed(percentile(indexTimes, 99))} ms (${SEQUENTIAL_REQUESTS} sequential requests)`,
      `    plain list endpoint, same ${COMMANDS} commands (${listBytes} bytes): p50 ${fixed(percentile(listTimes, 50))} ms, p99 ${fixed(percentile(listTimes, 99))} ms; ratio p50 ${fixed(percentile(indexTimes, 50) / percentile(listTimes, 50))}`,
      `(b) throughput: index ${fixed(indexRate, 0)} req/s, list ${fixed(listRate, 0)} req/s, ratio ${fixed(indexRate / listRate)} (median of ${ROUNDS} alternating ${ROUND_SECONDS}s rounds, ${CONNECTIONS} connections; rounds ${roundRatios})`,
    );
    const indexCpu = indexRounds.map((r) => r.cpuPerRequest);
    const listCpu = listRounds.map((r) => r.cpuPerRequest);
    if (!indexCpu.includes(null) && !listCpu.includes(null)) {
      const indexUs = median(indexCpu as number[]);
      const listUs = median(listCpu as number[]);
      lines.push(
        `(c) server CPU per request: index ${fixed(indexUs, 0)} µs, list ${fixed(listUs, 0)} µs, ratio list/index ${fixed(listUs / indexUs)} (medians of the same rounds)`,
      );
    }
  } finally {
    await slashd.stop();
  }
  return { lines };
}
