/**
 * The dated migrations of the store itself: those changing every resource's tables at once, which
 * no one resource owns (a resource's own are in its folder, `src/resources/<name>/migrations/`).
 */
import { orderDatedMigrations, type DatedMigration, type MigrationOwner } from '../dated-migrations.js';
import { idCollation } from './2026-12-02-id-collation.js';
import { worldReadNotices } from './2026-12-03-world-read-notices.js';

export const STORE_MIGRATIONS: readonly DatedMigration[] = [idCollation, worldReadNotices];

/** Every dated migration to apply, in order: the store's own and each resource's of the list. */
export function datedMigrationsOf(resources: readonly MigrationOwner[]): readonly DatedMigration[] {
  return orderDatedMigrations([{ migrations: STORE_MIGRATIONS }, ...resources]);
}
