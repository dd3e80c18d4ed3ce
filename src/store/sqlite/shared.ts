/**
 * What the SQLite stores share besides the connection (which holds the statements, the read
 * caches and the clock): each per-resource store is built from `(conn, shared)`, so a store
 * factory needs nothing else.
 */
import type { SqliteConnection } from './connection.js';
import { SqliteGuildDocuments } from './guild-documents.js';

export interface SqliteShared {
  /** The guild document reads and writes of the world, members, structure and threads stores. */
  readonly guilds: SqliteGuildDocuments;
}

/** The shared parts of one connection: built once, handed to every store on it. */
export function createSqliteShared(conn: SqliteConnection, channelOwnedTables: readonly string[]): SqliteShared {
  return { guilds: new SqliteGuildDocuments(conn, channelOwnedTables) };
}
