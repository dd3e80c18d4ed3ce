/**
 * Failed-credential counters in Redis, shared by every node (src/core/rate-limits/failures.ts):
 * one key per address, counted by a script (INCR, PEXPIRE on the window's first failure, PTTL) so
 * concurrent failures on any number of nodes are counted exactly, and read by another (GET, PTTL)
 * when a credential succeeds: the reads of one event-loop turn in one call, and an address read
 * clear is trusted for a second unless it fails on this node meanwhile (so a valid credential
 * from an address that just started failing on another node may be admitted unread: at most one
 * guess per node, the first it sees, and only for an address that also holds a valid credential).
 * Redis's clock ends the windows. While Redis cannot be reached, each node counts in its own
 * memory: guesses stay throttled per node, and valid credentials go through.
 */
import type { Redis } from 'ioredis';
import type { FailureCounters } from '../core/rate-limits/failures.js';
import type { WindowCount } from '../core/rate-limits/window.js';
import { MemoryCounters } from './memory-counters.js';

/** KEYS[1] the address's counter, ARGV[1] the window (ms): the count after this failure and its time to live. */
const FAIL_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Per key: its count and time to live ({0, 0} when it has none), in the order of KEYS. */
const READ_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('GET', key)
  if count then
    out[2 * i - 1] = tonumber(count); out[2 * i] = redis.call('PTTL', key)
  else
    out[2 * i - 1] = 0; out[2 * i] = 0
  end
end
return out
`;

/** Keys read in one script call at most; more in one turn go in further calls. */
export const MAX_READS_PER_CALL = 256;
/**
 * How long a read that found an address without failures is trusted (ms): meanwhile that address's
 * valid credentials are admitted without asking Redis, unless it fails on this node. A busy client
 * costs one read a second per node, not one per request.
 */
export const CLEAR_READ_TTL_MS = 1_000;
/** Addresses whose last read or failure a node remembers at most; beyond, the oldest are read again. */
export const MAX_REMEMBERED_ADDRESSES = 100_000;

/** What a node remembers of an address: read clear until `until`, or failing (read every time) until then. */
interface Remembered {
  readonly clear: boolean;
  readonly until: number;
}

interface FailureScripts extends Redis {
  slashdCredentialFail(numberOfKeys: 1, key: string, windowMs: number): Promise<[number, number]>;
  slashdCredentialFailures(numberOfKeys: number, ...keys: string[]): Promise<number[]>;
}

/** The requests waiting for one key's count in the batch being gathered. */
type Waiting = ((reply: readonly [number, number] | Error) => void)[];

export interface RedisFailuresOptions {
  /** A connected ioredis client; never closed here (its owner does). */
  client: Redis;
  /** Every key starts with this (the rate limits' prefix), so deployments and test runs stay apart. */
  prefix: string;
}

export class RedisFailures implements FailureCounters {
  private readonly client: FailureScripts;
  private readonly prefix: string;
  /** Where failures are counted while Redis is away. */
  private readonly local = new MemoryCounters();
  /** Reads gathered in this event-loop turn, by key: every valid credential of a turn costs one call. */
  private batch = new Map<string, Waiting>();
  private flushScheduled = false;
  private readonly remembered = new Map<string, Remembered>();

  constructor({ client, prefix }: RedisFailuresOptions) {
    if (!('slashdCredentialFail' in client)) {
      client.defineCommand('slashdCredentialFail', { lua: FAIL_SCRIPT });
      client.defineCommand('slashdCredentialFailures', { lua: READ_SCRIPT });
    }
    this.client = client as FailureScripts;
    this.prefix = prefix;
  }

  async fail(now: number, key: string, windowMs: number): Promise<WindowCount> {
    // At once, before Redis answers: this node's next success from the address reads the count.
    this.remember(key, { clear: false, until: now + windowMs });
    try {
      const [count, ttl] = await this.client.slashdCredentialFail(1, this.keyOf(key), windowMs);
      return { count, resetAt: now + ttl };
    } catch {
      return this.local.fail(now, key, windowMs);
    }
  }

  /**
   * Read after the credential's lookup, on the connection its failures are counted on, so Redis
   * sees every failure counted before it. Reads of one turn go together (a key once) as one call.
   */
  async failures(now: number, key: string): Promise<WindowCount | null> {
    const known = this.remembered.get(key);
    if (known?.clear && known.until > now) return null;
    const reply = await new Promise<readonly [number, number] | Error>((resolve) =>
      this.read(this.keyOf(key), resolve),
    );
    if (reply instanceof Error) return this.local.failures(now, key);
    const [count, ttl] = reply;
    if (count > 0 && ttl > 0) {
      this.remember(key, { clear: false, until: now + ttl });
      return { count, resetAt: now + ttl };
    }
    // Clear, unless the address failed here while the read was on its way.
    const current = this.remembered.get(key);
    if (current === undefined || current.clear || current.until <= now) {
      this.remember(key, { clear: true, until: now + CLEAR_READ_TTL_MS });
    }
    return null;
  }

  private remember(key: string, what: Remembered): void {
    this.remembered.delete(key);
    this.remembered.set(key, what);
    if (this.remembered.size <= MAX_REMEMBERED_ADDRESSES) return;
    // Maps iterate in insertion order: the oldest is forgotten, and only read again.
    const oldest = this.remembered.keys().next();
    if (!oldest.done) this.remembered.delete(oldest.value);
  }

  private read(key: string, resolve: Waiting[number]): void {
    const waiting = this.batch.get(key);
    if (waiting) return void waiting.push(resolve);
    this.batch.set(key, [resolve]);
    if (this.batch.size >= MAX_READS_PER_CALL) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        if (this.batch.size > 0) this.flush();
      });
    }
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = new Map();
    const keys = [...batch.keys()];
    this.client.slashdCredentialFailures(keys.length, ...keys).then(
      (reply) =>
        keys.forEach((key, i) => {
          for (const resolve of batch.get(key)!) resolve([reply[2 * i] ?? 0, reply[2 * i + 1] ?? 0]);
        }),
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const waiting of batch.values()) for (const resolve of waiting) resolve(failure);
      },
    );
  }

  async close(): Promise<void> {
    await this.local.close();
  }

  private keyOf(key: string): string {
    return `${this.prefix}f:${key}`;
  }
}
