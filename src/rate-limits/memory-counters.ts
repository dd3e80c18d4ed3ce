/** Rate-limit counters in this process's memory: exact for one node (several nodes share Redis counters). */
import type { FailureCounters } from '../core/rate-limits/failures.js';
import {
  countIn,
  type CounterHit,
  type CounterStore,
  type HitResult,
  type WindowCount,
} from '../core/rate-limits/window.js';

/** How often ended windows are dropped, so memory holds only live counters (a window is at most a minute). */
const SWEEP_INTERVAL_MS = 10_000;
/**
 * Live counters kept at most (about 100 bytes each): beyond, the oldest are forgotten, which only
 * restarts their windows. A flood of distinct callers costs bounded memory, never a crash.
 */
export const MAX_COUNTERS = 1_000_000;
/**
 * At the bound, this share of it is forgotten at once (oldest first), so a flood of new callers
 * costs O(1) per request amortised, not a pass over every counter per request.
 */
const EVICTION_SHARE = 0.01;

export class MemoryCounters implements CounterStore, FailureCounters {
  private readonly counts = new Map<string, WindowCount>();
  private nextSweep = 0;
  private evictionPasses = 0;
  private readonly evictionBatch: number;

  constructor(private readonly maxCounters = MAX_COUNTERS) {
    this.evictionBatch = Math.max(1, Math.ceil(maxCounters * EVICTION_SHARE));
  }

  hit(now: number, route: CounterHit, global: CounterHit | null): HitResult {
    if (now >= this.nextSweep) this.sweep(now);
    let globalCount: WindowCount | null = null;
    if (global) {
      globalCount = this.count(global, now);
      if (globalCount.count > global.limit) return { global: globalCount, route: null };
    }
    return { global: globalCount, route: this.count(route, now) };
  }

  fail(now: number, key: string, windowMs: number): WindowCount {
    if (now >= this.nextSweep) this.sweep(now);
    return this.count({ key: `f:${key}`, windowMs }, now);
  }

  failures(now: number, key: string): WindowCount | null {
    const count = this.counts.get(`f:${key}`);
    return count !== undefined && count.resetAt > now ? count : null;
  }

  /** Live counters (for tests of the sweep). */
  get size(): number {
    return this.counts.size;
  }

  /** How many times counters were forgotten at the bound (for tests that eviction is batched). */
  get evictions(): number {
    return this.evictionPasses;
  }

  async close(): Promise<void> {
    this.counts.clear();
  }

  private count(hit: Pick<CounterHit, 'key' | 'windowMs'>, now: number): WindowCount {
    const next = countIn(this.counts.get(hit.key), now, hit.windowMs);
    this.counts.set(hit.key, next);
    if (this.counts.size > this.maxCounters) this.forgetOldest();
    return next;
  }

  /** Forgets a batch of the oldest counters (only restarting their windows), never the whole map. */
  private forgetOldest(): void {
    this.evictionPasses++;
    const target = this.maxCounters - this.evictionBatch;
    // Maps iterate in insertion order: the first keys are the longest-lived counters.
    for (const key of this.counts.keys()) {
      if (this.counts.size <= target) break;
      this.counts.delete(key);
    }
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, count] of this.counts) if (count.resetAt <= now) this.counts.delete(key);
  }
}
