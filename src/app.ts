/**
 * The one place where slashd is wired: configuration (src/app/config.ts), the logger, the store,
 * what is shared through Redis, the gateway, the services (src/app/services.ts) and the HTTP
 * adapter, each given at construction what it calls.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EventBus } from './events/bus.js';
import { presenceNeedingRedis, RedisLink } from './events/redis-link.js';
import { Gateway } from './gateway/gateway.js';
import { buildServer } from './http/server.js';
import { clientAddressOf } from './http/client-address.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, drain } from './http/drain.js';
import { HostPolicy } from './http/allowed-hosts.js';
import { hasPoolStats, PrometheusMetrics } from './metrics/prometheus.js';
import { watchDependencies } from './metrics/dependency-observer.js';
import { NodeLease } from './resources/node-leases/service.js';
import { guildCreateEvents } from './resources/scheduled-events/guild-create-events.js';
import { openRateLimits } from './rate-limits/config.js';
import { openCredentialThrottle } from './rate-limits/credential-throttle.js';
import { AppUsageRecorder } from './resources/usage/service.js';
import { FaultTable } from './faults/fault-table.js';
import type { SnowflakeGenerator } from './core/snowflake.js';
import type { Store } from './store/store.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { DEFAULT_CONSOLE_FOLDER, DEFAULT_REDIS_PREFIX, gatewayOptionsOf, type SlashdConfig } from './app/config.js';
import { openLogger, QUIET_LOG } from './app/logger.js';
import { openBus, sharedGatewayState, sharedRateLimits, watchRedis } from './app/redis.js';
import { ServerAddress } from './app/server-address.js';
import { buildServices } from './app/services.js';
import { openStore, type OpenedStore } from './app/store.js';
import type { WorldChangeSummary } from './core/world/world-change.js';

export {
  DEFAULT_CONSOLE_FOLDER,
  DEFAULT_DB_SCHEMA,
  DEFAULT_REDIS_PREFIX,
  type LogDestination,
  type SlashdConfig,
} from './app/config.js';

export interface Slashd {
  server: FastifyInstance;
  store: Store;
  bus: EventBus;
  /** The snowflake generator of this process's leased node id. */
  ids: SnowflakeGenerator;
  /** The WebSocket gateway on the HTTP server (its sessions, `sweep()` for tests). */
  gateway: Gateway;
  adminToken: string;
  /** This server's metrics (its own registry): what `GET /metrics` serves. */
  metrics: PrometheusMetrics;
  /** The node's Redis connections when it runs with others (`redisUrl`); null on its own. */
  redis: RedisLink | null;
  /** Injected faults of this node (what `/admin/faults` adds). */
  faults: FaultTable;
  /**
   * What the start-up world file (`worldFile`) changed; null when it was the file imported last
   * (nothing read nor written); undefined without one.
   */
  worldImport: WorldChangeSummary | null | undefined;
  listen(options: { host: string; port: number }): Promise<string>;
  /**
   * Drains and stops: requests under way finish, console streams end, gateway clients RECONNECT,
   * and past the drain timeout every connection left is cut; then the node id lease is released.
   */
  close(): Promise<void>;
}

export async function createSlashd(config: SlashdConfig): Promise<Slashd> {
  const now = config.now ?? Date.now;
  const opened = await openStore(config, now);
  let redis: RedisLink | null = null;
  try {
    const prefix = config.redisPrefix ?? DEFAULT_REDIS_PREFIX;
    if (config.redisUrl) redis = await RedisLink.connect(config.redisUrl, prefix, config.redisTimeouts);
    return await assemble(config, now, opened, redis);
  } catch (error) {
    // A node that cannot start (Redis away, no free node id, an invalid start-up world) leaves nothing open.
    await redis?.close();
    await opened.store.close();
    throw error;
  }
}

