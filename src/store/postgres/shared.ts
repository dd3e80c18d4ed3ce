/**
 * What the PostgreSQL stores share besides the connection (which holds the pool, the locks and
 * the clock): each per-resource store is built from `(conn, shared)`, so a store factory needs
 * nothing else.
 */
import type { PostgresConnection } from './connection.js';
import { PostgresGuildDocuments } from './guild-documents.js';
import { WorldReadCaches, type WorldReadCachesOptions } from './world-read-caches.js';

export interface PostgresShared {
  /** The guild document reads and writes of the world, members, structure and threads stores. */
  readonly guilds: PostgresGuildDocuments;
  /** The per-node caches of applications, users (by id and token) and guild documents. */
  readonly reads: WorldReadCaches;
}

/** The shared parts of one connection: built once, handed to every store on it. */
export function createPostgresShared(
  conn: PostgresConnection,
  channelOwnedTables: readonly string[],
  reads: WorldReadCachesOptions = {},
): PostgresShared {
  return { guilds: new PostgresGuildDocuments(conn, channelOwnedTables), reads: new WorldReadCaches(conn, reads) };
}
