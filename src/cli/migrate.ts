/**
 * `slashd migrate`: brings the database's schema to this version of slashd and exits, so that an
 * operator can migrate once before starting (or upgrading) many nodes; it says which migrations it
 * applied, or that there was nothing to apply. `serve` migrates too. A schema newer than this
 * slashd knows is refused with one line and exit code 1 (docs/operations.md).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { isPostgresUrl } from '../store/postgres/url.js';
import { migrationLines, type MigrationReport } from '../store/schema-version.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { DATABASE_OPTIONS, parseDatabaseArgs, type DatabaseArgs } from './database-args.js';
import { databaseSetupMessage, isDatabaseSetupError } from './database-setup-error.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';

/** What migrating did, and where. */
async function migrateDatabase(args: DatabaseArgs): Promise<{ report: MigrationReport; where: string }> {
  if (isPostgresUrl(args.db)) {
    const store = await PostgresStore.open({
      connectionString: args.db,
      schema: args.dbSchema,
      statementTimeoutMs: args.dbStatementTimeoutMs,
    });
    await store.close();
    return { report: store.migration, where: `PostgreSQL schema ${args.dbSchema}` };
  }
  if (args.db !== ':memory:') mkdirSync(dirname(args.db), { recursive: true });
  const store = new SqliteStore({ path: args.db });
  await store.close();
  return { report: store.migration, where: `SQLite database ${args.db}` };
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
    const { report, where } = await migrateDatabase(args);
    for (const line of migrationLines(report)) out.log(`${where}: ${line}`);
    return EXIT_OK;
  } catch (error) {
    if (!isDatabaseSetupError(error, args.db)) throw error;
    out.error(databaseSetupMessage(error, args.db));
    return EXIT_FAILED;
  }
}
