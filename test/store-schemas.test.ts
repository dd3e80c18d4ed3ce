/**
 * The two dialects' schemas after every migration (the numbered baseline, then the dated ones)
 * describe the same tables: the same columns of the same type family, the same primary keys and
 * the same indexes (by the columns they cover), but for the differences listed here, each with its
 * reason. On PostgreSQL every id column is in the one collation ids use, "C"
 * (src/store/migrations/2026-12-02-id-collation.ts); SQLite compares every text column bytewise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';

/** What one table is, as both dialects can say it. */
interface TableShape {
  /** Column name to type family (`text`, `integer`, `bytes`, `boolean`, `time`). */
  columns: Record<string, string>;
  /** The primary key's columns, in order. */
  primaryKey: string[];
  /** Every other index: `unique (a, b)` or `(a, length(id), id)`, sorted. */
  indexes: string[];
}

type Schema = Record<string, TableShape>;

/** The collation every PostgreSQL id column has. */
const ID_COLLATION = 'C';

/** A text column holding an id: `id`, `*_id`, `guild_key` (a guild's id or ''), `visible_to` (a user's id). */
function isIdColumn(name: string): boolean {
  return name === 'id' || name.endsWith('_id') || name === 'guild_key' || name === 'visible_to';
}

/** Tables one dialect has and the other has not. */
const TABLES_OF_ONE_DIALECT: Record<string, string> = {
  'postgres:command_list_versions':
    'PostgreSQL caches command lists per process and validates them by a version row per scope, bumped by triggers; a SQLite process sees other writers through data_version',
  'postgres:permission_list_versions': 'the same, for the permissions lists of a guild',
  'sqlite:command_list_answers':
    "a SQLite node's list answers outlive its memory cache in the file it reads through a memory map; a PostgreSQL node keeps its versioned lists in memory, as a round trip costs what rendering saves",
};

/** Columns that differ: one dialect only, or another type family. */
const COLUMN_DIFFERENCES: Record<string, string> = {
  'schema_migrations.applied_at':
    'PostgreSQL has recorded when each numbered migration was applied from the start; the SQLite baseline never had it',
  'oauth2_codes.used': 'SQLite has no boolean type: 0 or 1 in an INTEGER',
  'oauth2_refresh_tokens.used': 'the same',
  'application_emojis.animated': 'the same',
};

/** Indexes that differ, as `table: index` (`sqlite:` or `postgres:` where only one has it). */
const INDEX_DIFFERENCES: Record<string, string> = {
  'postgres:oauth2_tokens: (application_id)':
    "PostgreSQL's first migration indexed a token's application; SQLite finds them by (application_id, grant_id)",
  'postgres:command_permissions: (guild_id)':
    "PostgreSQL's first migration indexed the permissions by guild, for deleting a guild's; SQLite scans them",
  'sqlite:commands: (application_id, guild_key, id)':
    'SQLite orders a scope by id in the index; PostgreSQL orders snowflakes as (length, text)',
  'postgres:commands: (application_id, guild_key, length(id), id)': 'the same, from the other side',
};

function family(type: string): string {
  const lower = type.toLowerCase();
  if (lower === 'text') return 'text';
  if (lower === 'integer' || lower === 'bigint') return 'integer';
  if (lower === 'blob' || lower === 'bytea') return 'bytes';
  if (lower === 'boolean') return 'boolean';
  if (lower.startsWith('timestamp')) return 'time';
  return lower;
}

function sqliteSchema(path: string): Schema {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const schema: Schema = {};
    for (const table of tables) {
      const info = db.pragma(`table_info(${table})`) as { name: string; type: string; pk: number }[];
      const indexList = db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string }[];
      const indexes = indexList
        .filter((index) => index.origin !== 'pk')
        .map((index) => {
          const rows = db.pragma(`index_xinfo(${index.name})`) as { cid: number; name: string | null; key: number }[];
          const sql = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(index.name) as
            string | null;
          const expressions = sql === null ? [] : expressionsOf(sql);
          const columns = rows.filter((row) => row.key === 1).map((row) => row.name ?? expressions.shift() ?? '?');
          return `${index.unique ? 'unique ' : ''}(${columns.join(', ')})`;
        });
      schema[table] = {
        columns: Object.fromEntries(info.map((column) => [column.name, family(column.type)])),
        primaryKey: info
          .filter((column) => column.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((column) => column.name),
        indexes: indexes.sort(),
      };
    }
    return schema;
  } finally {
    db.close();
  }
}

/** The expressions among a CREATE INDEX's columns, in order (`length(id)`). */
function expressionsOf(sql: string): string[] {
  const list = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')'));
  return list
    .split(/,(?![^(]*\))/)
    .map((part) => part.trim())
    .filter((part) => part.includes('('));
}

