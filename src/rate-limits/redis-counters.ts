/**
 * Rate-limit counters in Redis, shared by every node: one Lua script counts the global and the
 * route counter atomically (INCR, PEXPIRE on a window's first request, PTTL), so concurrent
 * requests on any number of nodes never admit more than a limit. Redis's clock ends the windows.
 */
import type { Redis } from 'ioredis';
import type { CounterHit, CounterStore, HitResult, WindowCount } from '../core/rate-limits/window.js';

/**
 * KEYS[1] the global counter ('' for none), KEYS[2] the route counter; ARGV global limit, global
 * window ms, route window ms. Returns {global count, global ttl, route count, route ttl}; the
 * route is not counted (count 0) when the global counter is over its limit.
 */
const HIT_SCRIPT = `
local function hit(key, window)
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, window); ttl = window end
  return {n, ttl}
end
local g = {0, 0}
if KEYS[1] ~= '' then
  g = hit(KEYS[1], tonumber(ARGV[2]))
  if g[1] > tonumber(ARGV[1]) then return {g[1], g[2], 0, 0} end
end
local r = hit(KEYS[2], tonumber(ARGV[3]))
return {g[1], g[2], r[1], r[2]}
`;

type HitReply = [number, number, number, number];

interface ScriptedRedis extends Redis {
  slashdRateLimitHit(globalKey: string, routeKey: string, ...args: number[]): Promise<HitReply>;
}

export interface RedisCountersOptions {
  /** A connected ioredis client; the store never closes it (its owner does). */
  client: Redis;
  /** Every key starts with this (e.g. `slashd:rl:`), so deployments and test runs stay apart. */
  prefix: string;
}

export class RedisCounters implements CounterStore {
  private readonly client: ScriptedRedis;
  private readonly prefix: string;

  constructor({ client, prefix }: RedisCountersOptions) {
    if (!('slashdRateLimitHit' in client)) {
      client.defineCommand('slashdRateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    }
    this.client = client as ScriptedRedis;
    this.prefix = prefix;
  }

  async hit(now: number, route: CounterHit, global: CounterHit | null): Promise<HitResult> {
    const [globalCount, globalTtl, routeCount, routeTtl] = await this.client.slashdRateLimitHit(
      global ? this.prefix + global.key : '',
      this.prefix + route.key,
      global?.limit ?? 0,
      global?.windowMs ?? 0,
      route.windowMs,
    );
    const at = (count: number, ttl: number): WindowCount => ({ count, resetAt: now + ttl });
    return {
      global: global ? at(globalCount, globalTtl) : null,
      route: routeCount === 0 ? null : at(routeCount, routeTtl),
    };
  }

  async close(): Promise<void> {
    // The client belongs to whoever passed it in.
  }
}
