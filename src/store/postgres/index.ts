/** The PostgreSQL implementation of the stores (`slashd serve --db postgres://...`). */
export { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  DEFAULT_POOL_MAX,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  type PostgresConnectionOptions,
} from './connection.js';
export { MIGRATIONS } from './migrations.js';
export { isPostgresUrl, redactPostgresUrl } from './url.js';
