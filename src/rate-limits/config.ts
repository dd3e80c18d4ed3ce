/** Rate limits as a deployment configures them: a preset, and counters in memory or in a shared Redis. */
import { Redis } from 'ioredis';
import { DEFAULT_FAILED_CREDENTIALS, type FailureCounters } from '../core/rate-limits/failures.js';
import { presetNamed, type PresetName, type RateLimitPreset, type WindowLimit } from '../core/rate-limits/presets.js';
import type { CounterStore } from '../core/rate-limits/window.js';
import { MemoryCounters } from './memory-counters.js';
import { RedisCounters } from './redis-counters.js';
import { RedisFailures } from './redis-failures.js';

/** How long a counter check waits for Redis to connect before the request goes unlimited (ms). */
export const COUNTERS_CONNECT_TIMEOUT_MS = 1_000;
/** How long a counter check waits for Redis's answer before the request goes unlimited (ms). */
export const COUNTERS_COMMAND_TIMEOUT_MS = 1_000;

/** Where counters live in Redis unless told otherwise. */
export const DEFAULT_REDIS_PREFIX = 'slashd:rl:';

export interface RateLimitConfig {
  /** `sandbox` (generous limits, real headers), `v10` (the published numbers), `off`, or a preset of one's own. */
  preset: PresetName | RateLimitPreset;
  /** Counters shared by every node: a connected ioredis client (kept open) or a URL (connected and closed here). */
  redis?: Redis | string | undefined;
  /** Prefix of every counter key in Redis (default `slashd:rl:`). */
  redisPrefix?: string | undefined;
  /** Whether the node's link to Redis is up: while not, counters needing Redis are skipped at once. */
  redisAvailable?: (() => boolean) | undefined;
  /** The share of a limit a node leases from Redis at once (default 1/64); 0 counts every request in Redis. */
  leaseShare?: number | undefined;
  /** A counter store of one's own (tests observe counts through one); wins over `redis`. */
  counters?: CounterStore | undefined;
  /**
   * Failed credentials per source address and window before every credential from it is refused
   * (429), whatever the preset, `off` included; default 20 a minute; null: never throttled.
   */
  failedCredentials?: WindowLimit | null | undefined;
}

export interface RateLimits {
  /** Null when the preset is `off` (failed credentials may still be throttled). */
  preset: RateLimitPreset | null;
  counters: CounterStore;
  /** Where failed credentials are counted: the same memory or Redis as the counters. */
  failures: FailureCounters;
  /** The failed-credential throttle's numbers; null when it is off. */
  failedCredentials: WindowLimit | null;
  close(): Promise<void>;
}

function isFailureCounters(store: CounterStore): store is CounterStore & FailureCounters {
  return 'fail' in store && 'failures' in store;
}

/** The preset and counters of `config`; null when both the limits and the throttle are off. */
export function openRateLimits(config: RateLimitConfig | undefined): RateLimits | null {
  if (!config) return null;
  const preset = typeof config.preset === 'string' ? presetNamed(config.preset) : config.preset;
  const failedCredentials =
    config.failedCredentials === undefined ? DEFAULT_FAILED_CREDENTIALS : config.failedCredentials;
  if (preset === null && failedCredentials === null) return null;
  const limits = { preset, failedCredentials };
  if (config.counters) {
    const failures = isFailureCounters(config.counters) ? config.counters : new MemoryCounters();
    return { ...limits, counters: config.counters, failures, close: async () => undefined };
  }
  if (config.redis === undefined) {
    const counters = new MemoryCounters();
    return { ...limits, counters, failures: counters, close: () => counters.close() };
  }
  // With Redis away or unreachable, a request waits a bounded time, then goes unlimited
  // (src/http/rate-limits.ts): no retries, and timeouts on connecting and on each call.
  const owned =
    typeof config.redis === 'string'
      ? new Redis(config.redis, {
          maxRetriesPerRequest: 0,
          connectTimeout: COUNTERS_CONNECT_TIMEOUT_MS,
          commandTimeout: COUNTERS_COMMAND_TIMEOUT_MS,
          enableAutoPipelining: true,
        })
      : null;
  // Without a listener ioredis prints every failed reconnection as a multi-line trace; the node's
  // own Redis link logs the outage once (src/events/redis-link.ts), and a request goes unlimited.
  owned?.on('error', () => undefined);
  const client = owned ?? (config.redis as Redis);
  const prefix = config.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  const counters = new RedisCounters({
    client,
    prefix,
    ...(config.redisAvailable === undefined ? {} : { available: config.redisAvailable }),
    ...(config.leaseShare === undefined ? {} : { leaseShare: config.leaseShare }),
  });
  const failures = new RedisFailures({ client, prefix });
  return {
    ...limits,
    counters,
    failures,
    async close() {
      await counters.close();
      await failures.close();
      if (owned) await owned.quit();
    },
  };
}
