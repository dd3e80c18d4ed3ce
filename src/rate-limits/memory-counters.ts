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

export class MemoryCounters implements CounterStore {
  private readonly counts = new Map<string, WindowCount>();
  private nextSweep = 0;

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
    return next;
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, count] of this.counts) if (count.resetAt <= now) this.counts.delete(key);
  }
}
