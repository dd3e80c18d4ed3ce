/**
 * One bounded pg.Pool on one schema: every connection gets the schema as its `search_path` and a
 * statement timeout and idle-in-transaction timeout, so a stuck query or a forgotten transaction
 * cannot hold a connection (or its locks) for ever. The client bounds every call too (a server or
 * network that stalls answers nothing, so its own timeouts never fire): connecting and waiting
 * for a pooled connection by the connect timeout, each query a little past the statement timeout.
 * A connection whose query timed out or failed is destroyed, never handed out again, so the pool
 * recovers by itself when the database does. Every call is observed (metrics, and the database's
 * up/down state logged once per change).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { DependencyState, NO_DEPENDENCY_OBSERVER, type DependencyObserver } from '../../core/dependencies.js';
import { answeredByServer, isPostgresUnavailable, postgresOutcome } from './unavailable.js';

/** Connections per process: a slashd node's queries are short, and PostgreSQL's connections are not free. */
export const DEFAULT_POOL_MAX = 10;
/** A statement running longer than this is cancelled (ms). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** A session idle inside an open transaction longer than this is ended, releasing its locks (ms). */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;
/** How long to wait for a new connection, or for a free one of the pool, before failing (ms). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/**
 * How much longer than the statement timeout the client waits for a query's answer before it gives
 * up on the connection (ms): the server cancels a slow statement first, so only a stalled server or
 * network reaches the client's bound.
 */
export const QUERY_TIMEOUT_MARGIN_MS = 1_000;

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
/** A query with its own client-side bound (pg reads `query_timeout` from the query too). */
export type TimedQuery = pg.QueryConfig & { query_timeout: number };

type QueryMethod = (this: pg.Client, ...args: unknown[]) => unknown;
type Callback = (error: unknown, result?: unknown) => void;
/** pg-pool's `connect` callback: the error, then the client and its release function. */
type ConnectCallback = (error: unknown, ...rest: unknown[]) => void;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The calls under way (queries sent, connections awaited), so that the oldest one's age can be read
 * at any time: a stalled database shows in it from the first second, long before a call times out.
 */
export class CallsUnderWay {
  private next = 0;
  /** Start times by call, in the order the calls began: the first entry is the oldest. */
  private readonly started = new Map<number, number>();

  /** Marks a call begun; the function returned marks it ended. */
  begin(): () => void {
    const id = this.next++;
    this.started.set(id, performance.now());
    return () => this.started.delete(id);
  }

  /** How long the oldest call under way has been waiting, in seconds; 0 when none is. */
  oldestSeconds(): number {
    const oldest = this.started.values().next();
    return oldest.done === true ? 0 : (performance.now() - oldest.value) / 1000;
  }
}

/**
 * The most distinct statement texts named (prepared) per process: every text of the store is a
 * constant or built from a fixed list (tables, columns), so a few hundred at most; a text past the
 * bound (SQL built from data, which the store does not do) runs unnamed, never growing the
 * prepared statements of every connection without end.
 */
export const MAX_NAMED_STATEMENTS = 1_000;

/** The tables the world read caches hold rows of (world-read-caches.ts): a write to one drops them. */
const CACHED_TABLES = /\b(applications|bot_profiles|users|guilds|guild_threads|thread_members)\b/i;
const WRITE_STATEMENT = /^\s*(INSERT|UPDATE|DELETE|WITH|MERGE|TRUNCATE|ALTER|DROP)\b/i;

/** What is known of one statement text: its prepared statement's name, and whether it writes cached rows. */
interface StatementFacts {
  name: string | undefined;
  writesCached: boolean;
}

/**
 * The facts of each statement text, worked out once per text: a name derived from the text's
 * hash (`slashd-h<hash>`), so that every parameterized statement is parsed and planned once per
 * connection with no call site naming it, and whether it writes rows the world read caches hold.
 */
export class StatementCatalog {
  private readonly facts = new Map<string, StatementFacts>();

