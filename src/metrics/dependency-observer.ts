/**
 * What the database and the Redis link report (src/core/dependencies.ts), turned into metrics and
 * log lines: every call into `slashd_dependency_call_duration_seconds`, and each change of state
 * into one log line (a JSON line with `--log-format json`), never a stack trace per retry.
 */
import type { DependencyName, DependencyObserver } from '../core/dependencies.js';
import type { DependencyMetrics } from './metrics.js';
import type { CacheCounts } from './dependency-series.js';

/** Where state changes are written (the server's pino logger fits). */
export interface StateLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * The observer of one dependency. Both changes are warnings: with the default level (warn) the
 * operator sees when an outage began and when it ended.
 */
export function dependencyObserver(
  dependency: DependencyName,
  metrics: DependencyMetrics,
  log: StateLog,
): DependencyObserver {
  return {
    call: (outcome, seconds) => metrics.dependencyCall(dependency, outcome, seconds),
    changed(up, detail) {
      if (up) log.warn({ dependency, state: 'up' }, `${dependency} reachable again`);
      else log.warn({ dependency, state: 'down', reason: detail }, `${dependency} connection lost`);
    },
  };
}

/** A dependency that reports its calls and state (the PostgreSQL store, the Redis link). */
export interface ObservableDependency {
  observe(observer: DependencyObserver): void;
  isUp(): boolean;
}

export function isObservableDependency(value: object): value is ObservableDependency {
  const candidate = value as Partial<ObservableDependency>;
  return typeof candidate.observe === 'function' && typeof candidate.isUp === 'function';
}

/** A dependency that can time its calls under way (the PostgreSQL store). */
function hasStallSource<T extends object>(value: T): value is T & { oldestCallSeconds(): number } {
  return typeof (value as { oldestCallSeconds?: unknown }).oldestCallSeconds === 'function';
}

/** Caches report their lookups (the hit ratio). */
export interface CacheCountsSource {
  cacheCounts(): readonly CacheCounts[];
}

export function hasCacheCounts(value: object): value is CacheCountsSource {
  return typeof (value as Partial<CacheCountsSource>).cacheCounts === 'function';
}

/** What `watchDependencies` needs of the metrics. */
interface DependencyWatcher extends DependencyMetrics {
  watchDatabase(database: { isUp(): boolean; oldestCallSeconds(): number }): void;
  watchCaches(source: () => readonly CacheCounts[]): void;
}

/**
 * Wires the store and the Redis link (when they report) and every cache to the metrics and the
 * log: called once the server's logger exists.
 */
export function watchDependencies(
  metrics: DependencyWatcher,
  log: StateLog,
  parts: { store: object; redis: ObservableDependency | null; caches: readonly CacheCountsSource[] },
): void {
  if (isObservableDependency(parts.store)) {
    parts.store.observe(dependencyObserver('database', metrics, log));
    if (hasStallSource(parts.store)) metrics.watchDatabase(parts.store);
  }
  parts.redis?.observe(dependencyObserver('redis', metrics, log));
  const caches = hasCacheCounts(parts.store) ? [parts.store, ...parts.caches] : parts.caches;
  metrics.watchCaches(() => caches.flatMap((source) => source.cacheCounts()));
}
