/** A database slashd cannot use, told to the operator in one line (`serve`, `migrate`). */
import { DatabaseOpenError } from '../store/sqlite/connection.js';
import { isPostgresUrl, redactPostgresUrl } from '../store/postgres/url.js';
import { PostgresOpenError } from '../store/postgres/postgres-store.js';
import { SchemaTooNewError } from '../store/schema-version.js';

/** A failure to create the database's folder or open its file: reported as one line, exit code 1. */
export function isDatabaseSetupError(error: unknown, db: string): error is Error {
  if (error instanceof SchemaTooNewError) return true;
  if (isPostgresUrl(db)) return error instanceof PostgresOpenError;
  return (
    error instanceof DatabaseOpenError || (error instanceof Error && 'syscall' in error && error.syscall === 'mkdir')
  );
}

/** One line for an operator whose database cannot be used. */
export function databaseSetupMessage(error: Error, db: string): string {
  if (error instanceof SchemaTooNewError) return `slashd refuses to start: ${error.message}`;
  if (isPostgresUrl(db)) return `cannot use the PostgreSQL database at ${redactPostgresUrl(db)}: ${error.message}`;
  return error instanceof DatabaseOpenError
    ? error.message
    : `cannot open the SQLite database at ${db}: ${error.message}`;
}
