/**
 * One bounded pg.Pool on one schema: every connection gets the schema as its `search_path` and a
 * statement timeout and idle-in-transaction timeout, so a stuck query or a forgotten transaction
 * cannot hold a connection (or its locks) for ever.
 */
import pg from 'pg';

/** Connections per process: a slashd node's queries are short, and PostgreSQL's connections are not free. */
export const DEFAULT_POOL_MAX = 10;
/** A statement running longer than this is cancelled (ms). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** A session idle inside an open transaction longer than this is ended, releasing its locks (ms). */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;
/** How long to wait for a new connection before failing (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The scope name of an application's own lock: no guild id or other scope is spelled so. */
const APPLICATION_LOCK_SCOPE = '*';
/** The lock every whole-world write (replace, merge) takes, so that two never interleave. */
export const WORLD_LOCK_SCOPE = 'world';

/** A schema name used unquoted in DDL and in `search_path`: plain lower-case identifiers only. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresConnectionOptions {
  /** libpq-style connection string; omitted: the PG* environment variables. */
  connectionString?: string | undefined;
  /** Where the tables live (created if missing). */
  schema: string;
  max?: number | undefined;
  statementTimeoutMs?: number | undefined;
  idleInTransactionTimeoutMs?: number | undefined;
  connectTimeoutMs?: number | undefined;
}

export type PostgresClient = pg.PoolClient;

export class PostgresConnection {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly quotedSchema: string;

  constructor(
    options: PostgresConnectionOptions,
    readonly now: () => number,
  ) {
    if (!SCHEMA_NAME.test(options.schema)) throw new Error(`invalid PostgreSQL schema name: ${options.schema}`);
    this.schema = options.schema;
    this.quotedSchema = `"${options.schema}"`;
    this.pool = new pg.Pool({
      ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
      max: options.max ?? DEFAULT_POOL_MAX,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      options: `-c search_path=${options.schema}`,
    });
    // An idle connection the server drops must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  /** Runs `work` on one connection inside BEGIN/COMMIT; anything it throws rolls back and reaches the caller. */
  async transaction<T>(work: (client: PostgresClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The application's own lock, until this transaction ends: planners of its scopes take it shared
   * (before their scope's lock), and deleting the application takes it exclusive, so a planner
   * either commits before the application goes (and its rows go with it) or runs after.
   */
  async lockApplication(client: PostgresClient, applicationId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await client.query(`SELECT ${lock}(hashtextextended(current_schema() || '/' || $1 || '/' || $2, 0))`, [
      applicationId,
      APPLICATION_LOCK_SCOPE,
    ]);
  }

  /**
   * Serializes transactions on one scope key until this transaction ends. The key is hashed with
   * the schema, so that stores on other schemas of the database never wait on each other.
   */
  async lockScope(client: PostgresClient, applicationId: string, scope: string): Promise<void> {
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || $1 || '/' || $2, 0))",
      [applicationId, scope],
    );
  }
}
