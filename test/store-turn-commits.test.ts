/**
 * One commit per turn of the event loop (src/store/sqlite/connection.ts): the transactions of a
 * turn commit together, each stays all or nothing, nobody outside the connection sees a write
 * before its commit, and what waits on `durable()` (replies, dispatches, deliveries) waits for it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { InProcessEventBus } from '../src/events/bus.js';
import { durableReplies } from '../src/http/durable-replies.js';
import { SqliteConnection } from '../src/store/sqlite/connection.js';

describe('one commit per turn (SQLite)', () => {
  let dir: string;
  let conn: SqliteConnection;
  let other: Database.Database;
  const insert = (id: number) => conn.sql('INSERT INTO notes (id) VALUES (?)').run(id);
  const seenElsewhere = () => other.prepare('SELECT id FROM notes ORDER BY id').pluck().all() as number[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-turn-commits-'));
    conn = new SqliteConnection(join(dir, 'db.sqlite'), Date.now);
    conn.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
    other = new Database(join(dir, 'db.sqlite'), { readonly: true });
  });

  afterEach(async () => {
    other.close();
    await conn.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits each transaction alone until asked to commit by turn', () => {
    const before = conn.commits;
    conn.transaction(() => insert(1));
    conn.transaction(() => insert(2));
    assert.equal(conn.commits, before + 2);
    assert.equal(conn.durable(), undefined);
    assert.deepEqual(seenElsewhere(), [1, 2]);
  });

  it("commits a turn's transactions once, at its end, and shows them to nobody before", async () => {
    conn.commitByTurn();
    const before = conn.commits;
    conn.transaction(() => insert(1));
    conn.transaction(() => insert(2));
    conn.transaction(() => insert(3));
    const durable = conn.durable();
    assert.ok(durable, 'a commit is pending');
    assert.deepEqual(seenElsewhere(), [], 'another connection sees nothing before the commit');
    assert.deepEqual(
      conn.sql('SELECT id FROM notes ORDER BY id').pluck().all(),
      [1, 2, 3],
      'the connection itself does',
    );
    await durable;
    assert.equal(conn.commits, before + 1);
    assert.equal(conn.durable(), undefined);
    assert.deepEqual(seenElsewhere(), [1, 2, 3]);
  });

  it('undoes only the failed transaction of a turn; the others commit', async () => {
    conn.commitByTurn();
    conn.transaction(() => insert(1));
    assert.throws(() =>
      conn.transaction(() => {
        insert(2);
        insert(1); // taken: the whole transaction, 2 with it, is undone
      }),
    );
    conn.transaction(() => insert(3));
    await conn.durable();
    assert.deepEqual(seenElsewhere(), [1, 3]);
  });

  it('a read inside a transaction is one, outside it is not (what it read may still be undone there)', () => {
    conn.commitByTurn();
    assert.equal(conn.inUnit, false);
    conn.transaction(() => assert.equal(conn.inUnit, true));
    assert.equal(conn.inUnit, false, 'the turn is open, the transaction is not');
  });

  it('a second connection to the file in this process commits the open turn, and neither commits by turn then', async () => {
    conn.commitByTurn();
    conn.transaction(() => insert(1));
    // Two nodes in one process: the second would wait on the first's turn with the thread that commits it.
    const second = new SqliteConnection(join(dir, 'db.sqlite'), Date.now);
    try {
      assert.equal(conn.durable(), undefined, 'committed when the second opened');
      assert.deepEqual(seenElsewhere(), [1]);
      second.commitByTurn();
      conn.transaction(() => insert(2));
      second.transaction(() => second.sql('INSERT INTO notes (id) VALUES (3)').run());
      assert.equal(conn.durable(), undefined);
      assert.equal(second.durable(), undefined);
      assert.deepEqual(seenElsewhere(), [1, 2, 3]);
    } finally {
      await second.close();
    }
    conn.transaction(() => insert(4));
    assert.ok(conn.durable(), 'alone again: by turn');
    await conn.durable();
    assert.deepEqual(seenElsewhere(), [1, 2, 3, 4]);
  });

  it('commits what is pending when closed', async () => {
    conn.commitByTurn();
    conn.transaction(() => insert(7));
    await conn.close();
    assert.deepEqual(seenElsewhere(), [7]);
  });
});

/** A pending commit that the test settles. */
function pendingCommit() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  let done: Promise<void> | undefined = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => undefined);
  return {
    durable: () => done,
    commit: () => {
      done = undefined;
      resolve();
    },
    fail: () => {
      done = undefined;
      reject(new Error('disk I/O error'));
    },
  };
}

describe('what waits for the commit', () => {
  it('a reply leaves once the commit is made, and is a 500 if it failed', async () => {
    for (const outcome of ['commit', 'fail'] as const) {
      const pending = pendingCommit();
      const app = Fastify();
      durableReplies(app, pending.durable);
      app.get('/', async () => ({ ok: true }));
      try {
        let settled = false;
        const reply = app.inject({ method: 'GET', url: '/' }).then((r) => {
          settled = true;
          return r;
        });
        for (let turn = 0; turn < 5; turn++) await nextTurn();
        assert.equal(settled, false, 'no reply before the commit');
        pending[outcome]();
        const response = await reply;
        assert.equal(response.statusCode, outcome === 'commit' ? 200 : 500);
      } finally {
        await app.close();
      }
    }
  });

  it('an event published before the commit reaches subscribers after it, in order; one of a failed commit never', async () => {
    const pending = pendingCommit();
    const bus = new InProcessEventBus(pending.durable);
    const seen: string[] = [];
    bus.subscribe('GATEWAY_SESSION_MOVED', (event) => seen.push(event.sessionId));
    bus.publish('GATEWAY_SESSION_MOVED', { sessionId: 'a', node: 'n1' });
    bus.publish('GATEWAY_SESSION_MOVED', { sessionId: 'b', node: 'n1' });
    await nextTurn();
    assert.deepEqual(seen, [], 'held while the commit is pending');
    const idle = bus.idle();
    pending.commit();
    await idle;
    assert.deepEqual(seen, ['a', 'b']);
    bus.publish('GATEWAY_SESSION_MOVED', { sessionId: 'c', node: 'n1' });
    assert.deepEqual(seen, ['a', 'b', 'c'], 'nothing pending: delivered at once');

    const failing = pendingCommit();
    const lossy = new InProcessEventBus(failing.durable);
    const lost: string[] = [];
    lossy.subscribe('GATEWAY_SESSION_MOVED', (event) => lost.push(event.sessionId));
    lossy.publish('GATEWAY_SESSION_MOVED', { sessionId: 'x', node: 'n1' });
    failing.fail();
    await lossy.idle();
    lossy.publish('GATEWAY_SESSION_MOVED', { sessionId: 'y', node: 'n1' });
    assert.deepEqual(lost, ['y'], 'the event of the lost writes is dropped with them');
  });
});
