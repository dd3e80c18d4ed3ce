/**
 * The embedded store: better-sqlite3 in WAL mode on one file. Each focused store is its table
 * module; they share one connection, and so its transactions, read caches and clock.
 */
import type { MigrationReport } from '../schema-version.js';
import { datedMigrationsOf } from '../migrations/index.js';
import { buildResourceStores, channelOwnedTables, RESOURCES } from '../../resources/index.js';
import type { ResourceStores, Store } from '../store.js';
import type { CacheCounts } from '../../core/byte-lru.js';
import { SqliteConnection } from './connection.js';
import { createSqliteShared } from './shared.js';

export interface SqliteStoreOptions {
  /** A file path, or ':memory:'. */
  path: string;
  now?: () => number;
  /** How long plain reads may trust the caches after another process commits, in ms (default 1). */
  readStalenessMs?: number | undefined;
  /** The most bytes the read caches may hold, approximately (default 96 MiB); the least recently used go first. */
  cacheBytes?: number;
}

// The resources' stores (`store.reactions`...), assigned in the constructor from their resources.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- every member is assigned by the constructor
export interface SqliteStore extends ResourceStores {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class SqliteStore implements Store {
  private readonly conn: SqliteConnection;

  constructor(options: SqliteStoreOptions) {
    this.conn = new SqliteConnection(
      options.path,
      options.now ?? Date.now,
      options.readStalenessMs,
      options.cacheBytes,
      datedMigrationsOf(RESOURCES),
    );
    const shared = createSqliteShared(this.conn, channelOwnedTables());
    Object.assign(this, buildResourceStores('sqlite', { conn: this.conn, shared }));
  }

  /** What the read caches hold now (for metrics and tests): never more bytes than the cap. */
  cacheUse(): { bytes: number; entries: number; capBytes: number } {
    const { lru } = this.conn.cached;
    return { bytes: lru.bytes, entries: lru.size, capBytes: lru.capBytes };
  }

  schemaVersion(): number {
    return this.conn.schemaVersion();
  }

  /** What opening did to the schema (`slashd migrate` prints it). */
  get migration(): MigrationReport {
    return this.conn.migration;
  }

  /**
   * Lookups of the read caches answered from memory, and those that read the file (all of them,
   * and the list answers' bytes on their own); the entries dropped to make room count once, on
   * the shared cache.
   */
  cacheCounts(): CacheCounts[] {
    const { lru, listBytes } = this.conn.cached;
    return [
      { cache: 'store_reads', hits: lru.hits, misses: lru.misses, evictions: lru.evictions },
      { cache: 'command_list_bytes', hits: listBytes.hits, misses: listBytes.misses },
    ];
  }

  /** Runs `listener` each time the WAL was truncated once writes paused; the function returned stops it. */
  onWalTruncated(listener: () => void): () => void {
    return this.conn.onWalTruncated(listener);
  }

  /** One commit per turn of the event loop from now on (see `SqliteConnection.commitByTurn`). */
  commitByTurn(): void {
    this.conn.commitByTurn();
  }

  durable(): Promise<void> | undefined {
    return this.conn.durable();
  }

  async ping(): Promise<void> {
    this.conn.ping();
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
