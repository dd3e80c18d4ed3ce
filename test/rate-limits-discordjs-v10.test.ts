/**
 * @discordjs/rest, unmodified and with its default options, against the `v10` preset unchanged
 * ("Must show"): a burst of 500 requests, spread over 100 guilds so that the binding limit is the
 * real global 50 per second, plus a few that empty a bucket on purpose (7 reads of one bucket of
 * 5 per 5 s, 6 command creates in a scope of 5 per 20 s), so the library must wait out a reset.
 * It takes about 20 s of real time (the 6th create waits for its 20 s window to end); no
 * assertion depends on it: the server's counters are observed, and each window's counts checked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { bucketOf } from '../src/core/rate-limits/buckets.js';
import { parseWorld } from '../src/core/world/parse.js';
import type { World } from '../src/core/world/types.js';
import { DEMO_WORLD } from '../src/world/demo-world.js';
import { dispose, ObservedCounters, watch, type Refusal } from './helpers/rate-limit-watch.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_ID, DEMO_APP_ID, DEMO_BOT_TOKEN } from './helpers/world.js';

const GUILDS = 100;
/** Lists of each guild's commands: under the bucket's 5, so no guild's bucket is emptied. */
const LISTS_PER_GUILD = 4;
/** Guilds that get one command created (one of 5 in the guild's create bucket). */
const GUILD_CREATES = 87;
/** Reads of the app's global commands: two more than the bucket's 5 per 5 s. */
const GLOBAL_LISTS = 7;
/** Creates of global commands: one more than the bucket's 5 per 20 s. */
const GLOBAL_CREATES = 6;
const BURST = GUILDS * LISTS_PER_GUILD + GUILD_CREATES + GLOBAL_LISTS + GLOBAL_CREATES;
/** Fails the test, never passes it: the run takes about 20 s. */
const DEADLINE_MS = 120_000;

function guildId(i: number): string {
  return `1345183757108${String(i).padStart(6, '0')}`;
}

