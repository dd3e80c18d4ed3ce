/**
 * The decision, pure: fixed windows that start at their first request (as v10's reset times
 * suggest), a global counter per caller and a counter per bucket and major parameters. A counter
 * store (in memory, or Redis shared by every node) counts; this module says what the counts mean.
 */
import { MIN_RETRY_AFTER_MS } from './limits.js';
import type { WindowLimit } from './presets.js';

/** One counter after counting a request: the requests its window has seen, and when it ends (ms). */
export interface WindowCount {
  readonly count: number;
  readonly resetAt: number;
}

/** One counter to count a request in. */
export interface CounterHit extends WindowLimit {
  readonly key: string;
}

/** What a counter store answers: the route counter is not counted (null) when the global one refused. */
export interface HitResult {
  readonly global: WindowCount | null;
  readonly route: WindowCount | null;
}

/** Counts requests; every node sharing one store shares the counts. */
export interface CounterStore {
  /** Counts one request in `global` (when given) and, unless that is over its limit, in `route`. */
  hit(now: number, route: CounterHit, global: CounterHit | null): HitResult | Promise<HitResult>;
  close(): Promise<void>;
}

/** Counting one request in a window that starts at its first request; the in-memory store's step. */
export function countIn(current: WindowCount | undefined, now: number, windowMs: number): WindowCount {
  if (current === undefined || current.resetAt <= now) return { count: 1, resetAt: now + windowMs };
  return { count: current.count + 1, resetAt: current.resetAt };
}

/** Whether a counter that has counted a request is within its limit. */
export function withinLimit(count: WindowCount, limit: number): boolean {
  return count.count <= limit;
}

/** The bucket as the `X-RateLimit-*` headers report it. */
export interface BucketState {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch ms. */
  readonly resetAt: number;
  readonly resetAfterMs: number;
}

export type Decision =
  | { readonly allowed: true; readonly bucket: BucketState }
  | {
      readonly allowed: false;
      readonly scope: 'user' | 'global';
      readonly retryAfterMs: number;
      /** Absent when the global limit refused before the bucket was counted. */
      readonly bucket: BucketState | null;
    };

function stateOf(count: WindowCount, limit: number, now: number): BucketState {
  return {
    limit,
    remaining: Math.max(0, limit - count.count),
    resetAt: count.resetAt,
    resetAfterMs: Math.max(0, count.resetAt - now),
  };
}

function retryAfter(count: WindowCount, now: number): number {
  return Math.max(MIN_RETRY_AFTER_MS, count.resetAt - now);
}

export function decide(hit: HitResult, route: WindowLimit, global: WindowLimit | null, now: number): Decision {
  if (hit.global && global && !withinLimit(hit.global, global.limit)) {
    return { allowed: false, scope: 'global', retryAfterMs: retryAfter(hit.global, now), bucket: null };
  }
  // A store always counts the route when the global counter admitted the request.
  const count = hit.route ?? { count: 1, resetAt: now + route.windowMs };
  const bucket = stateOf(count, route.limit, now);
  if (withinLimit(count, route.limit)) return { allowed: true, bucket };
  return { allowed: false, scope: 'user', retryAfterMs: retryAfter(count, now), bucket };
}

/** Seconds with millisecond precision, as v10 writes them in headers and bodies. */
export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** The `X-RateLimit-*` headers of a bucket. */
export function bucketHeaders(hash: string, bucket: BucketState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(bucket.limit),
    'x-ratelimit-remaining': String(bucket.remaining),
    'x-ratelimit-reset': seconds(bucket.resetAt).toFixed(3),
    'x-ratelimit-reset-after': seconds(bucket.resetAfterMs).toFixed(3),
    'x-ratelimit-bucket': hash,
  };
}

/**
 * The extra headers of a 429: the scope, and v10's global flag. `Retry-After` (whole seconds, as
 * HTTP has it) is written from the body's `retry_after` where every 429 is sent (src/http/errors.ts).
 */
export function refusalHeaders(decision: Extract<Decision, { allowed: false }>): Record<string, string> {
  const headers: Record<string, string> = { 'x-ratelimit-scope': decision.scope };
  if (decision.scope === 'global') headers['x-ratelimit-global'] = 'true';
  return headers;
}
