/**
 * `slashd migrate`: brings the database's schema to this version of slashd and exits, so that an
 * operator can migrate once before starting (or upgrading) many nodes. `serve` migrates too.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { isPostgresUrl } from '../store/postgres/url.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { DATABASE_OPTIONS, parseDatabaseArgs, type DatabaseArgs } from './database-args.js';
import { databaseSetupMessage } from './serve.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';

/** The schema version after migrating, and where. */
async function migrateDatabase(args: DatabaseArgs): Promise<{ version: number; where: string }> {
  if (isPostgresUrl(args.db)) {
    const store = await PostgresStore.open({
      connectionString: args.db,
      schema: args.dbSchema,
      statementTimeoutMs: args.dbStatementTimeoutMs,
    });
    try {
      return { version: await store.schemaVersion(), where: `PostgreSQL schema ${args.dbSchema}` };
    } finally {
      await store.close();
    }
  }
  if (args.db !== ':memory:') mkdirSync(dirname(args.db), { recursive: true });
  const store = new SqliteStore({ path: args.db });
  try {
    return { version: store.schemaVersion(), where: `SQLite database ${args.db}` };
  } finally {
    await store.close();
  }
}

export async function runMigrate(argv: string[], out: Output, env = process.env): Promise<number> {
  let args: DatabaseArgs;
  try {
    const { values, positionals } = parseCommandLine(argv, DATABASE_OPTIONS);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    args = parseDatabaseArgs(values, env);
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('migrate', error, out);
    throw error;
  }
  try {
    const { version, where } = await migrateDatabase(args);
    out.log(`${where}: at schema version ${version}`);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    out.error(databaseSetupMessage(error, args.db));
    return EXIT_FAILED;
  }
}
