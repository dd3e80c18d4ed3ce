/** The store a node opens: SQLite on one machine, PostgreSQL shared by many nodes. */
import { splitCacheBudget } from '../resources/command-index/cache.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { isPostgresUrl, PostgresStore } from '../store/postgres/index.js';
import type { Store } from '../store/store.js';
import { DEFAULT_DB_SCHEMA, type SlashdConfig } from './config.js';

/** A store, and how start-up world changes are kept from running in two processes at once. */
export interface OpenedStore {
  store: Store;
  exclusively: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

export async function openStore(config: SlashdConfig, now: () => number): Promise<OpenedStore> {
  if (!isPostgresUrl(config.db)) {
    // The store's share of the cache budget; the command picker's answers have the rest.
    const cacheBytes = splitCacheBudget(config.cacheBytes).store;
    const store = new SqliteStore({ path: config.db, now, cacheBytes, readStalenessMs: config.readStalenessMs });
    return { store, exclusively: (_name, work) => work() };
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
