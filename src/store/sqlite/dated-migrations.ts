/** Applying the SQLite halves of the dated migrations (`../dated-migrations.ts`) a file lacks. */
import type Database from 'better-sqlite3';
import { unknownMigrations, type DatedMigration, type SqliteHalf } from '../dated-migrations.js';
import { checkDatedMigrations } from '../schema-version.js';

function run(db: Database.Database, half: Exclude<SqliteHalf, null>): void {
  if (typeof half === 'string') db.exec(half);
  else half(db);
}

/**
 * Applies, by name order, the migrations with a SQLite half that the file has not recorded; each
 * and its `schema_dated_migrations` row commit together. Says which it applied. A file recording
 * a migration this slashd does not know is refused (`UnknownMigrationsError`), as it is newer.
 */
export function applyDatedMigrations(
  db: Database.Database,
  migrations: readonly DatedMigration[],
  version: number,
): string[] {
  const recorded = db.prepare('SELECT name FROM schema_dated_migrations').pluck().all() as string[];
  checkDatedMigrations(unknownMigrations(recorded, migrations), version);
  const done = new Set(recorded);
  const applied: string[] = [];
  for (const migration of migrations) {
    const half = migration.sqlite;
    if (half === null || done.has(migration.name)) continue;
    // Another process on the file may have applied it meanwhile: checked again under the write lock.
    const ran = db
      .transaction(() => {
        if (db.prepare('SELECT 1 FROM schema_dated_migrations WHERE name = ?').get(migration.name)) return false;
        run(db, half);
        db.prepare('INSERT INTO schema_dated_migrations (name) VALUES (?)').run(migration.name);
        return true;
      })
      .immediate();
    if (ran) applied.push(migration.name);
  }
  return applied;
}
