/**
 * The metrics of one slashd server in Prometheus' text format (prom-client). Each server has its
 * own Registry, never prom-client's global one, so that two servers in one process (tests, a
 * benchmark's nodes) count apart. Every label takes a bounded set of values: route patterns (not
 * paths), known methods, status classes, the outcomes of ./metrics.ts.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallOutcome, DependencyName } from '../core/dependencies.js';
import type { FailureReason } from '../resources/interactions/rules/lifecycle.js';
import { DependencySeries, type CacheCounts, type StallSource, type UpSource } from './dependency-series.js';
import type { DeliveryResult, DeliveryTransport, InteractionTransition, Metrics } from './metrics.js';

/** Every metric name starts with this. */
export const METRIC_PREFIX = 'slashd_';

/** Request latency buckets, in seconds: a list GET is a few ms, an invocation waits up to 3 s on its app. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Methods a route can have; anything else is counted as OTHER so that a client cannot invent labels. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** v10's `X-RateLimit-Scope` values; anything else is counted as other. */
const RATE_LIMIT_SCOPES = new Set(['user', 'global', 'shared']);

/** The route label of a request that matched no route (a 404 or 405 by the not-found handler). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The gateway's sessions right now (read at each scrape). */
export interface GatewaySessionSource {
  sessionCounts(): { connections: number; attached: number; resumable: number };
}

/** A connection pool's use right now (PostgreSQL's pg.Pool). */
export interface PoolStatsSource {
  poolStats(): { total: number; idle: number; waiting: number; max: number };
}

/** This process's snowflake node lease. */
export interface NodeLeaseSource {
  readonly nodeId: number;
  /** When the lease was last taken or renewed (ms since the epoch). */
  readonly renewedAt: number;
}

/** This node's Redis link (with many nodes): whether it is up, and the writes Redis refused. */
export interface RedisHealthSource {
  /** Whether both connections are ready and answering. */
  up(): boolean;
  /** Bus events other nodes missed (Redis refused the publish). */
  failedPublishes(): number;
  /** Resume buffer appends Redis refused (a resume past them starts a new session). */
  failedAppends(): number;
}

export function hasPoolStats(store: object): store is PoolStatsSource {
  return typeof (store as Partial<PoolStatsSource>).poolStats === 'function';
}

