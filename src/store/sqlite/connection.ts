/**
 * One better-sqlite3 connection in WAL mode, with what every table module needs: prepared
 * statements by SQL text, the read caches, the clock, and the schema migrations.
 */
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { AUTOCHECKPOINT_PAGES, JOURNAL_SIZE_LIMIT_BYTES, WalCheckpointer } from './checkpointer.js';
import type { DatedMigration } from '../dated-migrations.js';
import { checkSchemaVersion, SchemaTooNewError, type MigrationReport } from '../schema-version.js';
import { applyDatedMigrations } from './dated-migrations.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations.js';
import { DEFAULT_CACHE_BYTES, ReadCaches } from './read-caches.js';

/** By default, how long a plain read may trust the caches before it asks SQLite again, in ms. */
export const READ_STALENESS_MS = 1;

/** The database file could not be opened or set up; the message names the path, for the operator. */
/** How long a statement waits for another process's lock before failing (ms). */
const BUSY_TIMEOUT_MS = 5_000;
/**
 * How much of the file SQLite reads through a memory map (it caps this at its build's maximum): a
 * page the OS already holds is then a memory access, not a read() call and a copy into SQLite's own
 * small page cache, which a world larger than that cache would otherwise pay on most reads.
 */
const MMAP_SIZE_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * A TRUNCATE checkpoint on `db` itself (its own checkpoint leaves its `data_version`, and so its
 * read caches, as they are), never waiting: a reader of another process (a backup) keeps the WAL
 * until the next quiet tick.
 */
function truncateWal(db: Database.Database): boolean {
  db.pragma('busy_timeout = 0');
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return result?.busy === 0;
  } catch {
    return false;
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

export class DatabaseOpenError extends Error {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot open the SQLite database at ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseOpenError';
  }
}

function openDatabase(path: string): Database.Database {
  try {
    return new Database(path);
  } catch (error) {
    throw new DatabaseOpenError(path, error);
  }
}

/** The writes of one turn of the event loop, committed together at its end (group commit). */
interface TurnCommit {
  /** Settles once COMMIT returned (resolved) or the turn's writes were rolled back (rejected). */
  readonly done: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function turnCommit(): TurnCommit {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited by whoever answers after it; a turn nobody answered for must not be an unhandled rejection.
  done.catch(() => undefined);
  return { done, resolve, reject };
}

/**
 * The connections open in this process, by file. Turns commit only on a file this process opened
 * once: a second connection here (two nodes in one test process, a tool beside the server) would
 * wait on the first's open turn with the one thread that could commit it.
 */
const openHere = new Map<string, Set<SqliteConnection>>();

function fileKey(path: string): string | null {
  return path === ':memory:' || path === '' ? null : resolve(path);
}

export class SqliteConnection {
  readonly db: Database.Database;
  readonly cached: ReadCaches;
  private readonly statements = new Map<string, Database.Statement>();
  private lastVersionCheck = Number.NEGATIVE_INFINITY;
  /** Whether transactions of one turn share one commit (`commitByTurn`); off: each commits alone. */
  private groupCommits = false;
  /** The open turn's commit, while one is open. */
  private turn: TurnCommit | null = null;
  /** How deep `transaction` work is running now (0: outside any). */
  private unitDepth = 0;
  /** Commits made so far (tests count them). */
  commits = 0;
  /** The file, as `openHere` knows it (null: in memory). */
  private readonly file: string | null;
  /** better-sqlite3's transaction function, made once: making one per call costs more than a savepoint. */
  private readonly runWork: Database.Transaction<(work: () => unknown) => unknown>;
  private readonly checkpointer: WalCheckpointer | null = null;
  /** What opening did to the schema (`slashd migrate` prints it). */
  readonly migration: MigrationReport;