/** The reference world, with GUILDS more guilds the demo app is installed in. */
function manyGuildsWorld(): World {
  const demo = structuredClone(DEMO_WORLD);
  const guilds: unknown[] = [...demo.guilds];
  for (let i = 1; i <= GUILDS; i++) {
    const id = guildId(i);
    guilds.push({
      id,
      name: `Guild ${i}`,
      owner_id: ALICE_ID,
      preferred_locale: 'en-US',
      roles: [{ id, name: '@everyone', permissions: '2147552256' }],
      channels: [],
      members: [{ user_id: ALICE_ID, roles: [], joined_at: '2025-03-01T00:00:00.000Z' }],
      installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: '0' }],
    });
  }
  const parsed = parseWorld({ ...demo, guilds });
  if (!parsed.ok) throw new Error(`world invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

/** The server's counter key of a bucket, for the app's bot, on `major` parameters. */
function counterKey(method: string, template: string, major: string): string {
  return `b:${bucketOf(method, template).hash}:${major}:bot:${DEMO_APP_ID}`;
}

const GLOBAL_COUNTER = `g:bot:${DEMO_APP_ID}`;

/** A 429 exactly as v10 writes it. */
function assertV10Refusal(refusal: Refusal): void {
  const body = JSON.parse(refusal.body) as { retry_after: number; global: boolean };
  assert.deepEqual(body, {
    message: 'You are being rate limited.',
    code: 0,
    retry_after: body.retry_after,
    global: body.global,
  });
  assert.ok(body.retry_after > 0, refusal.body);
  assert.deepEqual(refusal.headers, {
    'retry-after': String(Math.ceil(body.retry_after)),
    'x-ratelimit-scope': body.global ? 'global' : 'user',
    'x-ratelimit-global': body.global ? 'true' : null,
  });
}

describe('@discordjs/rest against the v10 preset', () => {
  let server: TestServer;
  let counters: ObservedCounters;
  before(async () => {
    counters = new ObservedCounters();
    server = await startServer({ world: manyGuildsWorld(), config: { rateLimits: { preset: 'v10', counters } } });
  });
  after(() => server.close());

  test(
    `a burst of ${BURST} requests: all answered, the buckets it empties waited out, no bucket overrun`,
    { timeout: DEADLINE_MS },
    async (t) => {
      // Default options: the library's own global limit of 50 per second, its offset, its retries.
      const rest = new REST({ version: '10', api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
      const watched = watch(rest);
      try {
        const burst: Promise<unknown>[] = [];
        for (let i = 0; i < GLOBAL_CREATES; i++) {
          const body = { name: `burst-${i}`, description: 'Created in the burst' };
          burst.push(rest.post(Routes.applicationCommands(DEMO_APP_ID), { body }));
        }
        for (let i = 0; i < GLOBAL_LISTS; i++) burst.push(rest.get(Routes.applicationCommands(DEMO_APP_ID)));
        for (let g = 1; g <= GUILDS; g++) {
          for (let i = 0; i < LISTS_PER_GUILD; i++) {
            burst.push(rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, guildId(g))));
          }
          if (g <= GUILD_CREATES) {
            const body = { name: `guild-${g}`, description: 'Created in the burst' };
            burst.push(rest.post(Routes.applicationGuildCommands(DEMO_APP_ID, guildId(g)), { body }));
          }
        }
        assert.equal(burst.length, 500);
        const results = await Promise.allSettled(burst);
        await Promise.all(watched.settled);
        t.diagnostic(
          `${watched.refusals.length} global 429s; ${watched.waits.filter((w) => w.global).length} global and ` +
            `${watched.waits.filter((w) => !w.global).length} bucket waits`,
        );

        assert.deepEqual(
          results.filter((r) => r.status === 'rejected'),
          [],
        );
        const answered = watched.statuses.filter((s) => s !== 429);
        assert.equal(answered.length, BURST);
        assert.equal(answered.filter((s) => s === 201).length, GLOBAL_CREATES + GUILD_CREATES);
        assert.equal(answered.filter((s) => s === 200).length, GLOBAL_LISTS + GUILDS * LISTS_PER_GUILD);

        // Every 429 is v10's, and none is a bucket's: the library never sent past a Remaining 0.
        for (const refusal of watched.refusals) assertV10Refusal(refusal);
        assert.deepEqual(
          watched.refusals.filter((r) => r.headers['x-ratelimit-scope'] !== 'global'),
          [],
        );
        assert.deepEqual(
          counters.overfull().filter((window) => !window.startsWith('g:')),
          [],
        );
        // The library's global second starts when it sends, the server's when a request arrives: a
        // request can land in the server's previous second. Each one over is refused, and seen.
        const globalExcess = [...counters.windows().values()]
          .filter((c) => c.key === GLOBAL_COUNTER)
          .reduce((sum, c) => sum + Math.max(0, c.count - c.limit), 0);
        assert.equal(globalExcess, watched.refusals.length);

        // It emptied two buckets and waited each one's window out: the server saw a second window.
        const globalCreates = counterKey('POST', '/applications/:applicationId/commands', DEMO_APP_ID);
        const globalLists = counterKey('GET', '/applications/:applicationId/commands', DEMO_APP_ID);
        // However the requests fell into windows on a slow machine, more than one window was needed,
        // none took more than 5, and every request was counted once.
        for (const [key, total] of [
          [globalCreates, 6],
          [globalLists, 7],
        ] as const) {
          const counts = counters.countsOf(key);
          assert.ok(counts.length >= 2, `${key}: one window only: ${JSON.stringify(counts)}`);
          assert.ok(
            counts.every((count) => count <= 5),
            `${key}: a window over 5: ${JSON.stringify(counts)}`,
          );
          assert.equal(
            counts.reduce((sum, count) => sum + count, 0),
            total,
          );
        }
        const route = '/applications/:id/commands';
        for (const method of ['get', 'post']) {
          assert.ok(
            watched.waits.some((w) => !w.global && w.route === route && w.method.toLowerCase() === method),
            `the library never waited on ${method} ${route}: ${JSON.stringify(watched.waits)}`,
          );
        }
        // The binding limit was the global one: the library held requests back on its own count.
        assert.ok(
          watched.waits.some((w) => w.global),
          'the library never waited on the global limit',
        );
        // Every guild's lists were counted in that guild's bucket, within its 5.
        for (let g = 1; g <= GUILDS; g++) {
          const key = counterKey(
            'GET',
            '/applications/:applicationId/guilds/:guildId/commands',
            `${DEMO_APP_ID}:${guildId(g)}`,
          );
          assert.equal(
            counters.countsOf(key).reduce((sum, n) => sum + n, 0),
            LISTS_PER_GUILD,
            key,
          );
        }
      } finally {
        dispose(rest);
      }
    },
  );
});
