/**
 * What a slashd node is started with (`createSlashd`), and the defaults that are not a bound of one
 * part: each part's own bounds default to the constants of its module.
 */
import { fileURLToPath } from 'node:url';
import type { World } from '../core/world/types.js';
import type { WorldFileSource } from '../core/world/world-change.js';
import type { OutboundPolicy } from '../core/outbound-policy.js';
import type { Resolver } from '../delivery/outbound-lookup.js';
import type { RedisTimeouts } from '../events/redis-link.js';
import { DEFAULT_GATEWAY_OPTIONS, type GatewayOptions } from '../gateway/gateway.js';
import type { HttpTimeouts } from '../http/limits.js';
import type { TrustProxy } from '../http/server.js';
import type { RateLimitConfig } from '../rate-limits/config.js';

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
  /** Added to the stored world at start-up (`serve --demo --reset-demo`). */
  mergeWorld?: World | null;
  /**
   * Added to the stored world at start-up unless this same world was added before (the demo world
   * of `npm start`): a restart keeps what was changed since.
   */
  seedWorld?: World | null;
  /**
   * A world file the stored world becomes at start-up (`serve --world`), like `world`, but read
   * only when it differs from the file imported last, and written only where it differs.
   */
  worldFile?: WorldFileSource | null;
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
  /** The most bytes the caches hold, approximately (default 96 MiB; least recently used go first): the store's read caches, and an eighth for the command picker's answers. */
  cacheBytes?: number | undefined;
  /**
   * SQLite: how long a plain read may trust the caches before asking whether another process wrote
   * the file (ms; 1 when undefined). Tests of several processes on one file set 0.
   */
  readStalenessMs?: number | undefined;
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

/** Where `npm run build:console` puts the console, from this module's place in dist/src/app. */
export const DEFAULT_CONSOLE_FOLDER = fileURLToPath(new URL('../../console/', import.meta.url));

/** A writable for log lines (pino writes whole lines). */
export interface LogDestination {
  write(text: string): void;
}

/** The gateway's options, every one given: the configured ones over the defaults. */
export function gatewayOptionsOf(config: Pick<SlashdConfig, 'gateway'>): GatewayOptions {
  return { ...DEFAULT_GATEWAY_OPTIONS, ...config.gateway };
}
