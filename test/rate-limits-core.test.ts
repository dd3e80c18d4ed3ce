/** The pure rate-limit core: buckets of routes, presets, and the window decision (with a property). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bucketHash, bucketOf } from '../src/core/rate-limits/buckets.js';
import { SANDBOX_PRESET, V10_PRESET, presetNamed } from '../src/core/rate-limits/presets.js';
import { bucketHeaders, decide, refusalHeaders, type CounterHit } from '../src/core/rate-limits/window.js';
import { MemoryCounters } from '../src/rate-limits/memory-counters.js';

describe('buckets', () => {
  it('puts command writes, bulk overwrites, reads and permission edits in their groups', () => {
    const commands = '/api/v10/applications/:applicationId/commands';
    assert.equal(bucketOf('POST', commands).group, 'commandWrites');
    assert.equal(bucketOf('PATCH', `${commands}/:commandId`).group, 'commandWrites');
    assert.equal(bucketOf('DELETE', `${commands}/:commandId`).group, 'commandWrites');
    assert.equal(bucketOf('PUT', commands).group, 'commandBulk');
    assert.equal(bucketOf('GET', commands).group, 'reads');
    const guildCommands = '/api/v10/applications/:applicationId/guilds/:guildId/commands';
    assert.equal(bucketOf('PUT', guildCommands).group, 'commandBulk');
    assert.equal(bucketOf('PUT', `${guildCommands}/:commandId/permissions`).group, 'permissionWrites');
    assert.equal(bucketOf('POST', '/api/v10/channels/:channelId/messages').group, 'other');
  });

  it('splits counters by major parameters, and keys callbacks and webhooks by their path, outside the global limit', () => {
    const guild = bucketOf('GET', '/api/v10/applications/:applicationId/guilds/:guildId/commands/:commandId');
    assert.deepEqual(guild.majorParams, ['applicationId', 'guildId']);
    assert.equal(guild.global, true);
    const callback = bucketOf('POST', '/api/v10/interactions/:interactionId/:token/callback');
    assert.deepEqual(callback, { ...callback, group: 'interactionCallback', global: false, pathIsCaller: true });
    assert.deepEqual(callback.majorParams, ['interactionId', 'token']);
    const followUp = bucketOf('PATCH', '/api/v10/webhooks/:applicationId/:token/messages/:messageId');
    assert.deepEqual(followUp.majorParams, ['applicationId', 'token']);
    assert.equal(followUp.group, 'webhook');
    assert.equal(followUp.global, false);
    const execute = bucketOf('POST', '/api/v10/webhooks/:webhookId/:token');
    assert.deepEqual(execute.majorParams, ['webhookId', 'token']);
    assert.deepEqual(execute, { ...execute, group: 'webhook', global: false, pathIsCaller: true });
    assert.deepEqual(bucketOf('PATCH', '/api/v10/webhooks/:webhookId').majorParams, ['webhookId']);
    assert.deepEqual(bucketOf('GET', '/api/v10/channels/:channelId').majorParams, ['channelId']);
  });

  it('gives each method and route one opaque hash, the same in v9 and v10', () => {
    const v10 = bucketOf('GET', '/api/v10/applications/:applicationId/commands');
    assert.equal(v10.hash, bucketOf('GET', '/api/v9/applications/:applicationId/commands').hash);
    assert.notEqual(v10.hash, bucketOf('POST', '/api/v10/applications/:applicationId/commands').hash);
    assert.match(v10.hash, /^[0-9a-f]{32}$/);
    assert.equal(bucketHash('x'), bucketHash('x'));
  });

  it("puts HEAD in its GET's bucket (Fastify adds a HEAD beside every GET)", () => {
    const commands = '/api/v10/applications/:applicationId/commands';
    assert.deepEqual(bucketOf('HEAD', commands), bucketOf('GET', commands));
  });
});

describe('presets', () => {
  it('v10: 50 per second per bot, command writes 5 per 20 s', () => {
    assert.deepEqual(V10_PRESET.global, { limit: 50, windowMs: 1_000 });
    assert.deepEqual(V10_PRESET.groups.commandWrites, { limit: 5, windowMs: 20_000 });
    assert.equal(presetNamed('v10'), V10_PRESET);
    assert.equal(presetNamed('off'), null);
  });

  it('sandbox: the same windows, limits a hundred times larger', () => {
    for (const [group, limit] of Object.entries(V10_PRESET.groups)) {
      const sandbox = SANDBOX_PRESET.groups[group as keyof typeof SANDBOX_PRESET.groups];
      assert.deepEqual(sandbox, { limit: limit.limit * 100, windowMs: limit.windowMs });
    }
  });
});

describe('memory counters', () => {
  it('keep at most their bound of live counters, and drop ended windows', () => {
    const counters = new MemoryCounters(100);
    for (let i = 0; i < 1_000; i++) counters.hit(0, { key: `caller-${i}`, limit: 5, windowMs: 60_000 }, null);
    assert.ok(counters.size <= 100 && counters.size >= 99, `${counters.size} live counters`);
    // The newest counters are kept.
    assert.equal(counters.hit(0, { key: 'caller-999', limit: 5, windowMs: 60_000 }, null).route?.count, 2);
    counters.hit(60_000, { key: 'late', limit: 5, windowMs: 1_000 }, null);
    assert.equal(counters.size, 1);
  });

  it('at their bound, forget the oldest in batches: a flood of new keys is not a pass over all per key', () => {
    const counters = new MemoryCounters(10_000);
    const flood = 110_000;
    for (let i = 0; i < flood; i++) counters.hit(0, { key: `caller-${i}`, limit: 5, windowMs: 60_000 }, null);
    assert.ok(counters.size <= 10_000 && counters.size >= 9_900, `${counters.size} live counters`);
    // 100,000 keys past the bound, forgotten 100 (1%) at a time: 1,000 passes, not 100,000.
    assert.ok(counters.evictions <= 1_001, `${counters.evictions} eviction passes`);
    assert.equal(counters.hit(0, { key: `caller-${flood - 1}`, limit: 5, windowMs: 60_000 }, null).route?.count, 2);
    assert.equal(counters.hit(0, { key: 'caller-0', limit: 5, windowMs: 60_000 }, null).route?.count, 1);
  });
});

describe('the decision', () => {
  const route = { limit: 2, windowMs: 1_000 };
  const global = { limit: 3, windowMs: 1_000 };

  it('reports remaining and reset; refuses the request after the limit, with the scope', () => {
    const first = decide(
      { global: { count: 1, resetAt: 1_000 }, route: { count: 2, resetAt: 1_500 } },
      route,
      global,
      250,
    );
    assert.deepEqual(first, { allowed: true, bucket: { limit: 2, remaining: 0, resetAt: 1_500, resetAfterMs: 1_250 } });
    assert.deepEqual(bucketHeaders('h', first.bucket), {
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1.500',
      'x-ratelimit-reset-after': '1.250',
      'x-ratelimit-bucket': 'h',
    });
    const over = decide(
      { global: { count: 2, resetAt: 1_000 }, route: { count: 3, resetAt: 1_500 } },
      route,
      global,
      250,
    );
    assert.equal(over.allowed, false);
    assert.ok(!over.allowed);
    assert.equal(over.scope, 'user');
    assert.equal(over.retryAfterMs, 1_250);
    assert.deepEqual(refusalHeaders(over), { 'x-ratelimit-scope': 'user' });
    const globally = decide({ global: { count: 4, resetAt: 1_000 }, route: null }, route, global, 250);
    assert.ok(!globally.allowed);
    assert.deepEqual(globally, { allowed: false, scope: 'global', retryAfterMs: 750, bucket: null });
    assert.deepEqual(refusalHeaders(globally), { 'x-ratelimit-scope': 'global', 'x-ratelimit-global': 'true' });
  });

  it('property: no window admits more than its limit, and a request is refused only when its window is full', () => {
    const arrival = fc.record({ gap: fc.integer({ min: 0, max: 400 }), key: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(
        fc.array(arrival, { maxLength: 200 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 12 }),
        (arrivals, limit, windowMs, globalLimit) => {
          const counters = new MemoryCounters();
          const routeLimit = { limit, windowMs };
          const globalWindow = { limit: globalLimit, windowMs };
          // An independent model: per key, the window opened by the first request after the last one ended.
          const windows = new Map<string, { end: number; admitted: number }>();
          const admitIn = (key: string, now: number, max: number): boolean => {
            let window = windows.get(key);
            if (!window || window.end <= now) windows.set(key, (window = { end: now + windowMs, admitted: 0 }));
            if (window.admitted >= max) return false;
            window.admitted++;
            return true;
          };
          // What the store itself says: requests admitted per window (a key and the end of its window).
          const admittedPerWindow = new Map<string, number>();
          let now = 0;
          for (const { gap, key } of arrivals) {
            now += gap;
            const hit: CounterHit = { key, ...routeLimit };
            const decision = decide(
              counters.hit(now, hit, { key: 'g', ...globalWindow }),
              routeLimit,
              globalWindow,
              now,
            );
            const globalOk = admitIn('g', now, globalLimit);
            const expected = globalOk && admitIn(key, now, limit);
            assert.equal(decision.allowed, expected);
            if (!decision.allowed) assert.ok(decision.retryAfterMs > 0 && decision.retryAfterMs <= windowMs);
            else {
              const id = `${key}@${decision.bucket.resetAt}`;
              admittedPerWindow.set(id, (admittedPerWindow.get(id) ?? 0) + 1);
            }
          }
          for (const admitted of admittedPerWindow.values()) assert.ok(admitted <= limit);
        },
      ),
      { numRuns: 300 },
    );
  });
});
