/**
 * Snowflake node ids leased from the store (real SQLite files, an injected clock): distinct ids
 * for processes on one file, lapsed leases taken over, released ids resting; and messages that
 * can never be overwritten by a colliding id.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chooseNodeId, NODE_ID_COUNT, SnowflakeGenerator } from '../src/core/snowflake.js';
import type { StoredMessage } from '../src/core/interactions/messages.js';
import { NODE_LEASE_REST_MS, NODE_LEASE_TTL_MS, NodeIdsExhaustedError, NodeLease } from '../src/services/node-lease.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const HOLDER_A = 'holder-a';
const HOLDER_B = 'holder-b';

describe('chooseNodeId', () => {
  test('the preferred id when free, else the lowest free one, else null', () => {
    assert.equal(chooseNodeId(new Set(), 7), 7);
    assert.equal(chooseNodeId(new Set([7]), 7), 0);
    assert.equal(chooseNodeId(new Set([0, 1, 7]), 7), 2);
    assert.equal(chooseNodeId(new Set(), 1031), 7, 'a pid-sized hint is taken modulo 1024');
    assert.equal(chooseNodeId(new Set(Array.from({ length: NODE_ID_COUNT }, (_, i) => i)), 3), null);
  });

  test('a generator for a node id writes it into the 10 node bits of every id', () => {
    for (const nodeId of [0, 1, 31, 32, 517, 1023]) {
      const ids = SnowflakeGenerator.forNode(nodeId, () => 1_700_000_000_000);
      assert.equal(ids.nodeId, nodeId);
      assert.equal(Number((BigInt(ids.next()) >> 12n) & 1023n), nodeId);
    }
  });
});

describe('node leases on one SQLite file', () => {
  let dir: string;
  let clock: number;
  const stores: SqliteStore[] = [];
  const open = (name: string) => {
    const store = new SqliteStore({ path: join(dir, name), now: () => clock });
    stores.push(store);
    return store;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-leases-'));
  });
  after(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two connections asking for the same id get different ones', async () => {
    clock = 1_000_000;
    const a = open('same.sqlite');
    const b = open('same.sqlite');
    const first = await a.leases.acquireNodeLease({ holder: HOLDER_A, preferred: 5, ttlMs: NODE_LEASE_TTL_MS });
    const second = await b.leases.acquireNodeLease({ holder: HOLDER_B, preferred: 5, ttlMs: NODE_LEASE_TTL_MS });
    assert.equal(first, 5);
    assert.notEqual(second, 5);
    assert.equal(await a.leases.renewNodeLease(5, HOLDER_A, NODE_LEASE_TTL_MS), true);
    assert.equal(await b.leases.renewNodeLease(5, HOLDER_B, NODE_LEASE_TTL_MS), false, 'only the holder renews');
  });

  test('a lapsed lease is taken over, and its old holder moves to a fresh id on renewal', async () => {
    clock = 5_000_000;
    const store = open('lapse.sqlite');
    const lease = await NodeLease.acquire(store.leases, 9, () => clock);
    assert.equal(lease.nodeId, 9);
    clock += NODE_LEASE_TTL_MS + 1;
    const thief = await store.leases.acquireNodeLease({ holder: HOLDER_B, preferred: 9, ttlMs: NODE_LEASE_TTL_MS });
    assert.equal(thief, 9, 'nobody renewed it in time');
    await lease.renew();
    assert.notEqual(lease.nodeId, 9);
    assert.equal(Number((BigInt(lease.ids.next()) >> 12n) & 1023n), lease.nodeId, 'new ids carry the new node id');
    await lease.release();
  });

  test('a released id rests before anyone takes it again', async () => {
    clock = 9_000_000;
    const store = open('release.sqlite');
    const lease = await NodeLease.acquire(store.leases, 3, () => clock);
    await lease.release();
    const during = await store.leases.acquireNodeLease({ holder: HOLDER_B, preferred: 3, ttlMs: NODE_LEASE_TTL_MS });
    assert.notEqual(during, 3);
    clock += NODE_LEASE_REST_MS + 1;
    assert.equal(
      await store.leases.acquireNodeLease({ holder: 'holder-c', preferred: 3, ttlMs: NODE_LEASE_TTL_MS }),
      3,
    );
  });

  test('all 1024 ids held: start-up fails with a clear error', async () => {
    clock = 20_000_000;
    const store = open('full.sqlite');
    for (let i = 0; i < NODE_ID_COUNT; i++) {
      assert.equal(await store.leases.acquireNodeLease({ holder: `h${i}`, preferred: i, ttlMs: NODE_LEASE_TTL_MS }), i);
    }
    await assert.rejects(
      NodeLease.acquire(store.leases, 0, () => clock),
      NodeIdsExhaustedError,
    );
  });

  test('a new message whose id exists fails instead of overwriting it; an edit of a gone message is refused', async () => {
    const store = open('messages.sqlite');
    const message = {
      id: '1500000000000000001',
      channel_id: '1345183757107200011',
      content: 'first',
      ephemeral_for_user_id: null,
    } as unknown as StoredMessage;
    await store.interactions.putMessage(message);
    await assert.rejects(store.interactions.putMessage({ ...message, content: 'impostor' }), /UNIQUE/);
    assert.equal((await store.interactions.getMessage(message.channel_id, message.id))?.content, 'first');
    assert.equal(await store.interactions.editMessage({ ...message, content: 'edited' }), true);
    assert.equal((await store.interactions.getMessage(message.channel_id, message.id))?.content, 'edited');
    await store.interactions.deleteMessage(message.channel_id, message.id);
    assert.equal(await store.interactions.editMessage({ ...message, content: 'again' }), false);
    assert.equal(await store.interactions.getMessage(message.channel_id, message.id), null);
  });
});
