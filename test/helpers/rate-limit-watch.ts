/**
 * Watching a rate-limited slashd and a REST client from both ends: the server's counters, every
 * count they make written down, and the library's answers and waits.
 */
import type { REST, RateLimitData, ResponseLike } from '@discordjs/rest';
import type { CounterHit, CounterStore, HitResult } from '../../src/core/rate-limits/window.js';
import { MemoryCounters } from '../../src/rate-limits/memory-counters.js';

interface Counted {
  key: string;
  limit: number;
  count: number;
  resetAt: number;
}

/** The memory counters, with every count they make written down. */
export class ObservedCounters implements CounterStore {
  readonly counted: Counted[] = [];
  private readonly inner = new MemoryCounters();

  hit(now: number, route: CounterHit, global: CounterHit | null): HitResult {
    const result = this.inner.hit(now, route, global);
    if (result.global && global) this.counted.push({ key: global.key, limit: global.limit, ...result.global });
    if (result.route) this.counted.push({ key: route.key, limit: route.limit, ...result.route });
    return result;
  }

  /** Every window (a counter and the end it had) with the most requests it counted. */
  windows(): Map<string, Counted> {
    const windows = new Map<string, Counted>();
    for (const c of this.counted) {
      const id = `${c.key}@${c.resetAt}`;
      if ((windows.get(id)?.count ?? 0) < c.count) windows.set(id, c);
    }
    return windows;
  }

  /** The counts of the windows one counter had, in order. */
  countsOf(key: string): number[] {
    return [...this.windows().values()].filter((c) => c.key === key).map((c) => c.count);
  }

  /** Windows that counted more requests than their limit. */
  overfull(): string[] {
    return [...this.windows().entries()]
      .filter(([, c]) => c.count > c.limit)
      .map(([id, c]) => `${id}: ${c.count}/${c.limit}`);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface Refusal {
  body: string;
  headers: Record<string, string | null>;
}

export interface Watched {
  statuses: number[];
  refusals: Refusal[];
  waits: RateLimitData[];
  settled: Promise<void>[];
}

/** Writes down every status the library receives, the body and headers of every 429, and every wait. */
export function watch(rest: REST): Watched {
  const watched: Watched = { statuses: [], refusals: [], waits: [], settled: [] };
  rest.on('rateLimited', (data) => watched.waits.push(data));
  rest.on('response', (_request, response: ResponseLike) => {
    watched.statuses.push(response.status);
    if (response.status !== 429) return;
    const headers: Record<string, string | null> = {};
    for (const name of ['retry-after', 'x-ratelimit-scope', 'x-ratelimit-global']) {
      headers[name] = response.headers.get(name);
    }
    watched.settled.push(
      response.text().then((body) => {
        watched.refusals.push({ body, headers });
      }),
    );
  });
  return watched;
}

/** Stops the library's sweeper timers, so the test process can end. */
export function dispose(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}
