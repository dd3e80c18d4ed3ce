/**
 * What slashd counts, as small interfaces its parts call: the HTTP hook, the rate limiter, the
 * interactions and responses services, the gateway. Nothing here knows prom-client; the one
 * implementation is ./prometheus.ts, built per server in src/app.ts. `NO_METRICS` is the default
 * of every part, so a part built alone (in a test, a benchmark) needs none.
 */
import type { CallOutcome, DependencyName } from '../core/dependencies.js';
import type { FailureReason } from '../resources/interactions/rules/lifecycle.js';

/** How one delivery of an interaction to its app ended. */
export type DeliveryResult =
  /** HTTP: the endpoint answered 200/201 with JSON, 202 or 204. Gateway: published to a session. */
  | 'ok'
  /** HTTP: no answer before the 3 s deadline. */
  | 'timeout'
  /** HTTP: no connection (refused, reset, unresolvable). */
  | 'connect_error'
  /** HTTP: any other status (4xx, 5xx, 3xx). */
  | 'bad_status'
  /** HTTP: 200 whose body is not JSON. */
  | 'invalid_json'
  /** HTTP: the answer was larger than slashd reads. */
  | 'too_large'
  /** HTTP: the endpoint's address is refused by the outbound policy. */
  | 'policy'
  /** Gateway: the app has no endpoint and no connected session. */
  | 'no_session'
  | 'error';

export type DeliveryTransport = 'http' | 'gateway';

/** Where an interaction went: created, then acknowledged (deferred), responded, or failed. */
export type InteractionTransition = 'created' | 'acknowledged' | 'responded' | 'failed';

/** The rate limiter's count: a request refused with 429, by its bucket's `X-RateLimit-Scope`. */
export interface RateLimitMetrics {
  rateLimited(scope: string): void;
}

export interface DeliveryMetrics {
  delivery(transport: DeliveryTransport, result: DeliveryResult): void;
}

export interface InteractionMetrics {
  /** One transition that was stored (a lost compare-and-set is not counted). */
  interaction(state: InteractionTransition, reason?: FailureReason | null): void;
}

export interface GatewayMetrics {
  identified(): void;
  /** A RESUME: `resumed` replayed the session, `invalid` was told INVALID_SESSION. */
  resumed(outcome: 'resumed' | 'invalid'): void;
  /** An accepted interaction that reached no session of its app before it failed (its session died). */
  interactionLost(): void;
  /** An interaction sent again after its session died: replayed after a RESUME, or to the app's next session. */
  interactionResent(): void;
  /** Dispatches a RESUME sent the client that it had missed (from the resume buffer, or caught up from the dispatch log). */
  dispatchesReplayed(count: number): void;
  /**
   * A session told INVALID_SESSION (d: false) because its missed dispatches could not all be
   * replayed: `log_gap` (the dispatch log could not say), `buffer_gap` (its buffer lost some),
   * `publish_failed` or `log_lost` (the bus could not carry some events).
   */
  sessionInvalidated(reason: SessionInvalidReason): void;
}

export type SessionInvalidReason = 'log_gap' | 'buffer_gap' | 'publish_failed' | 'log_lost';

/** Calls to the database and Redis: how each ended and how long it took. */
export interface DependencyMetrics {
  dependencyCall(dependency: DependencyName, outcome: CallOutcome, seconds: number): void;
}

/** Bus events received from other nodes: how late, and whether dropped as stale (redis-bus.ts). */
export interface BusMetrics {
  busReceived(lagSeconds: number, dropped: boolean): void;
}

/** One finished HTTP request: its route pattern (not its path), method, status and duration. */
export interface HttpMetrics {
  request(route: string, method: string, status: number, seconds: number): void;
}

export interface Metrics
  extends
    RateLimitMetrics,
    DeliveryMetrics,
    InteractionMetrics,
    GatewayMetrics,
    HttpMetrics,
    DependencyMetrics,
    BusMetrics {}

/** Counts nothing. */
export const NO_METRICS: Metrics = {
  rateLimited() {},
  delivery() {},
  interaction() {},
  identified() {},
  resumed() {},
  interactionLost() {},
  interactionResent() {},
  dispatchesReplayed() {},
  sessionInvalidated() {},
  request() {},
  dependencyCall() {},
  busReceived() {},
};
