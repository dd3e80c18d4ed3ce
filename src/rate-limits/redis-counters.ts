/**
 * Rate-limit counters in Redis, shared by every node. The hits a node receives in one event-loop
 * turn are sent together as ONE script call: Redis runs a script atomically, and the script
 * counts the hits one after another exactly as separate calls would (INCR, PEXPIRE on a window's
 * first request, PTTL), so concurrent requests on any number of nodes never admit more than a
 * limit, while the client pays the encoding, the round trip and the reply parsing once per turn
 * instead of once per request. Redis's clock ends the windows.
 */
import type { Redis } from 'ioredis';
import type { CounterHit, CounterStore, HitResult, WindowCount } from '../core/rate-limits/window.js';

/** Hits per script call at most; more in one turn go in further calls, so one script stays short. */
export const MAX_HITS_PER_CALL = 256;

/**
 * For hit i (from 0): KEYS[2i+1] the global counter ('' for none), KEYS[2i+2] the route counter;
 * ARGV[3i+1..3i+3] global limit, global window ms, route window ms. Returns, per hit, {global
 * count, global ttl, route count, route ttl} one after another; the route is not counted (count
 * 0) when the global counter is over its limit.
 */
const HITS_SCRIPT = `
local function hit(key, window)
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, window); ttl = window end
  return n, ttl
end
local out = {}
for i = 0, #KEYS / 2 - 1 do
  local g, gttl = 0, 0
  local admitted = true
  if KEYS[2 * i + 1] ~= '' then
    g, gttl = hit(KEYS[2 * i + 1], tonumber(ARGV[3 * i + 2]))
    admitted = g <= tonumber(ARGV[3 * i + 1])
  end
  local r, rttl = 0, 0
  if admitted then r, rttl = hit(KEYS[2 * i + 2], tonumber(ARGV[3 * i + 3])) end
  out[4 * i + 1] = g; out[4 * i + 2] = gttl; out[4 * i + 3] = r; out[4 * i + 4] = rttl
end
return out
`;

interface ScriptedRedis extends Redis {
  /** ioredis sends EVALSHA, and the script itself only the first time on a connection or after NOSCRIPT. */
  slashdRateLimitHits(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
}

/** One request waiting for its batch's reply. */
interface Pending {
  now: number;
  hasGlobal: boolean;
  resolve: (result: HitResult) => void;
  reject: (error: unknown) => void;
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
  /** The batch being gathered: its keys, then its arguments, in the script's order. */
  private keys: string[] = [];
  private args: number[] = [];
  private pending: Pending[] = [];
  private flushScheduled = false;

  constructor({ client, prefix }: RedisCountersOptions) {
    if (!('slashdRateLimitHits' in client)) client.defineCommand('slashdRateLimitHits', { lua: HITS_SCRIPT });
    this.client = client as ScriptedRedis;
    this.prefix = prefix;
  }

  hit(now: number, route: CounterHit, global: CounterHit | null): Promise<HitResult> {
    return new Promise<HitResult>((resolve, reject) => {
      this.keys.push(global ? this.prefix + global.key : '', this.prefix + route.key);
      this.args.push(global?.limit ?? 0, global?.windowMs ?? 0, route.windowMs);
      this.pending.push({ now, hasGlobal: global !== null, resolve, reject });
      if (this.pending.length >= MAX_HITS_PER_CALL) this.flush();
      else if (!this.flushScheduled) {
        // After the I/O callbacks of this turn: every request parsed in it joins the batch.
        this.flushScheduled = true;
        setImmediate(this.flushLater);
      }
    });
  }

  private readonly flushLater = (): void => {
    this.flushScheduled = false;
    if (this.pending.length > 0) this.flush();
  };

  private flush(): void {
    const { keys, args, pending } = this;
    this.keys = [];
    this.args = [];
    this.pending = [];
    this.client.slashdRateLimitHits(keys.length, ...keys, ...args).then(
      (reply) => {
        for (let i = 0; i < pending.length; i++) {
          const p = pending[i]!;
          const at = (count: number, ttl: number): WindowCount => ({ count, resetAt: p.now + ttl });
          const routeCount = reply[4 * i + 2]!;
          p.resolve({
            global: p.hasGlobal ? at(reply[4 * i]!, reply[4 * i + 1]!) : null,
            route: routeCount === 0 ? null : at(routeCount, reply[4 * i + 3]!),
          });
        }
      },
      (error: unknown) => {
        for (const p of pending) p.reject(error);
      },
    );
  }

  async close(): Promise<void> {
    // The client belongs to whoever passed it in; a batch already sent still gets its reply.
  }
}
