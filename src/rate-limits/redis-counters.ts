/**
 * Rate-limit counters in Redis, shared by every node. A node leases a share of each counter's
 * window at once (src/core/rate-limits/lease.ts) and admits requests from what it holds without a
 * round trip; at v10's small limits a lease is one request, so every request is counted in Redis,
 * exactly. The leases a node needs in one event-loop turn are sent together as ONE script call:
 * Redis runs a script atomically, and the script leases one after another exactly as separate
 * calls would (INCRBY, PEXPIRE on a window's first lease, PTTL), so concurrent requests on any
 * number of nodes never admit more than a limit, while the client pays the encoding, the round
 * trip and the reply parsing once per turn. Redis's clock ends the windows.
 */
import type { Redis } from 'ioredis';
import {
  DEFAULT_LEASE_SHARE,
  applyLeaseReply,
  leaseSize,
  takeFromLease,
  type Lease,
} from '../core/rate-limits/lease.js';
import type { CounterHit, CounterStore, HitResult, WindowCount } from '../core/rate-limits/window.js';

/** Lease requests per script call at most; more in one turn go in further calls, so one script stays short. */
export const MAX_HITS_PER_CALL = 256;
/** Counters a node holds leases of at most; beyond, the oldest are forgotten (their leases go unused). */
export const MAX_LEASES = 100_000;
/** At the bound, this share of it is forgotten at once, so a flood of new callers costs O(1) amortised. */
const EVICTION_SHARE = 0.01;
/** How often leases of ended windows are dropped (a window is at most a minute). */
const SWEEP_INTERVAL_MS = 10_000;

/**
 * For request i (from 0): KEYS[2i+1] the global counter ('' for none), KEYS[2i+2] the route
 * counter ('' for none); ARGV[6i+1..6i+6] global limit, window ms and lease size, then the
 * route's. Returns, per request, {global total, ttl, granted, route total, ttl, granted}; the
 * route is not leased (all 0) when the global counter granted nothing.
 */
const LEASE_SCRIPT = `
local function lease(key, limit, window, size)
  local total = redis.call('INCRBY', key, size)
  if total == size then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, window); ttl = window end
  local granted = math.min(size, math.max(0, limit - (total - size)))
  return total, ttl, granted
end
local out = {}
for i = 0, #KEYS / 2 - 1 do
  local a = 6 * i
  local g, gttl, ggranted = 0, 0, 1
  if KEYS[2 * i + 1] ~= '' then
    g, gttl, ggranted = lease(KEYS[2 * i + 1], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]))
  end
  local r, rttl, rgranted = 0, 0, 0
  if ggranted > 0 and KEYS[2 * i + 2] ~= '' then
    r, rttl, rgranted = lease(KEYS[2 * i + 2], tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5]), tonumber(ARGV[a + 6]))
  end
  out[a + 1] = g; out[a + 2] = gttl; out[a + 3] = ggranted; out[a + 4] = r; out[a + 5] = rttl; out[a + 6] = rgranted
end
return out
`;