  of(text: string): StatementFacts {
    let facts = this.facts.get(text);
    if (facts === undefined) {
      const named = this.facts.size < MAX_NAMED_STATEMENTS;
      facts = {
        name: named ? `slashd-h${createHash('sha256').update(text).digest('hex').slice(0, 24)}` : undefined,
        writesCached: WRITE_STATEMENT.test(text) && CACHED_TABLES.test(text),
      };
      // Past the bound, texts are still classified (writes must drop the caches), not remembered.
      if (named) this.facts.set(text, facts);
    }
    return facts;
  }

  /** How many texts are named (a test's check that no dynamic text grows the set). */
  get size(): number {
    return this.facts.size;
  }
}

/**
 * A parameterized query by text (`query(text, values[, callback])`, or a config with no name) as a
 * named one: parameterized statements go by the extended protocol anyway, so a name only spares
 * the server parsing and planning them again. Texts without values (simple protocol, which may
 * hold several statements: migrations, BEGIN) stay as they are. Returns whether the statement
 * writes rows the world read caches hold.
 */
function nameStatement(catalog: StatementCatalog, args: unknown[]): boolean {
  const first = args[0];
  if (typeof first === 'string') {
    const facts = catalog.of(first);
    if (Array.isArray(args[1]) && facts.name !== undefined) {
      args[0] = { name: facts.name, text: first, values: args[1] };
      args.splice(1, 1);
    }
    return facts.writesCached;
  }
  if (typeof first === 'object' && first !== null && typeof (first as pg.QueryConfig).text === 'string') {
    const config = first as pg.QueryConfig;
    const facts = catalog.of(config.text);
    if (config.name === undefined && Array.isArray(config.values) && facts.name !== undefined) {
      args[0] = { ...config, name: facts.name };
    }
    return facts.writesCached;
  }
  return false;
}

/** Calls `settled` with the error (or null) and the seconds once a query issued by callback or promise ends. */
function observeQuery(
  run: QueryMethod,
  self: pg.Client,
  args: unknown[],
  calls: CallsUnderWay,
  settled: (error: unknown, seconds: number) => void,
) {
  const started = performance.now();
  const ended = calls.begin();
  const done = (error: unknown) => {
    ended();
    settled(error, (performance.now() - started) / 1000);
  };
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function') {
    args[last] = (error: unknown, result?: unknown) => {
      done(error ?? null);
      (callback as Callback)(error, result);
    };
    return run.apply(self, args);
  }
  const result = run.apply(self, args);
  if (isThenable(result)) result.then(() => done(null), done);
  return result;
}

/** The clients that wrote cached rows in the transaction under way (dropped again when it ends). */
const WROTE_CACHED = new WeakSet<pg.Client>();

/**
 * pg's Client with every query observed (the pool's own queries and those on a checked-out client
 * alike), every parameterized statement named (`nameStatement`), and every write of cached rows
 * reported to `wroteCached` once it ended (committed, outside a transaction).
 */
function observedClient(
  calls: CallsUnderWay,
  catalog: StatementCatalog,
  settled: (error: unknown, seconds: number) => void,
  wroteCached: () => void,
): typeof pg.Client {
  class ObservedClient extends pg.Client {}
  // Taken off the prototype to be called on each client (`apply` in `observeQuery`).
  const run = Reflect.get(pg.Client.prototype, 'query') as QueryMethod;
  Object.defineProperty(ObservedClient.prototype, 'query', {
    value: function query(this: pg.Client, ...args: unknown[]): unknown {
      if (!nameStatement(catalog, args)) return observeQuery(run, this, args, calls, settled);
      WROTE_CACHED.add(this);
      return observeQuery(run, this, args, calls, (error, seconds) => {
        // Dropped at once (and again when its transaction ends: a read meanwhile saw the old rows).
        wroteCached();
        settled(error, seconds);
      });
    },
  });
  return ObservedClient;
}

