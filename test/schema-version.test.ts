/**
 * The schema guard's pure parts and the SQLite store refusing a newer file (PostgreSQL, and both
 * through the command line, are in test/faults-dependencies.test.ts): what `slashd migrate` says.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { checkSchemaVersion, describeMigration, SchemaTooNewError } from '../src/store/schema-version.js';
import { LATEST_VERSION } from '../src/store/sqlite/migrations.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

describe('the schema version guard', () => {
  test('migrate says which versions it applied, as runs, or that there was nothing to apply', () => {
    assert.equal(
      describeMigration({ before: 6, after: 9, applied: [7, 8, 9] }),
      'applied migrations 7-9 (schema version 6 to 9)',
    );
    assert.equal(
      describeMigration({ before: 8, after: 9, applied: [9] }),
      'applied migration 9 (schema version 8 to 9)',
    );
    assert.equal(
      describeMigration({ before: 6, after: 6, applied: [3, 5, 6] }),
      'applied migrations 3, 5-6, missing below schema version 6',
    );
    // Issue 39: 13 merged after 14-15 shipped, applied with 16 on a schema at 15.
    assert.equal(
      describeMigration({ before: 15, after: 16, applied: [13, 16] }),
      'applied migration 16 (schema version 15 to 16)\napplied migration 13, missing below schema version 15',
    );
    assert.equal(
      describeMigration({ before: 9, after: 9, applied: [] }),
      'schema already at version 9, nothing to apply',
    );
  });

  test('a schema past the newest migration known is refused; at or below it is not', () => {
    checkSchemaVersion(9, 9);
    checkSchemaVersion(0, 9);
    assert.throws(
      () => checkSchemaVersion(10, 9),
      (error: unknown) => {
        assert.ok(error instanceof SchemaTooNewError);
        assert.deepEqual([error.found, error.known], [10, 9]);
        assert.match(error.message, /^the database schema is at version 10, newer than this slashd knows \(9\)/);
        return true;
      },
    );
  });

  test('SQLite: a file migrated by a newer slashd is refused, and left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-schema-'));
    try {
      const path = join(dir, 'newer.sqlite');
      const fresh = new SqliteStore({ path });
      assert.deepEqual(fresh.migration.applied.at(-1), LATEST_VERSION);
      await fresh.close();
      const db = new Database(path);
      db.prepare("INSERT INTO schema_migrations (version, name) VALUES (?, 'newer')").run(LATEST_VERSION + 1);
      db.close();
      assert.throws(() => new SqliteStore({ path }), SchemaTooNewError);
      const check = new Database(path, { readonly: true });
      const max = check.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number };
      check.close();
      assert.equal(max.v, LATEST_VERSION + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
