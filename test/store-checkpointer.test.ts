/** WAL checkpoints run in a worker; if the worker is lost, SQLite's own checkpoints come back. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { WalCheckpointer } from '../src/store/sqlite/checkpointer.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

describe('the WAL checkpointer', () => {
  it('calls back when its worker cannot run, so the caller can fall back', async () => {
    // The worker does not hold the process open (a server's socket does): this test holds it.
    const keepAlive = setInterval(() => undefined, 1000);
    try {
      const lost = await new Promise<boolean>((resolve) => {
        new WalCheckpointer(join(tmpdir(), 'no-such-dir-for-slashd', 'x.sqlite'), () => resolve(true));
      });
      assert.equal(lost, true);
    } finally {
      clearInterval(keepAlive);
    }
  });

  it('a file store starts its worker and closes cleanly, twice over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-wal-'));
    try {
      const path = join(dir, 'db.sqlite');
      const store = new SqliteStore({ path });
      await store.world.putUser({ id: '1', username: 'u', token: 't', locale: 'en-US', age_verified: false });
      await store.close();
      await store.close();
      const reopened = new Database(path, { readonly: true });
      assert.equal((reopened.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n, 1);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
