/** Rate-limit counters in this process's memory: exact for one node (several nodes share Redis counters). */
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

export class MemoryCounters implements CounterStore {
  private readonly counts = new Map<string, WindowCount>();
  private nextSweep = 0;

  constructor(private readonly maxCounters = MAX_COUNTERS) {}

  hit(now: number, route: CounterHit, global: CounterHit | null): HitResult {
    if (now >= this.nextSweep) this.sweep(now);
    let globalCount: WindowCount | null = null;
    if (global) {
      globalCount = this.count(global, now);
      if (globalCount.count > global.limit) return { global: globalCount, route: null };
    }
    return { global: globalCount, route: this.count(route, now) };
  }

  /** Live counters (for tests of the sweep). */
  get size(): number {
    return this.counts.size;
  }

  async close(): Promise<void> {
    this.counts.clear();
  }

  private count(hit: CounterHit, now: number): WindowCount {
    const next = countIn(this.counts.get(hit.key), now, hit.windowMs);
    this.counts.set(hit.key, next);
    if (this.counts.size > this.maxCounters) this.forgetOldest(now);
    return next;
  }

  private forgetOldest(now: number): void {
    this.sweep(now);
    // Maps iterate in insertion order: the first keys are the longest-lived counters.
    for (const key of this.counts.keys()) {
      if (this.counts.size <= this.maxCounters) break;
      this.counts.delete(key);
    }
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, count] of this.counts) if (count.resetAt <= now) this.counts.delete(key);
  }
}
