/** The one place where slashd is wired: store, bus, services and the HTTP adapter. */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { World } from './core/world/types.js';
import { RESUME_BUFFER_EVENTS } from './core/gateway/protocol.js';
import { InProcessEventBus, type EventBus } from './events/bus.js';
import { RedisEventBus } from './events/redis-bus.js';
import { presenceNeedingRedis, RedisLink, type RedisTimeouts } from './events/redis-link.js';
import { DEFAULT_GATEWAY_OPTIONS, Gateway, type GatewayOptions } from './gateway/gateway.js';
import { RedisResumeBuffer } from './gateway/redis-resume-buffer.js';
import { RedisSessionRegistry } from './gateway/session-registry.js';
import { RedisSessionStarts } from './gateway/session-starts.js';
import type { HttpTimeouts } from './http/limits.js';
import { prettyLogStream } from './http/log-format.js';
import { buildServer, redactUrl, type TrustProxy } from './http/server.js';
import { clientAddressOf } from './http/client-address.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, drain } from './http/drain.js';
import type { OutboundPolicy } from './core/outbound-policy.js';
import { HttpDelivery } from './delivery/http-delivery.js';
import { hasPoolStats, PrometheusMetrics } from './metrics/prometheus.js';
import { watchDependencies } from './metrics/dependency-observer.js';
import type { Resolver } from './delivery/outbound-lookup.js';
import { ApplicationService } from './services/application-service.js';
import { ChannelMessagesService } from './services/channel-messages-service.js';
import { ChannelsService } from './services/channels-service.js';
import { CommandIndexService } from './services/command-index-service.js';
import { splitCacheBudget } from './services/command-index-cache.js';
import { CommandsService } from './services/commands-service.js';
import { ConsoleService } from './services/console-service.js';
import { EndpointService } from './services/endpoint-service.js';
import { GuildsService } from './services/guilds-service.js';
import { BansService } from './services/bans-service.js';
import { InteractionsService } from './services/interactions-service.js';
import { MessageRenderer } from './services/message-renderer.js';
import { NodeLease } from './services/node-lease.js';
import { OAuth2Service } from './services/oauth2-service.js';
import { ConsentSessions } from './services/consent-sessions.js';
import { OidcService } from './services/oidc-service.js';
import { PermissionsService } from './services/permissions-service.js';
import { ResponsesService } from './services/responses-service.js';
import { SnapshotService } from './services/snapshot-service.js';
import { WorldEvents } from './services/world-events.js';
import { WorldService } from './services/world-service.js';
import { openRateLimits, type RateLimitConfig } from './rate-limits/config.js';
import { openCredentialThrottle } from './rate-limits/credential-throttle.js';
import { HostPolicy } from './http/allowed-hosts.js';
import { FaultTable } from './faults/fault-table.js';
import { FaultsService } from './services/faults-service.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { isPostgresUrl, PostgresStore } from './store/postgres/index.js';
import type { SnowflakeGenerator } from './core/snowflake.js';
import type { Store } from './store/store.js';

/** The PostgreSQL schema when `dbSchema` is not given. */
export const DEFAULT_DB_SCHEMA = 'slashd';
/** The Redis key and channel prefix when `redisPrefix` is not given. */
export const DEFAULT_REDIS_PREFIX = 'slashd:';

