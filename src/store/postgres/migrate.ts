/** Applying the PostgreSQL schema migrations (`migrations.ts`, then the dated ones) a schema lacks. */
import type { DatedMigration } from '../dated-migrations.js';
import { checkSchemaVersion, type MigrationReport } from '../schema-version.js';
import type { PostgresClient, PostgresConnection } from './connection.js';
import { applyDatedMigrations } from './dated-migrations.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations.js';

/**
 * Applies the migrations the schema lacks, and says which. An advisory lock on the schema's name
 * serializes processes starting at once (even the creation of the schema itself, which does not
 * exist yet for `current_schema()` to name); each migration and its `schema_migrations` row commit
 * together. Then the dated migrations (`datedMigrations`, in order) the schema lacks, the same way.
 * A schema newer than the newest migration here is refused (`SchemaTooNewError`).
 */
export async function migrate(
  conn: PostgresConnection,
  datedMigrations: readonly DatedMigration[] = [],
): Promise<MigrationReport> {
  const lock = (client: PostgresClient) =>
    client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd migrations/' || $1, 0))", [conn.schema]);
  const before = await conn.transaction(async (client) => {
    await lock(client);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${conn.quotedSchema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const found = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    return found.rows[0]?.v ?? 0;
  });
  checkSchemaVersion(before, LATEST_VERSION);
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    await conn.transaction(async (client) => {
      await lock(client);
      const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rowCount) return;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    });
  }
  const after = Math.max(before, LATEST_VERSION);
  const dated = await applyDatedMigrations(conn, lock, datedMigrations, after);
  return { before, after, applied, dated };
}
