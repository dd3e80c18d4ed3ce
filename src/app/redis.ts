/**
 * What a node shares with the others of its deployment through Redis, when it has one (`redisUrl`):
 * the bus, the gateway's sessions and resume buffers (a bot resumes on any node), the session
 * start limit, and the rate limits' windows. On its own, a node keeps each of them in process.
 */
import { RESUME_BUFFER_EVENTS } from '../core/gateway/protocol.js';
import { InProcessEventBus, type EventBus } from '../events/bus.js';
import { RedisEventBus } from '../events/redis-bus.js';
import type { RedisLink } from '../events/redis-link.js';
import { RedisPendingInteractions } from '../gateway/pending-interactions.js';
import { RedisResumeBuffer } from '../gateway/redis-resume-buffer.js';
import { RedisSessionRegistry, type RegistryLog } from '../gateway/session-registry.js';
import { RedisSessionStarts } from '../gateway/session-starts.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import type { RateLimitConfig } from '../rate-limits/config.js';
import type { SlashdConfig } from './config.js';

/** The bus, and what the metrics report of it. */
export interface OpenedBus {
  bus: EventBus;
  failedPublishes(): number;
  /** Dispatch events the bus could not carry (each marked as a gap: their sessions are invalidated). */
  droppedEvents(): number;
  close(): Promise<void>;
}

/** The bus: in process on one node; with Redis, shared by every node of the deployment. */
export async function openBus(
  redis: RedisLink | null,
  metrics: PrometheusMetrics,
  durable?: () => Promise<void> | undefined,
): Promise<OpenedBus> {
  if (!redis) {
    return {
      bus: new InProcessEventBus(durable),
      failedPublishes: () => 0,
      droppedEvents: () => 0,
      close: async () => {},
    };
  }
  const bus = await RedisEventBus.open({
    publisher: redis.commands,
    subscriber: redis.subscriber,
    channel: redis.channel('bus'),
    lag: metrics,
    log: redis.key('gw:log'),
  });
  // A dispatch event Redis refused is marked as a gap in the log as soon as Redis is back.
  redis.onUp(() => bus.markGap());
  return {
    bus,
    failedPublishes: () => bus.failedPublishes,
    droppedEvents: () => bus.droppedEvents,
    close: () => bus.close(),
  };
}

/** The gateway's shared state; each absent (the gateway's own in-memory one) without Redis. */
export interface SharedGatewayState {
  registry?: RedisSessionRegistry | undefined;
  resumeBuffer?: RedisResumeBuffer | undefined;
  sessionStarts?: RedisSessionStarts | undefined;
  /** Interactions handed to sessions, re-sent if a session dies with its node. */
  pending?: RedisPendingInteractions | undefined;
}

/**
 * With Redis, gateway sessions and their resume buffers are shared: a bot resumes on any node.
 * When the link comes back, the sessions this node holds are written again (a Redis that
 * restarted empty lost them).
 */
export function sharedGatewayState(
  redis: RedisLink | null,
  resumeBufferChars: number,
  log: RegistryLog | null,
): SharedGatewayState {
  if (!redis) return {};
  const registry = new RedisSessionRegistry(redis.commands, redis.prefix, log);
  const resumeBuffer = new RedisResumeBuffer(
    redis.commands,
    registry.keys,
    registry.node,
    RESUME_BUFFER_EVENTS,
    resumeBufferChars,
  );
  redis.onUp(() => void registry.restore());
  return {
    registry,
    resumeBuffer,
    sessionStarts: new RedisSessionStarts(redis.commands, redis.prefix),
    pending: new RedisPendingInteractions(redis.commands, registry.keys),
  };
}

/**
 * With Redis, every node counts against the same windows, on a connection of their own that
 * gives up quickly (a Redis outage must not hold every API request up, only unlimit it).
 */
export function sharedRateLimits(
  config: Pick<SlashdConfig, 'redisUrl' | 'rateLimits'>,
  redis: RedisLink | null,
): RateLimitConfig | undefined {
  return redis && config.redisUrl && config.rateLimits && config.rateLimits.redis === undefined
    ? {
        ...config.rateLimits,
        redis: config.redisUrl,
        redisPrefix: redis.key('rl:'),
        redisAvailable: () => redis.isUp(),
      }
    : config.rateLimits;
}

/** Redis's health in the metrics: up, and what was lost while it was away. */
export function watchRedis(
  metrics: PrometheusMetrics,
  redis: RedisLink | null,
  bus: OpenedBus,
  gateway: SharedGatewayState,
): void {
  if (!redis) return;
  metrics.watchDroppedDispatches(() => bus.droppedEvents());
  metrics.watchRedis({
    up: () => redis.isUp(),
    failedPublishes: () => bus.failedPublishes(),
    failedAppends: () => gateway.resumeBuffer?.failedAppends ?? 0,
  });
}