/** The error's message for a log line (never a connection string: pg's messages do not carry one). */
function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class PostgresConnection {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly quotedSchema: string;
  /** Whether the database answers, from the outcome of the last calls. */
  readonly state: DependencyState;
  private observer: DependencyObserver = NO_DEPENDENCY_OBSERVER;
  /** Once the pool is ending, failures are the store closing, not the database going away. */
  private ending = false;
  /** Queries and connects under way: the age of the oldest is the earliest sign of a stall. */
  readonly calls = new CallsUnderWay();
  /** Every statement text's name and kind, shared by the pool's connections. */
  readonly statements = new StatementCatalog();
  /** Called once a write of rows the world read caches hold has run (world-read-caches.ts listens). */
  private readonly cachedWriteListeners: (() => void)[] = [];
  /** The options a connection of its own (the invalidation listener) is made with. */
  readonly clientConfig: pg.ClientConfig;

  constructor(
    options: PostgresConnectionOptions,
    readonly now: () => number,
  ) {
    if (!SCHEMA_NAME.test(options.schema)) throw new Error(`invalid PostgreSQL schema name: ${options.schema}`);
    this.schema = options.schema;
    this.quotedSchema = `"${options.schema}"`;
    this.state = new DependencyState(() => this.observer);
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.clientConfig = {
      ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    };
    this.pool = new pg.Pool({
      ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
      Client: observedClient(
        this.calls,
        this.statements,
        (error, seconds) => this.settled(error, seconds),
        () => this.wroteCached(),
      ),
      max: options.max ?? DEFAULT_POOL_MAX,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      options: `-c search_path=${options.schema}`,
    });
    // An idle connection the server drops must not crash the process; the next query reconnects.
    this.pool.on('error', (error) => {
      if (!this.ending) this.state.set(false, detailOf(error));
    });
    this.observeConnects();
  }

  /** Where calls and changes of the database's state are reported (metrics, logs). */
  observe(observer: DependencyObserver): void {
    this.observer = observer;
  }

  /** `listener` is called after each write of rows the world read caches hold (this process's own writes). */
  onCachedWrite(listener: () => void): void {
    this.cachedWriteListeners.push(listener);
  }

  private wroteCached(): void {
    for (const listener of this.cachedWriteListeners) listener();
  }

  /** Closes the pool (its connections end as their queries do). */
  async end(): Promise<void> {
    this.ending = true;
    await this.pool.end();
  }

  private settled(error: unknown, seconds: number): void {
    if (this.ending) return;
    if (error === null) return this.state.record('ok', seconds);
    const outcome = postgresOutcome(error);
    this.state.record(outcome, seconds, detailOf(error), answeredByServer(error));
  }

  /** A connection that could not be made (refused, timed out) is a failed call too; pool.query goes through here. */
  private observeConnects(): void {
    const connect = this.pool.connect.bind(this.pool) as (callback?: ConnectCallback) => unknown;
    const observed = (callback?: ConnectCallback): unknown => {
      const started = performance.now();
      const ended = this.calls.begin();
      const failed = (error: unknown) => this.settled(error, (performance.now() - started) / 1000);
      if (callback) {
        return connect((error, ...rest) => {
          ended();
          if (error) failed(error);
          callback(error, ...rest);
        });
      }
      const result = connect();
      if (isThenable(result)) {
        result.then(ended, (error: unknown) => {
          ended();
          failed(error);
        });
      } else ended();
      return result;
    };
    this.pool.connect = observed as typeof this.pool.connect;
  }

  /**
   * Runs `work` on one connection inside BEGIN/COMMIT; anything it throws rolls back and reaches the
   * caller. A connection that timed out or was lost is destroyed without a ROLLBACK (which would
   * wait as long again): the server rolls back a transaction whose connection ends.
   */
  async transaction<T>(work: (client: PostgresClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isPostgresUnavailable(error) && !answeredByServer(error);
      if (!broken) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
      }
      throw error;
    } finally {
      // Once committed (or rolled back), a read that ran meanwhile may have cached the old rows.
      if (WROTE_CACHED.delete(client)) this.wroteCached();
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
