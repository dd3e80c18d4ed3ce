/**
 * The dated migrations after the numbered baseline (src/store/dated-migrations.ts): their order,
 * each applied once with its row on both dialects, a null half neither run nor recorded, what the
 * report says, and a database recording one this slashd does not know refused as newer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { DatedMigrationListError, orderDatedMigrations, type DatedMigration } from '../src/store/dated-migrations.js';
import { datedMigrationsOf } from '../src/store/migrations/index.js';
import { RESOURCES } from '../src/resources/index.js';
import { PostgresConnection } from '../src/store/postgres/connection.js';
import { migrate } from '../src/store/postgres/migrate.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { migrationLines, SchemaTooNewError, UnknownMigrationsError } from '../src/store/schema-version.js';
import { SqliteConnection } from '../src/store/sqlite/connection.js';
import { LATEST_VERSION } from '../src/store/sqlite/migrations.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';

/** Three migrations given out of order: a SQL half, a function half, and one for PostgreSQL only. */
const MIGRATIONS: readonly DatedMigration[] = [
  {
    name: '2026-12-05-notes-index',
    sqlite: (db) => db.exec('CREATE INDEX notes_by_body ON notes (body)'),
    postgres: async (client) => {
      await client.query('CREATE INDEX notes_by_body ON notes (body)');
    },
  },
  { name: '2026-12-03-notes', sqlite: 'CREATE TABLE notes (body TEXT)', postgres: 'CREATE TABLE notes (body TEXT)' },
  { name: '2026-12-04-postgres-only', sqlite: null, postgres: 'ALTER TABLE notes ADD COLUMN extra TEXT' },
];

const ORDERED = orderDatedMigrations([{ migrations: MIGRATIONS }]);

