/**
 * The PostgreSQL store: each focused store is its table module over one bounded pool on one
 * schema. `open` applies the migrations the schema lacks before the store is handed out.
 */
import type { DependencyObserver } from '../../core/dependencies.js';
import { SchemaTooNewError, type MigrationReport } from '../schema-version.js';
import type { ResourceStores, Store } from '../store.js';
import type { CacheCounts } from '../../core/byte-lru.js';
import {
  PostgresConnection,
  QUERY_TIMEOUT_MARGIN_MS,
  type PostgresConnectionOptions,
  type TimedQuery,
} from './connection.js';
import { migrate } from './migrate.js';
import { datedMigrationsOf } from '../migrations/index.js';
import { buildResourceStores, channelOwnedTables, RESOURCES } from '../../resources/index.js';
import { createPostgresShared, type PostgresShared } from './shared.js';
import type { WorldReadCaches } from './world-read-caches.js';

/** The database could not be reached or migrated at start-up (the cause says why). */
export class PostgresOpenError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'PostgresOpenError';
  }
}

/** How long `exclusively` waits for another process's turn before failing (ms). */
export const EXCLUSIVE_WAIT_MS = 300_000;

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  now?: (() => number) | undefined;
  /** The per-process command lists, list answers and permissions lists' byte budget (default 96 MiB). */
  cacheBytes?: number | undefined;
  /**
   * The per-node caches of applications, users, tokens and guild documents
   * (world-read-caches.ts): false reads the database every time; default on, with their TTL.
   */
  worldReadCaches?: boolean | undefined;
  /** How long one of those entries is used at most (ms; default DEFAULT_WORLD_READ_TTL_MS). */
  worldReadTtlMs?: number | undefined;
}

// The resources' stores (`store.reactions`...), assigned in the constructor from their resources.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- every member is assigned by the constructor
export interface PostgresStore extends ResourceStores {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class PostgresStore implements Store {
  private closed: Promise<void> | null = null;
  private readonly shared: PostgresShared;

  private constructor(
    private readonly conn: PostgresConnection,
    cacheBytes: number | undefined,
    ttlMs: number | undefined,
  ) {
    const shared = createPostgresShared(conn, channelOwnedTables(), { ttlMs });
    this.shared = shared;
    Object.assign(this, buildResourceStores('postgres', { conn, shared, cacheBytes }));
  }

  /** The per-node caches of applications, users, tokens and guild documents. */
  get worldReads(): WorldReadCaches {
    return this.shared.reads;
  }

  /**
   * Connects, migrates the schema, and returns the store; the pool is closed again if that fails.
   * A schema newer than this slashd knows is refused with `SchemaTooNewError` as it is.
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(
      new PostgresConnection(options, options.now ?? Date.now),
      options.cacheBytes,
      options.worldReadTtlMs,
    );
    try {
      store.migration = await migrate(store.conn, datedMigrationsOf(RESOURCES));
      // Listening only once the schema has the triggers that send the notices.
      if (options.worldReadCaches !== false) await store.shared.reads.start();
    } catch (error) {
      await store.close();
      throw error instanceof SchemaTooNewError ? error : new PostgresOpenError(error);
    }
    return store;
  }

  /** What opening did to the schema (`slashd migrate` prints it). */
  migration: MigrationReport = { before: 0, after: 0, applied: [] };

  /** Where the database's calls and state changes are reported (metrics, logs). */
  observe(observer: DependencyObserver): void {
    this.conn.observe(observer);
  }

  /** Whether the database answered the last calls. */
  /** Seconds the oldest query or connect under way has waited (0 when none): a stall's first sign. */
  oldestCallSeconds(): number {
    return this.conn.calls.oldestSeconds();
  }

  isUp(): boolean {
    return this.conn.state.isUp();
  }

  /**
   * Lookups of the per-process lists held (objects, list answers' bytes, permissions), answered
   * without reading the rows, and the lists each dropped to make room.
   */
  cacheCounts(): CacheCounts[] {
    return [...this.commands.cacheCounts(), this.shared.reads.counts()];
  }

  async schemaVersion(): Promise<number> {
    const result = await this.conn.pool.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    return result.rows[0]?.v ?? 0;
  }

  /** The pool's use right now, for /metrics: open, idle, and queries waiting for a connection. */
  poolStats(): { total: number; idle: number; waiting: number; max: number } {
    const { pool } = this.conn;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 0 };
  }

  /**
   * Runs `work` while holding a lock named `name` on this schema, across every process: nodes
   * starting at once apply their start-up world one after the other. The lock is held by a
   * connection of its own (released with it), and waiting for it is bounded.
   */
  async exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
    const client = await this.conn.pool.connect();
    try {
      await client.query(`SET statement_timeout = ${EXCLUSIVE_WAIT_MS}`);
      // The client's own bound follows the longer wait (the pool's is for ordinary statements).
      const lock: TimedQuery = {
        text: "SELECT pg_advisory_lock(hashtextextended(current_schema() || '/exclusive/' || $1, 0))",
        values: [name],
        query_timeout: EXCLUSIVE_WAIT_MS + QUERY_TIMEOUT_MARGIN_MS,
      };
      await client.query(lock);
      return await work();
    } finally {
      // Ending the connection releases the lock and forgets the changed timeout.
      client.release(true);
    }
  }

  async ping(): Promise<void> {
    await this.conn.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed ??= this.shared.reads.close().then(() => this.conn.end());
    await this.closed;
  }
}
