/**
 * The throttle of failed credentials (src/core/rate-limits/failures.ts) over a counter store: in
 * memory on one node, in Redis with many. Every check of a credential goes through it twice:
 * `before` the lookup (an address this node knows to be throttled is refused without a lookup)
 * and `after` it (a failure is counted; a success is admitted only if the shared count says the
 * address is not throttled). The second check is what makes the throttle hold across nodes and
 * under concurrency: a right guess is never admitted once the address has failed its limit.
 */
import {
  failureKey,
  failureOverLimit,
  throttledBy,
  type FailureCounters,
  type Throttled,
} from '../core/rate-limits/failures.js';
import type { WindowLimit } from '../core/rate-limits/presets.js';
import type { RateLimits } from './config.js';

/** Throttled addresses this node remembers at most (so it refuses them without asking the store). */
export const MAX_KNOWN_THROTTLED = 100_000;

export interface CredentialThrottleOptions {
  counters: FailureCounters;
  /** Failures per address and window (default: DEFAULT_FAILED_CREDENTIALS). */
  limits: WindowLimit;
  now: () => number;
  /** Told once per window when an address becomes throttled on this node (a log line). */
  onThrottled?: ((key: string, throttled: Throttled) => void) | undefined;
}

export class CredentialThrottle {
  readonly limits: WindowLimit;
  private readonly counters: FailureCounters;
  private readonly now: () => number;
  private readonly onThrottled: (key: string, throttled: Throttled) => void;
  /** Throttled keys and when their window ends, oldest first. */
  private readonly known = new Map<string, number>();

  constructor({ counters, limits, now, onThrottled }: CredentialThrottleOptions) {
    this.counters = counters;
    this.limits = limits;
    this.now = now;
    this.onThrottled = onThrottled ?? (() => undefined);
  }

  /** Before a credential from `address` is looked up: refused when this node knows the address is throttled. */
  before(address: string): Throttled | null {
    const key = failureKey(address);
    const resetAt = this.known.get(key);
    if (resetAt === undefined) return null;
    const now = this.now();
    if (resetAt > now) return { retryAfterMs: resetAt - now, resetAt };
    this.known.delete(key);
    return null;
  }

  /**
   * After the lookup: a failure (`ok` false) is counted and refused once over the limit; a
   * success is refused while the address is throttled. Null admits the answer.
   */
  async after(address: string, ok: boolean): Promise<Throttled | null> {
    const key = failureKey(address);
    const now = this.now();
    const { limit, windowMs } = this.limits;
    if (ok) {
      const refused = this.before(address) ?? throttledBy(await this.counters.failures(now, key), limit, now);
      if (refused) this.remember(key, refused, now);
      return refused;
    }
    const count = await this.counters.fail(now, key, windowMs);
    // Throttled from the limit-th failure on: that one is still answered as a failure.
    const throttled = throttledBy(count, limit, now);
    if (throttled) this.remember(key, throttled, now);
    return failureOverLimit(count, limit, now);
  }

  private remember(key: string, throttled: Throttled, now: number): void {
    const previous = this.known.get(key);
    if (previous === throttled.resetAt) return;
    // Redis's replies move the end by a millisecond or so: the same window, told once.
    const first = previous === undefined || previous <= now;
    this.known.delete(key);
    this.known.set(key, throttled.resetAt);
    if (first) this.onThrottled(key, throttled);
    if (this.known.size <= MAX_KNOWN_THROTTLED) return;
    // Maps iterate in insertion order: the oldest entry is forgotten (the store still counts it).
    const oldest = this.known.keys().next();
    if (!oldest.done) this.known.delete(oldest.value);
  }
}

/** The throttle of opened rate limits (null when it is off); each address it throttles is a warning in `log()`. */
export function openCredentialThrottle(
  limits: Pick<RateLimits, 'failures' | 'failedCredentials'> | null,
  now: () => number,
  log: () => { warn(fields: Record<string, unknown>, message: string): void },
): CredentialThrottle | null {
  if (!limits?.failedCredentials) return null;
  return new CredentialThrottle({
    counters: limits.failures,
    limits: limits.failedCredentials,
    now,
    onThrottled: (key, throttled) =>
      log().warn(
        { address: key, retryAfterMs: throttled.retryAfterMs },
        'failed credentials: address throttled until its window ends',
      ),
  });
}
