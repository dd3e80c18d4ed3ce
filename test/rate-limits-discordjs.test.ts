/**
 * @discordjs/rest, unmodified, against v10-shaped rate limits on a real loopback server ("Must
 * show"): it reads the headers, waits, and never exceeds a limit. The windows are short (tens of
 * milliseconds) because the library waits on real time; no assertion depends on timing: the
 * server's counters are observed, and every window must have counted at most its limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { V10_PRESET, type RateLimitPreset, type WindowLimit } from '../src/core/rate-limits/presets.js';
import { dispose, ObservedCounters, watch } from './helpers/rate-limit-watch.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

/** v10's buckets, with windows short enough for a burst of 500 to finish in seconds. */
function shortWindows(global: WindowLimit): RateLimitPreset {
  const windowMs = 30;
  return {
    name: 'short-windows',
    global,
    groups: {
      ...V10_PRESET.groups,
      reads: { limit: 10, windowMs },
      commandWrites: { limit: 5, windowMs },
      // One per window: every answer says Remaining 0, so the library must wait before the next.
      commandBulk: { limit: 1, windowMs },
      other: { limit: 5, windowMs },
    },
  };
}

function restFor(server: TestServer, globalRequestsPerSecond: number): REST {
  return new REST({ version: '10', api: `${server.url}/api`, globalRequestsPerSecond }).setToken(DEMO_BOT_TOKEN);
}

describe('@discordjs/rest obeys the rate limits', () => {
  const GLOBAL = 1_000;
  let server: TestServer;
  let counters: ObservedCounters;
  before(async () => {
    counters = new ObservedCounters();
    server = await startServer({
      config: { rateLimits: { preset: shortWindows({ limit: GLOBAL, windowMs: 1_000 }), counters } },
    });
  });
  after(() => server.close());

  test('a burst of 500 requests (lists, creates, edits, bulk overwrites) never exceeds a bucket and never meets a 429', async () => {
    const rest = restFor(server, GLOBAL);
    const watched = watch(rest);
    try {
      const names = ['alpha', 'beta', 'gamma', 'delta'];
      const created = (await rest.post(Routes.applicationCommands(DEMO_APP_ID), {
        body: { name: 'edited', description: 'Edited in the burst' },
      })) as { id: string };
      // One request of each kind first, so the library knows each route's bucket before the burst.
      await rest.get(Routes.applicationCommands(DEMO_APP_ID));
      await rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID));
      await rest.patch(Routes.applicationCommand(DEMO_APP_ID, created.id), { body: { description: 'v0' } });
      const burst: Promise<unknown>[] = [];
      const guildList = names.map((name) => ({ name, description: 'Deployed in the burst' }));
      for (let i = 0; i < 10; i++) {
        burst.push(rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), { body: guildList }));
      }
      for (let i = 10; i < 500; i++) {
        const kind = i % 4;
        if (kind === 0) burst.push(rest.get(Routes.applicationCommands(DEMO_APP_ID)));
        else if (kind === 1) burst.push(rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID)));
        else if (kind === 2) {
          const name = names[i % names.length]!;
          burst.push(rest.post(Routes.applicationCommands(DEMO_APP_ID), { body: { name, description: `take ${i}` } }));
        } else {
          burst.push(
            rest.patch(Routes.applicationCommand(DEMO_APP_ID, created.id), { body: { description: `v${i}` } }),
          );
        }
      }
      const results = await Promise.allSettled(burst);
      await Promise.all(watched.settled);
      assert.deepEqual(
        results.filter((r) => r.status === 'rejected'),
        [],
      );
      assert.equal(watched.statuses.filter((s) => s === 429).length, 0, JSON.stringify(watched.refusals));
      assert.deepEqual(counters.overfull(), []);
      // It read X-RateLimit-Remaining 0 and Reset-After on the bulk overwrites, and waited.
      assert.ok(
        watched.waits.some((w) => !w.global && w.method.toUpperCase() === 'PUT'),
        'the library never waited on a bucket',
      );
    } finally {
      dispose(rest);
    }
  });
});

describe('@discordjs/rest obeys a lowered global limit', () => {
  const GLOBAL = 5;
  let server: TestServer;
  let counters: ObservedCounters;
  before(async () => {
    counters = new ObservedCounters();
    const preset = shortWindows({ limit: GLOBAL, windowMs: 1_000 });
    server = await startServer({
      config: {
        rateLimits: {
          preset: { ...preset, groups: { ...preset.groups, reads: { limit: 1_000, windowMs: 50 } } },
          counters,
        },
      },
    });
  });
  after(() => server.close());

  test('18 reads on 6 routes at a global limit of 5/s: all answered, any 429 a correct global one, handled', async () => {
    const rest = restFor(server, GLOBAL);
    const watched = watch(rest);
    // Six routes are six queues in the library: their first requests leave at once, more than the
    // global limit, so the library must hold some back on the global limit it was given.
    const routes = [
      Routes.applicationCommands(DEMO_APP_ID),
      Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID),
      Routes.user('@me'),
      Routes.currentApplication(),
      Routes.gatewayBot(),
      Routes.guildRoles(TEST_GUILD_ID),
    ];
    try {
      const reads = Array.from({ length: 18 }, (_, i) => rest.get(routes[i % routes.length]!));
      const results = await Promise.allSettled(reads);
      await Promise.all(watched.settled);
      assert.deepEqual(
        results.filter((r) => r.status === 'rejected'),
        [],
      );
      assert.ok(
        watched.waits.some((w) => w.global),
        'the library never waited on the global limit',
      );
      assert.deepEqual(
        counters.overfull().filter((window) => !window.startsWith('g:')),
        [],
      );
      // The library's global window starts when it sends, the server's when a request arrives; a
      // request can arrive in the server's previous window: it is refused as v10 would, and retried.
      for (const refusal of watched.refusals) {
        const body = JSON.parse(refusal.body) as { retry_after: number };
        assert.deepEqual(JSON.parse(refusal.body), {
          message: 'You are being rate limited.',
          code: 0,
          retry_after: body.retry_after,
          global: true,
        });
        assert.ok(body.retry_after > 0 && body.retry_after <= 1);
        assert.deepEqual(refusal.headers, {
          'retry-after': '1',
          'x-ratelimit-scope': 'global',
          'x-ratelimit-global': 'true',
        });
      }
      assert.equal(watched.statuses.filter((s) => s === 200).length, 18);
    } finally {
      dispose(rest);
    }
  });
});
