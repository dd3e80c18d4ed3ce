/**
 * Dated migrations: every schema change after the numbered baselines (`sqlite/migrations.ts`,
 * `postgres/migrations.ts`) is one file, named by the day it was written and what it does
 * (`src/resources/<name>/migrations/2026-12-02-<what>.ts`, or `src/store/migrations/` for a change
 * of every resource's tables), holding both dialects' halves side by side. They run after the
 * baseline, ordered by name, each once, in one transaction with its row in
 * `schema_dated_migrations` (docs/decisions.md, "Dated migrations"). A migration is never edited
 * after it has shipped: a change to the schema is a new file.
 */
import type Database from 'better-sqlite3';
import type { PostgresClient } from './postgres/connection.js';

/** What one dialect does: SQL run as is, a function given the connection, or null: nothing. */
export type SqliteHalf = string | ((db: Database.Database) => void) | null;
export type PostgresHalf = string | ((client: PostgresClient) => Promise<void>) | null;

export interface DatedMigration {
  /** `2026-12-02-what-it-does`: the file's name; the order migrations run in. */
  readonly name: string;
  /**
   * Each dialect's half. A null half is a dialect that needs nothing: nothing runs there, nothing
   * is recorded, and the report does not name it (so it never says a schema changed that did not).
   */
  readonly sqlite: SqliteHalf;
  readonly postgres: PostgresHalf;
}

/** A migration's name: the day it was written, then lower-case words joined by dashes. */
const NAME_FORMAT = /^\d{4}-\d{2}-\d{2}-[a-z0-9]+(-[a-z0-9]+)*$/;

/** A migration list cannot be run: a name out of format, or one name twice. */
export class DatedMigrationListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatedMigrationListError';
  }
}

/** Whatever contributes migrations: the store's own list and each resource of the list. */
export interface MigrationOwner {
  readonly migrations?: readonly DatedMigration[] | undefined;
}

/** Every owner's migrations in the order they run (by name); refuses a bad or repeated name. */
export function orderDatedMigrations(owners: readonly MigrationOwner[]): readonly DatedMigration[] {
  const all = owners.flatMap((owner) => owner.migrations ?? []);
  const seen = new Set<string>();
  for (const migration of all) {
    if (!NAME_FORMAT.test(migration.name)) {
      throw new DatedMigrationListError(`the migration name '${migration.name}' is not YYYY-MM-DD-what-it-does`);
    }
    if (seen.has(migration.name)) throw new DatedMigrationListError(`two migrations are named '${migration.name}'`);
    seen.add(migration.name);
  }
  return [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The names recorded in the database that this slashd does not know: a newer one applied them. */
export function unknownMigrations(recorded: readonly string[], known: readonly DatedMigration[]): string[] {
  const names = new Set(known.map((migration) => migration.name));
  return recorded.filter((name) => !names.has(name)).sort();
}