export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'route' | 'method' | 'status_class'>;
  private readonly rateLimits: Counter<'scope'>;
  private readonly deliveries: Counter<'transport' | 'outcome'>;
  private readonly interactions: Counter<'state'>;
  private readonly interactionFailures: Counter<'reason'>;
  private readonly identifies: Counter;
  private readonly resumes: Counter<'outcome'>;
  private readonly lost: Counter;
  private readonly resent: Counter;
  private readonly dependencies: DependencySeries;

  constructor(private readonly now: () => number = Date.now) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.requests = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by route pattern, method and status class, and how long they took',
      labelNames: ['route', 'method', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.rateLimits = new Counter({
      name: `${METRIC_PREFIX}rate_limited_total`,
      help: 'Requests refused with 429, by the bucket scope (user, global, shared)',
      labelNames: ['scope'],
      registers,
    });
    this.deliveries = new Counter({
      name: `${METRIC_PREFIX}deliveries_total`,
      help: 'Interactions delivered to apps, by transport (http, gateway) and outcome',
      labelNames: ['transport', 'outcome'],
      registers,
    });
    this.interactions = new Counter({
      name: `${METRIC_PREFIX}interactions_total`,
      help: 'Interaction state transitions stored: created, acknowledged, responded, failed',
      labelNames: ['state'],
      registers,
    });
    this.interactionFailures = new Counter({
      name: `${METRIC_PREFIX}interaction_failures_total`,
      help: 'Interactions failed, by reason (timeout, delivery_failure, invalid_response, dependency_unavailable)',
      labelNames: ['reason'],
      registers,
    });
    this.identifies = new Counter({
      name: `${METRIC_PREFIX}gateway_identifies_total`,
      help: 'Gateway sessions started by IDENTIFY',
      registers,
    });
    this.resumes = new Counter({
      name: `${METRIC_PREFIX}gateway_resumes_total`,
      help: 'Gateway RESUMEs, by outcome (resumed, invalid)',
      labelNames: ['outcome'],
      registers,
    });
    this.lost = new Counter({
      name: `${METRIC_PREFIX}gateway_interactions_lost_total`,
      help: 'Accepted interactions that reached no session of their app before they failed',
      registers,
    });
    this.resent = new Counter({
      name: `${METRIC_PREFIX}gateway_interactions_resent_total`,
      help: 'Interactions sent again after their session died (replayed after RESUME, or to a new session)',
      registers,
    });
    this.dependencies = new DependencySeries(this.registry);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text of every metric of this server. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  request(route: string, method: string, status: number, seconds: number): void {
    const statusClass = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
    this.requests.observe(
      { route, method: KNOWN_METHODS.has(method) ? method : 'OTHER', status_class: statusClass },
      seconds,
    );
  }

  rateLimited(scope: string): void {
    this.rateLimits.inc({ scope: RATE_LIMIT_SCOPES.has(scope) ? scope : 'other' });
  }

  delivery(transport: DeliveryTransport, outcome: DeliveryResult): void {
    this.deliveries.inc({ transport, outcome });
  }

  interaction(state: InteractionTransition, reason?: FailureReason | null): void {
    this.interactions.inc({ state });
    if (state === 'failed') this.interactionFailures.inc({ reason: reason ?? 'unknown' });
  }

  identified(): void {
    this.identifies.inc();
  }

  resumed(outcome: 'resumed' | 'invalid'): void {
    this.resumes.inc({ outcome });
  }

  interactionLost(): void {
    this.lost.inc();
  }

  interactionResent(): void {
    this.resent.inc();
  }

  dependencyCall(dependency: DependencyName, outcome: CallOutcome, seconds: number): void {
    this.dependencies.call(dependency, outcome, seconds);
  }

  busReceived(lagSeconds: number, dropped: boolean): void {
    this.dependencies.busReceived(lagSeconds, dropped);
  }

  /** The database's call series from the start, and `slashd_database_up`. */
  watchDatabase(database: UpSource & StallSource): void {
    this.dependencies.zeroCalls('database');
    this.dependencies.watchUp('database', database, 'database_up');
    this.dependencies.watchOldestCall('database', database, 'database_oldest_call_seconds');
  }

  /** Cache lookups by cache and outcome (the hit ratio), read at each scrape. */
  watchCaches(source: () => readonly CacheCounts[]): void {
    this.dependencies.watchCaches(source);
  }

  /** Gauges of the gateway's sessions, read at each scrape. */
  watchGateway(gateway: GatewaySessionSource): void {
    const registers = [this.registry];
    new Gauge({
      name: `${METRIC_PREFIX}gateway_connections`,
      help: 'Open gateway WebSocket connections (identified or not)',
      registers,
      collect() {
        this.set(gateway.sessionCounts().connections);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}gateway_sessions`,
      help: 'Gateway sessions held by this node: attached to a socket, or detached and still resumable',
      labelNames: ['state'],
      registers,
      collect() {
        const counts = gateway.sessionCounts();
        this.set({ state: 'attached' }, counts.attached);
        this.set({ state: 'resumable' }, counts.resumable);
      },
    });
  }

  /** Gauges of the store's connection pool (PostgreSQL), read at each scrape. */
  watchStorePool(pool: PoolStatsSource): void {
    new Gauge({
      name: `${METRIC_PREFIX}store_pool_connections`,
      help: 'Store pool connections: total open, idle, and the pool maximum',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const stats = pool.poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'max' }, stats.max);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}store_pool_waiting`,
      help: 'Queries waiting for a free store pool connection',
      registers: [this.registry],
      collect() {
        this.set(pool.poolStats().waiting);
      },
    });
  }

  /** Redis's health as this node sees it, read at each scrape (connection errors are otherwise silent). */
  watchRedis(redis: RedisHealthSource): void {
    this.dependencies.zeroCalls('redis');
    new Gauge({
      name: `${METRIC_PREFIX}redis_up`,
      help: "1 while this node's Redis connections are ready and answering, 0 while Redis is away or stalled",
      registers: [this.registry],
      collect() {
        this.set(redis.up() ? 1 : 0);
      },
    });
    const seen = { bus_publish: 0, resume_append: 0 };
    new Counter({
      name: `${METRIC_PREFIX}redis_failed_writes_total`,
      help: 'Writes Redis refused: bus events other nodes missed, resume buffer appends lost',
      labelNames: ['write'],
      registers: [this.registry],
      collect() {
        // The sources count on their own; each scrape adds what they counted since the last one.
        for (const [write, now] of [
          ['bus_publish', redis.failedPublishes()],
          ['resume_append', redis.failedAppends()],
        ] as const) {
          this.inc({ write }, Math.max(0, now - seen[write]));
          seen[write] = Math.max(seen[write], now);
        }
      },
    });
  }

  /** Gauges of this process's snowflake node lease. */
  watchNodeLease(lease: NodeLeaseSource): void {
    const now = this.now;
    new Gauge({
      name: `${METRIC_PREFIX}node_id`,
      help: 'The snowflake node id this process holds (a change means the lease lapsed and was retaken)',
      registers: [this.registry],
      collect() {
        this.set(lease.nodeId);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}node_lease_age_seconds`,
      help: 'Seconds since the node lease was last renewed (renewed every 15 s, lapses after 60 s)',
      registers: [this.registry],
      collect() {
        this.set(Math.max(0, now() - lease.renewedAt) / 1000);
      },
    });
  }
}
