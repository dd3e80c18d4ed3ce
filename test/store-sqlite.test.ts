/**
 * What only the SQLite store promises (the shared promises are in test/store-contract/): its
 * schema migrations, WAL mode, and a clear error for a file it cannot open.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DatabaseOpenError } from '../src/store/sqlite/connection.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

describe('the SQLite store file', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-sqlite-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies every migration once, in order, and none again on reopening', async () => {
    const path = join(dir, 'migrated.sqlite');
    const latest = Math.max(...MIGRATIONS.map((m) => m.version));
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1),
      'versions are 1..n',
    );
    const first = new SqliteStore({ path });
    assert.equal(first.schemaVersion(), latest);
    await first.close();
    const second = new SqliteStore({ path });
    assert.equal(second.schemaVersion(), latest);
    await second.close();
    const raw = new Database(path, { readonly: true });
    try {
      const rows = raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
      assert.deepEqual(
        rows,
        MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
      );
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      raw.close();
    }
  });

  it('a path it cannot open is a DatabaseOpenError naming the path', () => {
    assert.throws(
      () => new SqliteStore({ path: dir }),
      (error) => error instanceof DatabaseOpenError && error.path === dir && error.message.includes(dir),
    );
  });

  it('an in-memory store serves and closes', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.ping();
    await store.world.putUser({ id: '1', username: 'u', token: 't', locale: 'en-US', age_verified: false });
    assert.equal((await store.world.findUserByToken('t'))?.id, '1');
    await store.close();
    await assert.rejects(store.ping());
  });
});
