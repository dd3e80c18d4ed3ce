/** Applying the PostgreSQL halves of the dated migrations (`../dated-migrations.ts`) a schema lacks. */
import { unknownMigrations, type DatedMigration, type PostgresHalf } from '../dated-migrations.js';
import { checkDatedMigrations } from '../schema-version.js';
import type { PostgresClient, PostgresConnection } from './connection.js';

async function run(client: PostgresClient, half: Exclude<PostgresHalf, null>): Promise<void> {
  if (typeof half === 'string') await client.query(half);
  else await half(client);
}

/**
 * Applies, by name order, the migrations with a PostgreSQL half that the schema has not recorded;
 * each and its `schema_dated_migrations` row commit together, under `lock` (the one `migrate`
 * takes), so processes starting at once apply each once. Says which it applied. A schema recording
 * a migration this slashd does not know is refused (`UnknownMigrationsError`), as it is newer.
 */
export async function applyDatedMigrations(
  conn: PostgresConnection,
  lock: (client: PostgresClient) => Promise<unknown>,
  migrations: readonly DatedMigration[],
  version: number,
): Promise<string[]> {
  const recorded = await conn.pool.query<{ name: string }>('SELECT name FROM schema_dated_migrations');
  checkDatedMigrations(
    unknownMigrations(
      recorded.rows.map((row) => row.name),
      migrations,
    ),
    version,
  );
  const done = new Set(recorded.rows.map((row) => row.name));
  const applied: string[] = [];
  for (const migration of migrations) {
    const half = migration.postgres;
    if (half === null || done.has(migration.name)) continue;
    await conn.transaction(async (client) => {
      await lock(client);
      const found = await client.query('SELECT 1 FROM schema_dated_migrations WHERE name = $1', [migration.name]);
      if (found.rowCount) return;
      await run(client, half);
      await client.query('INSERT INTO schema_dated_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    });
  }
  return applied;
}