  constructor(
    path: string,
    readonly now: () => number,
    private readonly readStalenessMs = READ_STALENESS_MS,
    cacheBytes = DEFAULT_CACHE_BYTES,
    /** The dated migrations to apply after the numbered baseline, in order (the store gives them). */
    private readonly datedMigrations: readonly DatedMigration[] = [],
  ) {
    this.cached = new ReadCaches(cacheBytes);
    this.file = fileKey(path);
    const neighbours = this.file === null ? undefined : openHere.get(this.file);
    // Their open turns hold the write lock this connection's migrations may need.
    for (const other of neighbours ?? []) other.commitTurn();
    this.db = openDatabase(path);
    this.runWork = this.db.transaction((work: () => unknown) => work());
    try {
      // SQLite opens lazily: a directory or an unwritable file fails at the first statement.
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      this.db.pragma('foreign_keys = ON');
      this.db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
      this.db.pragma(`mmap_size = ${MMAP_SIZE_BYTES}`);
      this.migration = this.migrate();
    } catch (error) {
      this.db.close();
      // A newer schema is its own one line, not a file that cannot be opened.
      throw error instanceof SchemaTooNewError ? error : new DatabaseOpenError(path, error);
    }
    if (this.db.pragma('journal_mode', { simple: true }) === 'wal') {
      // Checkpoints copy pages back and fsync: a worker does them, not the thread serving requests.
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new WalCheckpointer(path, {
        onLost: () => this.db.open && this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`),
        truncate: () => this.db.open && truncateWal(this.db),
      });
    }
    if (this.file !== null) openHere.set(this.file, (neighbours ?? new Set()).add(this));
  }

  /** Runs `listener` each time the WAL was truncated once writes paused (tests wait on it); the function returned stops it. */
  onWalTruncated(listener: () => void): () => void {
    return this.checkpointer?.onTruncated(listener) ?? (() => undefined);
  }

  /** Prepared once per SQL text: preparing costs more than running most of these queries. */
  sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: the write lock is taken before the first read, so a
   * decision made on what `work` reads still holds when it writes (other processes on the file
   * wait). Inside another transaction it is a savepoint of that one.
   */
  transaction<T>(work: () => T): T {
    if (this.groupCommits && this.turn === null && !this.db.inTransaction && this.aloneHere()) this.openTurn();
    this.unitDepth++;
    try {
      const result = this.runWork.immediate(work) as T;
      if (this.turn === null && this.unitDepth === 1) this.commits++;
      return result;
    } finally {
      this.unitDepth--;
    }
  }

  /**
   * From now on the transactions of one turn of the event loop are savepoints of one IMMEDIATE
   * transaction committed at the turn's end: a commit writes each page once for all of them (under
   * load a turn carries many requests' writes). Whoever answers for a write waits for `durable()`
   * first, so nothing answered is lost to kill -9; each `transaction` is still all or nothing.
   */
  commitByTurn(): void {
    this.groupCommits = true;
  }

  /** Settles once every write made so far is committed; undefined when none waits. */
  durable(): Promise<void> | undefined {
    return this.turn?.done;
  }

  /** Whether `transaction` work is running (a read there may see writes it could still undo). */
  get inUnit(): boolean {
    return this.unitDepth > 0;
  }

  private aloneHere(): boolean {
    return this.file === null || openHere.get(this.file)?.size === 1;
  }

  private openTurn(): void {
    this.db.exec('BEGIN IMMEDIATE');
    this.turn = turnCommit();
    setImmediate(() => this.commitTurn());
  }

  /** Commits the turn's writes; if that fails they are gone, the caches with them, and the waiters learn it. */
  private commitTurn(): void {
    const turn = this.turn;
    if (turn === null) return;
    this.turn = null;
    try {
      // A failed statement can roll back the whole transaction (a full disk): nothing to commit then.
      if (!this.db.inTransaction) throw new Error('the writes of this turn were rolled back');
      this.db.exec('COMMIT');
      this.commits++;
      turn.resolve();
    } catch (error) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } finally {
        this.cached.clear();
      }
      turn.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * The read caches for a plain read: another connection's commit is noticed within the read
   * staleness (a read racing a commit could have gone either way anyway).
   */
  caches(): ReadCaches {
    const now = performance.now();
    if (now - this.lastVersionCheck >= this.readStalenessMs) return this.freshCaches();
    return this.cached;
  }

  /** The read caches, emptied first if another connection has written since they were filled. */
  freshCaches(): ReadCaches {
    this.lastVersionCheck = performance.now();
    this.cached.checkDataVersion(this.sql('PRAGMA data_version').pluck().get() as number);
    return this.cached;
  }

  /**
   * Applies the migrations the file lacks (the numbered baseline, then the dated ones), and says
   * which; refuses a schema newer than this slashd knows.
   */
  private migrate(): MigrationReport {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const done = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    const before = Math.max(0, ...done);
    checkSchemaVersion(before, LATEST_VERSION);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      // Another process on the file may have applied it meanwhile: checked again under the write lock.
      const ran = this.db
        .transaction(() => {
          if (this.db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version)) return false;
          this.db.exec(migration.sql);
          this.db
            .prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)')
            .run(migration.version, migration.name);
          return true;
        })
        .immediate();
      if (ran) applied.push(migration.version);
    }
    const after = Math.max(before, LATEST_VERSION);
    const dated = applyDatedMigrations(this.db, this.datedMigrations, after);
    return { before, after, applied, dated };
  }

  schemaVersion(): number {
    const row = this.sql('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    return row.v ?? 0;
  }

  /** Throws when the connection is closed or the file cannot be read. */
  ping(): void {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.commitTurn();
    if (this.file !== null) {
      const here = openHere.get(this.file);
      here?.delete(this);
      if (here?.size === 0) openHere.delete(this.file);
    }
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}
