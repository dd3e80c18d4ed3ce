/**
 * `slashd backup --to FILE`: a consistent copy of a SQLite database taken while slashd serves it,
 * with SQLite's `VACUUM INTO`: one read transaction, so the copy holds every write committed
 * before it began (those still in the WAL too, which a file copy misses) and none after, and the
 * serving node's writes go on meanwhile. PostgreSQL is backed up with `pg_dump` (docs/operations.md).
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isPostgresUrl } from '../store/postgres/url.js';
import { DATABASE_OPTIONS, parseDatabaseArgs } from './database-args.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';

/** How long the copy waits for a writer's lock before it starts (ms): a write takes milliseconds. */
const BUSY_TIMEOUT_MS = 5_000;

const OPTIONS = { ...DATABASE_OPTIONS, to: { type: 'string' } } as const;

/** Copies the database at `source` into the new file `target`; returns its size in bytes. */
export function backupSqlite(source: string, target: string): number {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy fails SQLite's check: ${String(check)}`);
    return (
      (copy.pragma('page_count', { simple: true }) as number) * (copy.pragma('page_size', { simple: true }) as number)
    );
  } finally {
    copy.close();
  }
}

export async function runBackup(argv: string[], out: Output, env = process.env): Promise<number> {
  let db: string;
  let to: string;
  try {
    const { values, positionals } = parseCommandLine(argv, OPTIONS);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    db = parseDatabaseArgs(values, env).db;
    if (typeof values['to'] !== 'string' || values['to'] === '') throw new UsageError('--to FILE is required');
    to = values['to'];
    if (isPostgresUrl(db)) {
      throw new UsageError('a PostgreSQL database is backed up with pg_dump (docs/operations.md)', false);
    }
    if (db === ':memory:') throw new UsageError('an in-memory database has no file to back up', false);
    if (!existsSync(db)) throw new UsageError(`no database at ${db}`, false);
    if (existsSync(to)) throw new UsageError(`${to} exists: the backup is written to a new file`, false);
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('backup', error, out);
    throw error;
  }
  try {
    const bytes = backupSqlite(db, to);
    out.log(`backed up ${db} to ${to} (${bytes} bytes)`);
    return EXIT_OK;
  } catch (error) {
    out.error(`slashd backup: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
}
