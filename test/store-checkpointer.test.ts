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
        new WalCheckpointer(join(tmpdir(), 'no-such-dir-for-slashd', 'x.sqlite'), {
          onLost: () => resolve(true),
          truncate: () => false,
        });
      });
      assert.equal(lost, true);
    } finally {
      clearInterval(keepAlive);
    }
  });

  it("a lease renewal and the WAL's truncation leave the read caches; another process's write empties them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-wal-caches-'));
    const keepAlive = setInterval(() => undefined, 1000);
    // Every read looks at data_version (no staleness window): what it shows is what the file says.
    const store = new SqliteStore({ path: join(dir, 'db.sqlite'), readStalenessMs: 0 });
    try {
      await store.world.putUser({ id: '1', username: 'u', token: 't', locale: 'en-US', age_verified: false });
      const lease = await store.leases.acquireNodeLease({ holder: 'h', preferred: 1, ttlMs: 60_000 });
      assert.notEqual(lease, null);
      const reads = () => store.cacheCounts().find((counts) => counts.cache === 'store_reads')!;
      await store.world.getUser('1');
      const warm = { ...reads() };
      // What a node does every few seconds with no client write: renew its lease; then the WAL
      // is truncated once writes pause (issue 40: that emptied every cache each ~15 s).
      assert.equal(await store.leases.renewNodeLease(lease!, 'h', 60_000), true);
      await new Promise<void>((resolve) => store.onWalTruncated(resolve));
      assert.equal((await store.world.getUser('1'))?.username, 'u');
      assert.deepEqual([reads().hits, reads().misses], [warm.hits + 1, warm.misses], 'answered from the cache');
      // Another process's write to the file: this connection cannot tell what changed, so it drops all.
      const other = new Database(join(dir, 'db.sqlite'));
      other.prepare("DELETE FROM users WHERE id = '1'").run();
      other.close();
      assert.equal(await store.world.getUser('1'), null);
    } finally {
      await store.close();
      clearInterval(keepAlive);
      rmSync(dir, { recursive: true, force: true });
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
