/**
 * What one resource folder contributes to a node (docs/architecture.md, "Adding a resource"): each
 * `src/resources/<name>/index.ts` exports one `Resource`, and `src/resources/index.ts` lists them.
 * The central files (`app/services.ts`, `http/server.ts`, and the store entry points for the
 * migrations) iterate over that list instead of naming any resource, so a new resource edits the
 * list and nothing central.
 *
 * The services of a node are one registry, `NodeServices`: each resource adds the services it
 * builds to that interface from its own `index.ts` (`declare module '../resource.js'`), and gives
 * a factory per service. A factory reads the other services it calls from the registry, so the
 * order of the list does not matter; every service is built once, at start, and a factory that
 * asks for a service nobody builds fails the start with its name (see `app/services.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceParts } from '../app/services.js';
import type { ServerOptions } from '../http/server.js';
import type { DatedMigration } from '../store/dated-migrations.js';
import type { PostgresConnection } from '../store/postgres/connection.js';
import type { PostgresShared } from '../store/postgres/shared.js';
import type { SqliteConnection } from '../store/sqlite/connection.js';
import type { SqliteShared } from '../store/sqlite/shared.js';
import type { ResourceStores } from '../store/store.js';

/**
 * Every service of a node by name. Empty here on purpose: each resource's `index.ts` declares its
 * own entries; what every resource may read besides (stores, bus, clock...) is `ServiceParts`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface NodeServices {}

/** How one service of the registry is built: from the node's parts and the other services. */
export type ServiceFactory<K extends keyof NodeServices> = (
  parts: ServiceParts,
  services: NodeServices,
) => NodeServices[K];

/** A resource's factories, one per service it adds to the registry. */
export type ServiceFactories = { readonly [K in keyof NodeServices]?: ServiceFactory<K> };

/** What a SQLite store of a resource is built from: the one connection and what its stores share. */
export interface SqliteStoreParts {
  readonly conn: SqliteConnection;
  readonly shared: SqliteShared;
}

/** What a PostgreSQL store of a resource is built from; `cacheBytes` bounds its per-process lists. */
export interface PostgresStoreParts {
  readonly conn: PostgresConnection;
  readonly shared: PostgresShared;
  readonly cacheBytes: number | undefined;
}

/** How one store of `ResourceStores` is built: its two dialects, side by side. */
export interface StoreFactory<K extends keyof ResourceStores> {
  readonly sqlite: (parts: SqliteStoreParts) => ResourceStores[K];
  readonly postgres: (parts: PostgresStoreParts) => ResourceStores[K];
}

/** A resource's stores, by their name in `ResourceStores`. */
export type StoreFactories = { readonly [K in keyof ResourceStores]?: StoreFactory<K> };

/** What a route plugin is registered with: the services, the node's parts and the server's options. */
export interface RouteContext {
  services: NodeServices;
  parts: ServiceParts;
  options: ServerOptions;
}

export interface Resource {
  /** The folder's name (`reactions`, `threads`): unique in the list. */
  readonly name: string;
  /** The stores it owns, by their name in `ResourceStores` (built by each dialect's entry point). */
  readonly stores?: StoreFactories;
  /** The services it builds, by their name in `NodeServices`. */
  readonly services?: ServiceFactories;
  /** Hooks on every request of the server (before any route is registered). */
  readonly hooks?: (app: FastifyInstance, context: RouteContext) => void;
  /** Its routes under each served API version (`/api/v10`, `/api/v9`, and `/api` as v10). */
  readonly apiRoutes?: (api: FastifyInstance, context: RouteContext) => Promise<void>;
  /** Its routes outside the API: the admin API, pages, files, probes. */
  readonly rootRoutes?: (app: FastifyInstance, context: RouteContext) => Promise<void>;
  /**
   * Its tables whose rows belong to a channel (by `channel_id`) and go with it, in the channel's
   * delete transaction (a channel's messages, their files, a channel's webhooks).
   */
  readonly channelOwnedTables?: readonly string[];
  /** Its dated schema migrations, one file each in its `migrations/` folder (`store/dated-migrations.ts`). */
  readonly migrations?: readonly DatedMigration[];
}

/** A resource as the list holds it: checked against `Resource`, keeping each entry's own type. */
export function defineResource<R extends Resource>(resource: R): R {
  return resource;
}