interface ScriptedRedis extends Redis {
  /** ioredis sends EVALSHA, and the script itself only the first time on a connection or after NOSCRIPT. */
  slashdRateLimitLeases(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
}

/** A lease request on its way: requests that need the same counter wait for its spare requests. */
interface PendingLease {
  readonly done: Promise<void>;
  /** Requests of the lease's size not yet promised to a waiting request. */
  spare: number;
}

/** One request's lease request, waiting for its batch's reply. */
interface Queued {
  now: number;
  route: CounterHit | null;
  global: CounterHit | null;
  resolve: (reply: readonly number[], at: number) => void;
  reject: (error: unknown) => void;
}

export interface RedisCountersOptions {
  /** A connected ioredis client; the store never closes it (its owner does). */
  client: Redis;
  /** Every key starts with this (e.g. `slashd:rl:`), so deployments and test runs stay apart. */
  prefix: string;
  /** The share of a limit leased at once (default 1/64); 0 counts every request in Redis. */
  leaseShare?: number;
  /**
   * Whether Redis answers now (the node's own link, src/events/redis-link.ts): while it does not, a
   * hit that needs Redis is refused at once, and the request goes unlimited without waiting for a
   * command timeout (issue 39: every write slowed to 1-3 s during an outage).
   */
  available?: () => boolean;
}

/** A hit that needed Redis while the node's link to it is down. */
export class CountersUnavailableError extends Error {
  constructor() {
    super('the rate-limit counters are out of reach: Redis is away');
    this.name = 'CountersUnavailableError';
  }
}

export class RedisCounters implements CounterStore {
  private readonly client: ScriptedRedis;
  private readonly prefix: string;
  private readonly share: number;
  private readonly leases = new Map<string, Lease>();
  private readonly inFlight = new Map<string, PendingLease>();
  /** The batch being gathered: its keys, then its arguments, in the script's order. */
  private keys: string[] = [];
  private args: number[] = [];
  private queued: Queued[] = [];
  private batchDone: { promise: Promise<void>; settle: () => void } | null = null;
  private flushScheduled = false;
  private nextSweep = 0;

  private readonly available: () => boolean;

  constructor({ client, prefix, leaseShare = DEFAULT_LEASE_SHARE, available = () => true }: RedisCountersOptions) {
    this.available = available;
    if (!('slashdRateLimitLeases' in client)) client.defineCommand('slashdRateLimitLeases', { lua: LEASE_SCRIPT });
    this.client = client as ScriptedRedis;
    this.prefix = prefix;
    this.share = leaseShare;
  }

  hit(now: number, route: CounterHit, global: CounterHit | null): HitResult | Promise<HitResult> {
    if (now >= this.nextSweep) this.sweep(now);
    const globalCount = global ? this.takeHeld(global, now) : null;
    if (globalCount === undefined) return this.hitShared(now, route, global, undefined);
    if (global && globalCount && globalCount.count > global.limit) return { global: globalCount, route: null };
    const routeCount = this.takeHeld(route, now);
    if (routeCount === undefined) return this.hitShared(now, route, global, globalCount);
    return { global: globalCount, route: routeCount };
  }

  async close(): Promise<void> {
    // The client belongs to whoever passed it in; a batch already sent still gets its reply.
    this.leases.clear();
  }

  /**
   * The request needs Redis for its global counter (`counted` undefined) or only for its route:
   * it waits for a lease already on its way that has a request to spare, or asks for its own.
   */
  private async hitShared(
    now: number,
    route: CounterHit,
    global: CounterHit | null,
    counted: WindowCount | null | undefined,
  ): Promise<HitResult> {
    if (!this.available()) throw new CountersUnavailableError();
    let globalCount = counted;
    for (;;) {
      if (globalCount === undefined) globalCount = this.takeHeld(global!, now);
      if (global && globalCount && globalCount.count > global.limit) return { global: globalCount, route: null };
      if (globalCount !== undefined) {
        const routeCount = this.takeHeld(route, now);
        if (routeCount !== undefined) return { global: globalCount, route: routeCount };
      }
      const waitingFor = this.spareOf(globalCount === undefined ? global!.key : route.key);
      if (waitingFor) {
        await waitingFor;
        continue;
      }
      // The global counter (with the route in the same call, counted only when admitted), or the route alone.
      return this.lease(now, route, globalCount === undefined ? global : null, globalCount ?? null);
    }
  }

  /** A request from what this node holds, or undefined when Redis must be asked. */
  private takeHeld(counter: CounterHit, now: number): WindowCount | undefined {
    const taken = takeFromLease(this.leases.get(counter.key), now, counter.limit);
    if (taken === undefined) return undefined;
    this.leases.set(counter.key, taken.lease);
    return taken.count;
  }

  /** A lease on its way for this counter with a request to spare: promised to the caller. */
  private spareOf(key: string): Promise<void> | undefined {
    const pending = this.inFlight.get(key);
    if (pending === undefined || pending.spare <= 0) return undefined;
    pending.spare--;
    return pending.done;
  }