export interface SlashdConfig {
  /** SQLite file path, ':memory:', or a postgres:// (postgresql://) URL. */
  db: string;
  /** PostgreSQL: the schema of slashd's tables (created and migrated at start-up); default `slashd`. */
  dbSchema?: string | undefined;
  /** PostgreSQL: connections in this node's pool (default DEFAULT_POOL_MAX). */
  dbPoolMax?: number | undefined;
  /** PostgreSQL: a statement running longer is cancelled (default DEFAULT_STATEMENT_TIMEOUT_MS). */
  dbStatementTimeoutMs?: number | undefined;
  /** PostgreSQL: how long to wait for a connection, new or from the pool (default DEFAULT_CONNECT_TIMEOUT_MS). */
  dbConnectTimeoutMs?: number | undefined;
  /** Redis URL: with it, nodes share the bus, gateway sessions and cache invalidation. */
  redisUrl?: string | undefined;
  /** What this deployment's Redis keys and channels start with; default `slashd:`. */
  redisPrefix?: string | undefined;
  /** Bounds of the Redis connections; each defaults to its constant in src/events/redis-link.ts. */
  redisTimeouts?: Partial<RedisTimeouts> | undefined;
  /** Replaces the stored world at start-up; commands are kept. */
  world?: World | null;
  /** Added to the stored world at start-up (the demo world of `npm start`). */
  mergeWorld?: World | null;
  adminToken?: string;
  logLevel?: string;
  /** 'pretty': one readable line per record (for a terminal); 'json' (the default): pino's JSON lines. */
  logFormat?: 'json' | 'pretty';
  /** Where log lines are written (default: standard output). */
  logDestination?: LogDestination | undefined;
  /** A secret that may only read `GET /metrics` (the admin token may too); for the scraper. */
  metricsToken?: string | undefined;
  now?: (() => number) | undefined;
  /** HTTP server timeouts; each defaults to its constant in src/http/limits.ts. */
  timeouts?: Partial<HttpTimeouts> | undefined;
  /** How long `close()` drains before it cuts the connections left (default DEFAULT_DRAIN_TIMEOUT_MS). */
  drainTimeoutMs?: number | undefined;
  /**
   * The snowflake node id (0..1023) to lease if it is free (default: from the pid). Only a hint:
   * the lease in the store decides, so processes with equal hints still get distinct ids.
   */
  nodeIdHint?: number;
  /** Which addresses interactions endpoints may have (default: public and loopback). */
  endpointPolicy?: OutboundPolicy;
  /** Name resolution for outbound requests; tests inject one to play DNS rebinding. */
  resolve?: Resolver;
  /** The WebSocket gateway: its public URL, bounds, and whether interactions need a session. */
  gateway?: Partial<GatewayOptions> | undefined;
  /** The most bytes the caches hold, approximately (default 64 MiB; least recently used go first): the store's read caches, and an eighth for the command picker's answers. */
  cacheBytes?: number | undefined;
  /** v10 rate limits (docs/rate-limits.md); off unless given (`slashd serve` defaults to `sandbox`). */
  rateLimits?: RateLimitConfig | undefined;
  /** Most command creates per scope and UTC day: v10's 200 when undefined; null: no limit. */
  dailyCommandCreates?: number | null | undefined;
  /** Behind a load balancer: the proxies whose X-Forwarded-For gives the client's address (default: none). */
  trustProxy?: TrustProxy | undefined;
  /**
   * Takes a snapshot of the state once the start-up world is in, for `POST /admin/reset` (default:
   * only when `db` is ':memory:'; a copy of a large database at every start is not free).
   */
  snapshotAtStart?: boolean | undefined;
  /**
   * The web console's sandbox sign-in: anyone reaching the server may pick a world user (their
   * token included). Only for a local sandbox (`slashd serve --demo`); off by default.
   */
  sandboxSignIn?: boolean | undefined;
  /** The server's public URL: the OpenID Connect issuer and the base of its endpoints (default: the listen address). */
  publicUrl?: string | undefined;
  /** Host names answered besides addresses, localhost and the public URLs' hosts: `name`, `.domain`, `*` (docs/security.md#host-names). */
  allowedHosts?: readonly string[] | undefined;
  /** The built web console (default: `dist/console` of this package). */
  consoleFolder?: string | undefined;
}

/** Where `npm run build:console` puts the console, from this module's place in dist/src. */
export const DEFAULT_CONSOLE_FOLDER = fileURLToPath(new URL('../console/', import.meta.url));

/** A writable for log lines (pino writes whole lines). */
export interface LogDestination {
  write(text: string): void;
}

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
  listen(options: { host: string; port: number }): Promise<string>;
  /**
   * Drains and stops: requests under way finish, console streams end, gateway clients RECONNECT,
   * and past the drain timeout every connection left is cut; then the node id lease is released.
   */
  close(): Promise<void>;
}

function loggerOptions(
  level: string | undefined,
  format: 'json' | 'pretty' = 'json',
  destination?: LogDestination,
): FastifyServerOptions['logger'] {
  if (!level || level === 'silent') return false;
  const out = destination ?? process.stdout;
  // pino's own standard output is faster than a stream object: a stream is given only when needed.
  const stream = format === 'pretty' ? prettyLogStream((text) => out.write(text)) : destination;
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      // The default serializer would log the raw URL, which can hold an interaction token.
      req: (request: { method: string; url: string }) => ({ method: request.method, url: redactUrl(request.url) }),
    },
  };
}

