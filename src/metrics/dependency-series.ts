/**
 * The series an operator alerts on when a dependency fails: database and Redis calls (latency and
 * outcome), whether each is up, the caches' hit ratio, the bus's lag across nodes. Part of
 * PrometheusMetrics (./prometheus.ts), on its registry; every label takes a value from a fixed list.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CacheCounts } from '../core/byte-lru.js';
import type { CallOutcome, DependencyName } from '../core/dependencies.js';

const PREFIX = 'slashd_';

/** Call latency buckets, in seconds: a query or a Redis command takes well under a millisecond to a few; a stall reaches its timeout. */
const CALL_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Bus lag buckets, in seconds: another node's event arrives in a millisecond or so; seconds mean Redis stalled. */
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 3, 10, 30];

const OUTCOMES: readonly CallOutcome[] = ['ok', 'error', 'timeout', 'unavailable'];

export type { CacheCounts } from '../core/byte-lru.js';

/** Turns counts that only grow, read at each scrape, into a counter's increments since the last scrape. */
function sinceLastScrape(): (key: string, now: number) => number {
  const seen = new Map<string, number>();
  return (key, now) => {
    const before = seen.get(key) ?? 0;
    seen.set(key, Math.max(before, now));
    return Math.max(0, now - before);
  };
}

/** A dependency's state now. */
export interface UpSource {
  isUp(): boolean;
}

/** A dependency whose calls under way can be timed. */
export interface StallSource {
  oldestCallSeconds(): number;
}

export class DependencySeries {
  private readonly calls: Histogram<'dependency' | 'outcome'>;
  private readonly busLag: Histogram;
  private readonly busDropped: Counter;

  constructor(private readonly registry: Registry) {
    const registers = [registry];
    this.calls = new Histogram({
      name: `${PREFIX}dependency_call_duration_seconds`,
      help: 'Calls to the database and Redis, by outcome (ok, error, timeout, unavailable), and how long they took',
      labelNames: ['dependency', 'outcome'],
      buckets: CALL_BUCKETS,
      registers,
    });
    this.busLag = new Histogram({
      name: `${PREFIX}bus_lag_seconds`,
      help: 'How long after its publishing an event from another node arrived (with Redis)',
      buckets: LAG_BUCKETS,
      registers,
    });
    this.busDropped = new Counter({
      name: `${PREFIX}bus_events_dropped_total`,
      help: 'Events from another node dropped because they arrived past their deadline (a stalled Redis)',
      registers,
    });
  }

  call(dependency: DependencyName, outcome: CallOutcome, seconds: number): void {
    this.calls.observe({ dependency, outcome }, seconds);
  }

  busReceived(lagSeconds: number, dropped: boolean): void {
    this.busLag.observe(lagSeconds);
    if (dropped) this.busDropped.inc();
  }

  /** The dependency's call series, present at zero from the start. */
  zeroCalls(dependency: DependencyName): void {
    for (const outcome of OUTCOMES) this.calls.zero({ dependency, outcome });
  }

  /** A gauge named `name`: 1 while `source` is up, read at each scrape. */
  watchUp(dependency: DependencyName, source: UpSource, name: string): void {
    new Gauge({
      name: `${PREFIX}${name}`,
      help: `1 while this node's ${dependency} answers, 0 while it is away or stalled`,
      registers: [this.registry],
      collect() {
        this.set(source.isUp() ? 1 : 0);
      },
    });
  }

  /** A gauge named `name`: how long the oldest call under way has waited, read at each scrape. */
  watchOldestCall(dependency: DependencyName, source: StallSource, name: string): void {
    new Gauge({
      name: `${PREFIX}${name}`,
      help: `Seconds the oldest ${dependency} call under way (a query, or a wait for a connection) has waited; 0 when none: rises from the first second of a stall`,
      registers: [this.registry],
      collect() {
        this.set(source.oldestCallSeconds());
      },
    });
  }

  /**
   * Cache lookups by cache and outcome, and the entries each cache evicted to make room, read at
   * each scrape from the caches' own counts.
   */
  watchCaches(source: () => readonly CacheCounts[]): void {
    const lookups = sinceLastScrape();
    new Counter({
      name: `${PREFIX}cache_lookups_total`,
      help: 'Cache lookups by cache and outcome (hit, miss): the hit ratio is hit / (hit + miss)',
      labelNames: ['cache', 'outcome'],
      registers: [this.registry],
      collect() {
        for (const counts of source()) {
          for (const outcome of ['hit', 'miss'] as const) {
            const now = outcome === 'hit' ? counts.hits : counts.misses;
            this.inc({ cache: counts.cache, outcome }, lookups(`${counts.cache}/${outcome}`, now));
          }
        }
      },
    });
    const evictions = sinceLastScrape();
    new Counter({
      name: `${PREFIX}cache_evictions_total`,
      help: 'Entries a cache dropped to make room for others (writes drop theirs apart): a steady rise says its working set does not fit --cache-mb',
      labelNames: ['cache'],
      registers: [this.registry],
      collect() {
        for (const counts of source()) {
          if (counts.evictions !== undefined)
            this.inc({ cache: counts.cache }, evictions(counts.cache, counts.evictions));
        }
      },
    });
  }
}