describe('dated migrations', () => {
  test('run in name order across owners; a bad or repeated name is refused', () => {
    assert.deepEqual(
      ORDERED.map((m) => m.name),
      ['2026-12-03-notes', '2026-12-04-postgres-only', '2026-12-05-notes-index'],
    );
    const notes = MIGRATIONS[1]!;
    assert.throws(
      () => orderDatedMigrations([{ migrations: [notes] }, { migrations: [notes] }]),
      DatedMigrationListError,
    );
    assert.throws(() => orderDatedMigrations([{ migrations: [{ ...notes, name: 'notes' }] }]), DatedMigrationListError);
    assert.throws(
      () => orderDatedMigrations([{ migrations: [{ ...notes, name: '2026-12-03-Notes' }] }]),
      DatedMigrationListError,
    );
  });

  test('the report names each dated migration applied, after the numbered ones', () => {
    assert.deepEqual(
      migrationLines({ before: 18, after: 19, applied: [19], dated: ['2026-12-02-a', '2026-12-03-b'] }),
      [
        'applied migration 19 (schema version 18 to 19)',
        'applied migration 2026-12-02-a',
        'applied migration 2026-12-03-b',
      ],
    );
    assert.deepEqual(migrationLines({ before: 19, after: 19, applied: [], dated: ['2026-12-02-a'] }), [
      'applied migration 2026-12-02-a',
    ]);
    assert.deepEqual(migrationLines({ before: 19, after: 19, applied: [], dated: [] }), [
      'schema already at version 19, nothing to apply',
    ]);
  });

  describe('on SQLite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-dated-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const open = (path: string, migrations = ORDERED) =>
      new SqliteConnection(path, Date.now, undefined, undefined, migrations);

    test('each applied once, in order, recorded by name; a null half is neither run nor recorded', async () => {
      const path = join(dir, 'dated.sqlite');
      const first = open(path);
      assert.deepEqual(first.migration.dated, ['2026-12-03-notes', '2026-12-05-notes-index']);
      assert.equal(first.migration.applied.at(-1), LATEST_VERSION);
      await first.close();
      const second = open(path);
      assert.deepEqual([second.migration.applied, second.migration.dated], [[], []]);
      await second.close();
      const db = new Database(path, { readonly: true });
      const names = db.prepare('SELECT name FROM schema_dated_migrations ORDER BY name').pluck().all();
      const index = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'notes_by_body'").get();
      db.close();
      assert.deepEqual(names, ['2026-12-03-notes', '2026-12-05-notes-index']);
      assert.ok(index);
    });

    test('a failing migration leaves neither its change nor its row', async () => {
      const path = join(dir, 'failing.sqlite');
      const failing: DatedMigration = {
        name: '2026-12-06-fails',
        sqlite: (db) => {
          db.exec('CREATE TABLE half_done (x TEXT)');
          throw new Error('no');
        },
        postgres: null,
      };
      assert.throws(() => open(path, orderDatedMigrations([{ migrations: [...MIGRATIONS, failing] }])), /no/);
      const db = new Database(path, { readonly: true });
      const names = db.prepare('SELECT name FROM schema_dated_migrations ORDER BY name').pluck().all();
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'half_done'").get();
      db.close();
      assert.deepEqual(names, ['2026-12-03-notes', '2026-12-05-notes-index']);
      assert.equal(table, undefined);
    });

    test('a file recording a migration this slashd does not know is refused as newer', async () => {
      const path = join(dir, 'newer.sqlite');
      await open(path).close();
      const db = new Database(path);
      db.prepare("INSERT INTO schema_dated_migrations (name) VALUES ('2099-01-01-from-a-newer-slashd')").run();
      db.close();
      assert.throws(
        () => open(path),
        (error: unknown) => {
          assert.ok(error instanceof UnknownMigrationsError && error instanceof SchemaTooNewError);
          assert.match(error.message, /has migrations newer than this slashd knows \(2099-01-01-from-a-newer-slashd\)/);
          return true;
        },
      );
    });

    test("the store applies the store's and the resources' migrations with a SQLite half", async () => {
      const store = new SqliteStore({ path: join(dir, 'store.sqlite') });
      const expected = datedMigrationsOf(RESOURCES)
        .filter((m) => m.sqlite !== null)
        .map((m) => m.name);
      assert.deepEqual(store.migration.dated, expected);
      await store.close();
    });
  });

  describe('on PostgreSQL', () => {
    const schemas: string[] = [];
    after(async () => {
      for (const schema of schemas) await dropSchema(schema);
    });
    const connect = (schema: string) =>
      new PostgresConnection({ connectionString: postgresConnectionString, schema, max: 2 }, Date.now);

    test('each applied once even by processes migrating at once; a null half is neither run nor recorded', async () => {
      const schema = freshSchemaName('slashd_dated');
      schemas.push(schema);
      const conns = [connect(schema), connect(schema), connect(schema)];
      try {
        const reports = await Promise.all(conns.map((conn) => migrate(conn, ORDERED)));
        const applied = reports.flatMap((report) => report.dated ?? []).sort();
        assert.deepEqual(applied, ['2026-12-03-notes', '2026-12-04-postgres-only', '2026-12-05-notes-index']);
        const again = await migrate(conns[0]!, ORDERED);
        assert.deepEqual([again.applied, again.dated], [[], []]);
        const withoutPostgres = ORDERED.map((m) => ({ ...m, name: m.name.replace('2026', '2027'), postgres: null }));
        assert.deepEqual((await migrate(conns[0]!, [...ORDERED, ...withoutPostgres])).dated, []);
      } finally {
        for (const conn of conns) await conn.end();
      }
      const rows = await withAdminClient(
        async (client) =>
          (await client.query(`SELECT name FROM "${schema}".schema_dated_migrations ORDER BY name`)).rows,
      );
      assert.deepEqual(
        rows.map((row: { name: string }) => row.name),
        ['2026-12-03-notes', '2026-12-04-postgres-only', '2026-12-05-notes-index'],
      );
    });

    test('a schema recording a migration this slashd does not know is refused as newer', async () => {
      const schema = freshSchemaName('slashd_dated_newer');
      schemas.push(schema);
      const conn = connect(schema);
      try {
        await migrate(conn, ORDERED);
        await conn.pool.query("INSERT INTO schema_dated_migrations (name) VALUES ('2099-01-01-from-a-newer-slashd')");
        await assert.rejects(migrate(conn, ORDERED), UnknownMigrationsError);
      } finally {
        await conn.end();
      }
    });

    test("the store applies the store's and the resources' migrations, the id collation among them, and names them", async () => {
      const schema = freshSchemaName('slashd_dated_store');
      schemas.push(schema);
      const store = await PostgresStore.open({ connectionString: postgresConnectionString, schema });
      await store.close();
      const expected = datedMigrationsOf(RESOURCES)
        .filter((m) => m.postgres !== null)
        .map((m) => m.name);
      assert.ok(expected.includes('2026-12-02-id-collation'));
      assert.deepEqual(store.migration.dated, expected);
      const reopened = await PostgresStore.open({ connectionString: postgresConnectionString, schema });
      await reopened.close();
      assert.deepEqual(reopened.migration.dated, []);
    });
  });
});