/** A store, and how start-up world changes are kept from running in two processes at once. */
interface OpenedStore {
  store: Store;
  exclusively: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

async function openStore(config: SlashdConfig, now: () => number): Promise<OpenedStore> {
  if (!isPostgresUrl(config.db)) {
    // The store's share of the cache budget; the command picker's answers have the rest.
    const cacheBytes = splitCacheBudget(config.cacheBytes).store;
    return { store: new SqliteStore({ path: config.db, now, cacheBytes }), exclusively: (_name, work) => work() };
  }
  const store = await PostgresStore.open({
    connectionString: config.db,
    schema: config.dbSchema ?? DEFAULT_DB_SCHEMA,
    max: config.dbPoolMax,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    cacheBytes: splitCacheBudget(config.cacheBytes).store,
    now,
  });
  return { store, exclusively: (name, work) => store.exclusively(name, work) };
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

/** The bus: in process on one node; with Redis, shared by every node of the deployment. */
async function openBus(
  redis: RedisLink | null,
  metrics: PrometheusMetrics,
): Promise<{ bus: EventBus; failedPublishes(): number; close(): Promise<void> }> {
  if (!redis) return { bus: new InProcessEventBus(), failedPublishes: () => 0, close: async () => {} };
  const bus = await RedisEventBus.open({
    publisher: redis.commands,
    subscriber: redis.subscriber,
    channel: redis.channel('bus'),
    lag: metrics,
  });
  return { bus, failedPublishes: () => bus.failedPublishes, close: () => bus.close() };
}

async function assemble(
  config: SlashdConfig,
  now: () => number,
  opened: OpenedStore,
  redis: RedisLink | null,
): Promise<Slashd> {
  const { store, exclusively } = opened;
  const metrics = new PrometheusMetrics(now);
  const events = await openBus(redis, metrics);
  const bus = events.bus;
  const lease = await NodeLease.acquire(store.leases, config.nodeIdHint ?? process.pid, now);
  metrics.watchNodeLease(lease);
  if (hasPoolStats(store)) metrics.watchStorePool(store);
  const ids = lease.ids;
  const commands = new CommandsService({
    store: store.commands,
    ids,
    now,
    ...(config.dailyCommandCreates === undefined
      ? {}
      : { dailyCreatesMax: config.dailyCommandCreates ?? Number.POSITIVE_INFINITY }),
  });
  const worldEvents = new WorldEvents(store.world, bus);
  const world = new WorldService(store.world, commands, worldEvents);
  const adminToken = config.adminToken ?? randomBytes(24).toString('base64url');
  const delivery = new HttpDelivery(now, { policy: config.endpointPolicy, resolve: config.resolve });
  const renderer = new MessageRenderer(store);
  const responses = new ResponsesService({ store, ids, now, renderer, events: worldEvents, metrics });
  // With Redis, gateway sessions and their resume buffers are shared: a bot resumes on any node.
  const registry = redis ? new RedisSessionRegistry(redis.commands, redis.prefix) : undefined;
  const resumeBuffer =
    registry &&
    new RedisResumeBuffer(
      redis!.commands,
      registry.keys,
      registry.node,
      RESUME_BUFFER_EVENTS,
      config.gateway?.resumeBufferChars ?? DEFAULT_GATEWAY_OPTIONS.resumeBufferChars,
    );
  const sessionStarts = redis ? new RedisSessionStarts(redis.commands, redis.prefix) : undefined;
  // Injected faults (/admin/faults): this node's table, consulted by the API, delivery and gateway.
  const faultTable = new FaultTable(now);
  const gateway = new Gateway({
    faults: faultTable,
    store: store.world,
    bus,
    now,
    options: config.gateway,
    registry,
    resumeBuffer,
    metrics,
    sessionStarts,
    clientAddress: clientAddressOf(config.trustProxy),
  });
  metrics.watchGateway(gateway);
  const hosts = new HostPolicy(config.allowedHosts, [config.publicUrl, gateway.options.publicUrl]);
  gateway.setOrigin({ publicUrl: config.publicUrl ?? null, listening: null }, hosts.allows);
  if (redis) {
    metrics.watchRedis({
      up: () => redis.isUp(),
      failedPublishes: () => events.failedPublishes(),
      failedAppends: () => resumeBuffer?.failedAppends ?? 0,
    });
  }
  const interactions = new InteractionsService({
    store,
    bus,
    ids,
    delivery,
    responses,
    now,
    presence: redis ? presenceNeedingRedis(gateway, redis) : gateway,
    failWithoutSession: gateway.options.failWithoutSession,
    metrics,
    faults: faultTable,
  });
  const endpoints = new EndpointService(store.world, delivery, ids);
  const snapshots = new SnapshotService(store.snapshots, world, ids);
  // The issuer is the configured public URL, else the address this node listens on.
  let listenUrl = 'http://127.0.0.1';
  const oidc = new OidcService(store.world, { url: () => config.publicUrl?.replace(/\/+$/, '') ?? listenUrl }, now);

  // Nodes starting at once on one database apply their start-up world one after the other.
  if (config.world || config.mergeWorld) {
    await exclusively('start-up world', async () => {
      if (config.world) await world.replace(config.world);
      if (config.mergeWorld) await world.merge(config.mergeWorld);
    });
  }
  if (config.snapshotAtStart ?? config.db === ':memory:') {
    await exclusively('start-up snapshot', () => snapshots.markStart());
  }
  // With Redis, every node counts against the same windows, on a connection of their own that
  // gives up quickly (a Redis outage must not hold every API request up, only unlimit it).
  const rateLimits = openRateLimits(
    redis && config.redisUrl && config.rateLimits && config.rateLimits.redis === undefined
      ? { ...config.rateLimits, redis: config.redisUrl, redisPrefix: redis.key('rl:') }
      : config.rateLimits,
  );
  // Failed credentials: the rate limits' counters; the gateway's IDENTIFY shares the count.
  const credentialThrottle = openCredentialThrottle(rateLimits, now, () => server.log);
  if (credentialThrottle) gateway.throttleCredentials(credentialThrottle, clientAddressOf(config.trustProxy));

  const consoleService = new ConsoleService({ store: store.world, bus, sandboxSignIn: config.sandboxSignIn === true });
  const commandIndex = new CommandIndexService(store, { cacheBytes: splitCacheBudget(config.cacheBytes).index });
  const server = await buildServer(
    {
      principals: store.world,
      commands,
      permissions: new PermissionsService(store.commands, bus),
      channels: new ChannelsService(store.world, commandIndex, renderer),
      interactions,
      responses,
      renderer,
      applications: new ApplicationService(store.world, endpoints),
      oauth2: new OAuth2Service(store.world, now, oidc, world),
      oidc,
      consentSessions: new ConsentSessions(store.world, () => oidc.sharedSecret(), now, config.sandboxSignIn === true),
      world,
      guilds: new GuildsService(store.world, commandIndex),
      bans: new BansService(store.world, worldEvents),
      channelMessages: new ChannelMessagesService({
        world: store.world,
        messages: store.interactions,
        renderer,
        ids,
        now,
        events: worldEvents,
      }),
      gateway,
      console: consoleService,
      adminToken,
      snapshots,
      ready: { store: () => store.ping(), redis: redis ? () => redis.ping() : undefined },
      faults: new FaultsService({ table: faultTable, ids, now, gateway }),
    },
    {
      logger: loggerOptions(config.logLevel, config.logFormat, config.logDestination),
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
    },
  );
  interactions.logTo(server.log);
  registry?.logTo(server.log);
  redis?.onUp(() => void registry?.restore());
  watchDependencies(metrics, server.log, { store, redis, caches: [commandIndex] });
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
    async listen({ host, port }) {
      await server.listen({ host, port });
      const address = server.server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      listenUrl = `http://${shownHost}:${actualPort}`;
      gateway.setOrigin({ publicUrl: config.publicUrl ?? null, listening: { host, port: actualPort } }, hosts.allows);
      return listenUrl;
    },
    async close() {
      if (closed) return;
      closed = true;
      interactions.stop();
      // Draining: no new HTTP connections (a request on a kept-alive one gets 503), while the
      // requests under way finish; console streams end; gateway clients are told to RECONNECT
      // (op 7) and resume on another node, their sessions kept in Redis for the resume window.
      await drain({ server, gateway, streams: consoleService }, config.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
      delivery.close();
      await rateLimits?.close();
      await events.close();
      await redis?.close();
      await lease.release();
      await store.close();
    },
  };
}