async function assemble(
  config: SlashdConfig,
  now: () => number,
  opened: OpenedStore,
  redis: RedisLink | null,
): Promise<Slashd> {
  const { store, exclusively } = opened;
  const logger = openLogger(config);
  const metrics = new PrometheusMetrics(now);
  // The store's pending commit: replies, bus events and deliveries wait for it (none pending
  // unless a lone SQLite node commits by turn, below).
  const durable = () => store.durable?.();
  const events = await openBus(redis, metrics, durable);
  const bus = events.bus;
  const lease = await NodeLease.acquire(store.leases, config.nodeIdHint ?? process.pid, now);
  metrics.watchNodeLease(lease);
  if (hasPoolStats(store)) metrics.watchStorePool(store);
  const ids = lease.ids;
  const adminToken = config.adminToken ?? randomBytes(24).toString('base64url');
  const gatewayOptions = gatewayOptionsOf(config);
  const shared = sharedGatewayState(redis, gatewayOptions.resumeBufferChars, logger);
  // Injected faults (/admin/faults): this node's table, consulted by the API, delivery and gateway.
  const faultTable = new FaultTable(now);
  // What each bot called and was sent, for `slashd test` (GET /admin/applications/{id}/usage).
  const usage = new AppUsageRecorder();
  const gateway = new Gateway({
    faults: faultTable,
    store: store.world,
    members: store.members,
    bus,
    now,
    options: gatewayOptions,
    registry: shared.registry,
    resumeBuffer: shared.resumeBuffer,
    metrics,
    sessionStarts: shared.sessionStarts,
    clientAddress: clientAddressOf(config.trustProxy),
    pending: shared.pending,
    interactionStates: store.interactions,
    channelCounters: store.interactions,
    guildScheduledEvents: (guild, applicationId) =>
      guildCreateEvents({ events: store.scheduledEvents, world: store.world, now }, guild, applicationId),
    observeDispatch: (applicationId, t, json) => usage.dispatched(applicationId, t, json),
  });
  metrics.watchGateway(gateway);
  // The issuer and the gateway's announced URL: the configured public URL, else the bound address.
  const address = new ServerAddress(config.publicUrl);
  const hosts = new HostPolicy(config.allowedHosts, [config.publicUrl, gatewayOptions.publicUrl]);
  gateway.setOrigin(address.gatewayOrigin(), hosts.allows);
  watchRedis(metrics, redis, events, shared);
  const built = buildServices({
    config,
    store,
    bus,
    ids,
    now,
    metrics,
    faults: faultTable,
    gateway,
    presence: redis ? presenceNeedingRedis(gateway, redis) : gateway,
    failWithoutSession: gatewayOptions.failWithoutSession,
    log: logger,
    address,
    adminToken,
    ready: { store: () => store.ping(), redis: redis ? () => redis.ping() : undefined },
  });
  const { services } = built;

  // Nodes starting at once on one database apply their start-up world one after the other.
  let worldImport: WorldChangeSummary | null | undefined;
  if (config.world || config.mergeWorld || config.seedWorld || config.worldFile) {
    await exclusively('start-up world', async () => {
      if (config.world) await services.world.replace(config.world);
      if (config.worldFile) worldImport = await services.world.importWorldFile(config.worldFile);
      if (config.mergeWorld) await services.world.merge(config.mergeWorld);
      if (config.seedWorld) await services.world.seed(config.seedWorld);
    });
  }
  if (config.snapshotAtStart ?? config.db === ':memory:') {
    await exclusively('start-up snapshot', () => services.snapshots.markStart());
  }
  // Opened once the start-up world is in: a node that fails to start has no connection of theirs open.
  const rateLimits = openRateLimits(sharedRateLimits(config, redis));
  // Failed credentials: the rate limits' counters; the gateway's IDENTIFY shares the count.
  const credentialThrottle = openCredentialThrottle(rateLimits, now, () => logger ?? QUIET_LOG);
  if (credentialThrottle) gateway.throttleCredentials(credentialThrottle, clientAddressOf(config.trustProxy));

  // One node on its own file (no bus to other nodes): one commit per turn of the event loop.
  if (!redis && store instanceof SqliteStore) store.commitByTurn();
  const server = await buildServer(built, {
    durable,
    logger,
    timeouts: config.timeouts,
    metrics: {
      http: metrics,
      exposition: metrics,
      tokens: [adminToken, config.metricsToken ?? ''].filter((token) => token !== ''),
    },
    rateLimits: rateLimits?.preset ? { ...rateLimits, preset: rateLimits.preset, now, metrics } : null,
    credentialThrottle,
    allowedHosts: hosts,
    trustProxy: config.trustProxy,
    faults: { faults: faultTable, now },
    consoleFolder: config.consoleFolder ?? DEFAULT_CONSOLE_FOLDER,
    usage,
  });
  watchDependencies(metrics, server.log, { store, redis, caches: [services.commandIndex] });
  gateway.attach(server.server);
  let closed = false;
  return {
    server,
    store,
    bus,
    ids,
    gateway,
    adminToken,
    metrics,
    redis,
    faults: faultTable,
    worldImport,
    async listen({ host, port }) {
      await server.listen({ host, port });
      const bound = server.server.address();
      address.listened(host, typeof bound === 'object' && bound ? bound.port : port);
      gateway.setOrigin(address.gatewayOrigin(), hosts.allows);
      return address.listenUrl();
    },
    async close() {
      if (closed) return;
      closed = true;
      services.interactionDelivery.stop();
      // Draining: no new HTTP connections (a request on a kept-alive one gets 503), while the
      // requests under way finish; console streams end; gateway clients are told to RECONNECT
      // (op 7) and resume on another node, their sessions kept in Redis for the resume window.
      await drain({ server, gateway, streams: services.console }, config.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
      built.parts.httpDelivery.close();
      await rateLimits?.close();
      await events.close();
      await redis?.close();
      await lease.release();
      await store.close();
    },
  };
}