  private lease(
    now: number,
    route: CounterHit,
    global: CounterHit | null,
    globalCount: WindowCount | null,
  ): Promise<HitResult> {
    return new Promise<HitResult>((resolve, reject) => {
      const done = this.currentBatch();
      const routeSize = leaseSize(route.limit, this.share);
      const globalSize = global ? leaseSize(global.limit, this.share) : 0;
      this.keys.push(global ? this.prefix + global.key : '', this.prefix + route.key);
      this.args.push(global?.limit ?? 0, global?.windowMs ?? 0, globalSize, route.limit, route.windowMs, routeSize);
      if (global) this.inFlight.set(global.key, { done, spare: globalSize - 1 });
      this.inFlight.set(route.key, { done, spare: routeSize - 1 });
      const settle = (reply: readonly number[], at: number): HitResult => {
        const leasedGlobal = global
          ? this.applyReply(global, now, {
              total: reply[at]!,
              ttlMs: reply[at + 1]!,
              granted: reply[at + 2]!,
              size: globalSize,
            })
          : globalCount;
        if (global && leasedGlobal && leasedGlobal.count > global.limit) return { global: leasedGlobal, route: null };
        const routeReply = { total: reply[at + 3]!, ttlMs: reply[at + 4]!, granted: reply[at + 5]!, size: routeSize };
        return { global: leasedGlobal, route: this.applyReply(route, now, routeReply) };
      };
      this.queued.push({ now, route, global, resolve: (reply, at) => resolve(settle(reply, at)), reject });
      if (this.queued.length >= MAX_HITS_PER_CALL) this.flush();
      else if (!this.flushScheduled) {
        // After the I/O callbacks of this turn: every request parsed in it joins the batch.
        this.flushScheduled = true;
        setImmediate(this.flushLater);
      }
    });
  }

  private applyReply(counter: CounterHit, now: number, reply: Parameters<typeof applyLeaseReply>[2]): WindowCount {
    const taken = applyLeaseReply(this.leases.get(counter.key), now, reply, counter.limit);
    this.remember(counter.key, taken.lease);
    return taken.count;
  }

  private currentBatch(): Promise<void> {
    if (this.batchDone === null) {
      let settle!: () => void;
      const promise = new Promise<void>((resolve) => (settle = resolve));
      this.batchDone = { promise, settle };
    }
    return this.batchDone.promise;
  }

  private readonly flushLater = (): void => {
    this.flushScheduled = false;
    if (this.queued.length > 0) this.flush();
  };

  private flush(): void {
    const { keys, args, queued, batchDone } = this;
    this.keys = [];
    this.args = [];
    this.queued = [];
    this.batchDone = null;
    const finish = (): void => {
      for (const q of queued) {
        if (q.global && this.inFlight.get(q.global.key)?.done === batchDone?.promise)
          this.inFlight.delete(q.global.key);
        if (q.route && this.inFlight.get(q.route.key)?.done === batchDone?.promise) this.inFlight.delete(q.route.key);
      }
      // Waiters retry from what the replies left in hand (or ask again); they never see the error.
      batchDone?.settle();
    };
    this.client.slashdRateLimitLeases(keys.length, ...keys, ...args).then(
      (reply) => {
        queued.forEach((q, i) => q.resolve(reply, 6 * i));
        finish();
      },
      (error: unknown) => {
        for (const q of queued) q.reject(error);
        finish();
      },
    );
  }

  private remember(key: string, lease: Lease): void {
    this.leases.delete(key);
    this.leases.set(key, lease);
    if (this.leases.size <= MAX_LEASES) return;
    // Maps iterate in insertion order: the first keys are the longest untouched.
    const target = MAX_LEASES - Math.ceil(MAX_LEASES * EVICTION_SHARE);
    for (const oldest of this.leases.keys()) {
      if (this.leases.size <= target) break;
      this.leases.delete(oldest);
    }
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, lease] of this.leases) if (lease.resetAt <= now) this.leases.delete(key);
  }
}