async function postgresSchema(client: pg.Client, schema: string): Promise<Schema> {
  const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [schema],
  );
  const indexes = await client.query<{ table: string; primary: boolean; unique: boolean; columns: string[] }>(
    `SELECT t.relname AS table, i.indisprimary AS primary, i.indisunique AS unique,
       array(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) AS k
             ORDER BY k) AS columns
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1`,
    [schema],
  );
  const result: Schema = {};
  for (const row of columns.rows) {
    result[row.table_name] ??= { columns: {}, primaryKey: [], indexes: [] };
    result[row.table_name]!.columns[row.column_name] = family(row.data_type);
  }
  for (const row of indexes.rows) {
    const shape = result[row.table]!;
    const covered = row.columns.map((column) => column.replace(/^"|"$/g, ''));
    if (row.primary) shape.primaryKey = covered;
    else shape.indexes.push(`${row.unique ? 'unique ' : ''}(${covered.join(', ')})`);
  }
  for (const shape of Object.values(result)) shape.indexes.sort();
  return result;
}

/** The id columns of a PostgreSQL schema not in the ids' collation, as `table.column (collation)`. */
async function idColumnsOutOfCollation(client: pg.Client, schema: string): Promise<string[]> {
  const result = await client.query<{ table_name: string; column_name: string; collation_name: string | null }>(
    `SELECT table_name, column_name, collation_name FROM information_schema.columns
     WHERE table_schema = $1 AND data_type = 'text' ORDER BY table_name, column_name`,
    [schema],
  );
  return result.rows
    .filter((row) => isIdColumn(row.column_name) && row.collation_name !== ID_COLLATION)
    .map((row) => `${row.table_name}.${row.column_name} (${row.collation_name ?? 'default'})`);
}

describe('the SQLite and PostgreSQL schemas after every migration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-schemas-'));
  const schemaName = freshSchemaName('slashd_schemas');
  let sqlite: Schema;
  let postgres: Schema;
  let outOfCollation: string[];
  let idColumnCount = 0;

  before(async () => {
    const path = join(dir, 'slashd.sqlite');
    await new SqliteStore({ path }).close();
    sqlite = sqliteSchema(path);
    await (await PostgresStore.open({ connectionString: postgresConnectionString, schema: schemaName })).close();
    await withAdminClient(async (client) => {
      postgres = await postgresSchema(client, schemaName);
      outOfCollation = await idColumnsOutOfCollation(client, schemaName);
    });
    for (const shape of Object.values(postgres)) {
      idColumnCount += Object.entries(shape.columns).filter(
        ([name, type]) => type === 'text' && isIdColumn(name),
      ).length;
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schemaName);
  });

  test('the same tables, but those listed', () => {
    const differences = [
      ...Object.keys(sqlite)
        .filter((table) => !(table in postgres))
        .map((table) => `sqlite:${table}`),
      ...Object.keys(postgres)
        .filter((table) => !(table in sqlite))
        .map((table) => `postgres:${table}`),
    ].sort();
    assert.deepEqual(differences, Object.keys(TABLES_OF_ONE_DIALECT).sort());
  });

  test('the same columns of the same type family, but those listed', () => {
    const differences: string[] = [];
    for (const [table, shape] of Object.entries(sqlite)) {
      const other = postgres[table];
      if (!other) continue;
      const names = new Set([...Object.keys(shape.columns), ...Object.keys(other.columns)]);
      for (const name of names) {
        if (shape.columns[name] !== other.columns[name]) differences.push(`${table}.${name}`);
      }
    }
    assert.deepEqual(differences.sort(), Object.keys(COLUMN_DIFFERENCES).sort());
  });

  test('the same primary keys', () => {
    for (const [table, shape] of Object.entries(sqlite)) {
      if (postgres[table]) assert.deepEqual(shape.primaryKey, postgres[table].primaryKey, table);
    }
  });

  test('the same indexes, by the columns they cover, but those listed', () => {
    const differences: string[] = [];
    for (const [table, shape] of Object.entries(sqlite)) {
      const other = postgres[table];
      if (!other) continue;
      for (const index of shape.indexes)
        if (!other.indexes.includes(index)) differences.push(`sqlite:${table}: ${index}`);
      for (const index of other.indexes)
        if (!shape.indexes.includes(index)) differences.push(`postgres:${table}: ${index}`);
    }
    assert.deepEqual(differences.sort(), Object.keys(INDEX_DIFFERENCES).sort());
  });

  test(`every PostgreSQL id column is COLLATE "${ID_COLLATION}"`, () => {
    assert.ok(idColumnCount > 50, `the id columns were found (${idColumnCount})`);
    assert.deepEqual(outOfCollation, []);
  });
});
