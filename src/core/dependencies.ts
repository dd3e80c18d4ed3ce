/**
 * What slashd depends on at run time (its database, and Redis with many nodes), as the parts that
 * talk to them report it: how each call ended, and when a dependency went away or came back. The
 * store and the Redis link report through a `DependencyObserver`; metrics and logs listen
 * (wired in src/app.ts). A request that cannot be served because a dependency is away fails with
 * `DependencyUnavailableError`, which the HTTP edge answers with a v10 503.
 */

export type DependencyName = 'database' | 'redis';

/**
 * How one call to a dependency ended: `ok`; `timeout` (no answer within the client's bound);
 * `unavailable` (refused, cut, or not connected); `error` (answered with an error: a constraint,
 * a bad statement).
 */
export type CallOutcome = 'ok' | 'error' | 'timeout' | 'unavailable';

export interface DependencyObserver {
  /** One call (a query, a Redis command) and how long it took, in seconds. */
  call(outcome: CallOutcome, seconds: number): void;
  /** The dependency went away (`up` false, `detail` says why) or came back (`up` true). */
  changed(up: boolean, detail: string): void;
}

/** Observes nothing: the default until src/app.ts wires metrics and logs. */
export const NO_DEPENDENCY_OBSERVER: DependencyObserver = {
  call() {},
  changed() {},
};

/** A request needs a dependency that is away right now; the HTTP edge answers 503. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: DependencyName,
    detail: string,
  ) {
    super(`${dependency} unavailable: ${detail}`);
    this.name = 'DependencyUnavailableError';
  }
}

/**
 * Tracks whether a dependency is up from the outcomes of its calls, and reports each change once:
 * a call that finds it unreachable marks it down, the next one that succeeds marks it up again.
 */
export class DependencyState {
  private up = true;

  constructor(private readonly observer: () => DependencyObserver) {}

  isUp(): boolean {
    return this.up;
  }

  /**
   * Records a call's outcome; `detail` says why a failed one failed. `reached`: whether the
   * dependency itself answered (by default, when the outcome is `ok` or `error`; a statement the
   * server cancelled for its time is a `timeout` that was answered).
   */
  record(outcome: CallOutcome, seconds: number, detail = '', reached = outcome === 'ok' || outcome === 'error'): void {
    this.observer().call(outcome, seconds);
    if (reached) this.set(true, 'answering again');
    else this.set(false, detail || outcome);
  }

  /** Sets the state directly (a connection's own events); reports it only if it changed, and says whether it did. */
  set(up: boolean, detail: string): boolean {
    if (up === this.up) return false;
    this.up = up;
    this.observer().changed(up, detail);
    return true;
  }
}
