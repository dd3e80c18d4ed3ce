/**
 * The NodeLeaseStore contract (an injected clock): distinct node ids for processes on one
 * database, lapsed leases taken over, released ids resting before reuse.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NODE_ID_COUNT } from '../../src/core/snowflake.js';
import {
  NODE_LEASE_REST_MS,
  NODE_LEASE_TTL_MS,
  NodeIdsExhaustedError,
  NodeLease,
} from '../../src/resources/node-leases/service.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';

const HOLDER_A = 'holder-a';
const HOLDER_B = 'holder-b';
const TTL = NODE_LEASE_TTL_MS;

export function describeNodeLeaseStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: NodeLeaseStore`, () => {
    const t = freshDatabasePerTest(make);

    it('two connections asking for the same id get different ones; only the holder renews', async () => {
      const a = t.stores.leases;
      const b = (await t.db.connect()).leases;
      assert.equal(await a.acquireNodeLease({ holder: HOLDER_A, preferred: 5, ttlMs: TTL }), 5);
      const second = await b.acquireNodeLease({ holder: HOLDER_B, preferred: 5, ttlMs: TTL });
      assert.notEqual(second, null);
      assert.notEqual(second, 5);
      assert.equal(await a.renewNodeLease(5, HOLDER_A, TTL), true);
      assert.equal(await b.renewNodeLease(5, HOLDER_B, TTL), false, 'only the holder renews');
    });

    it('many holders at once each get a distinct id', async () => {
      const other = await t.db.connect();
      const ids = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 ? other : t.stores).leases.acquireNodeLease({ holder: `h${i}`, preferred: 7, ttlMs: TTL }),
        ),
      );
      assert.equal(new Set(ids).size, 16);
      assert.ok(ids.every((id) => id !== null && id >= 0 && id < NODE_ID_COUNT));
    });

    it('a renewed lease lasts; a lapsed one cannot be renewed and is taken over', async () => {
      const leases = t.stores.leases;
      assert.equal(await leases.acquireNodeLease({ holder: HOLDER_A, preferred: 9, ttlMs: TTL }), 9);
      t.now += TTL - 1;
      assert.equal(await leases.renewNodeLease(9, HOLDER_A, TTL), true);
      t.now += TTL - 1;
      assert.notEqual(await leases.acquireNodeLease({ holder: HOLDER_B, preferred: 9, ttlMs: TTL }), 9, 'still held');
      t.now += 2;
      assert.equal(await leases.renewNodeLease(9, HOLDER_A, TTL), false, 'lapsed');
      assert.equal(await leases.acquireNodeLease({ holder: 'holder-c', preferred: 9, ttlMs: TTL }), 9);
    });

    it('a lapsed lease’s old holder moves to a fresh id on renewal (NodeLease)', async () => {
      const lease = await NodeLease.acquire(t.stores.leases, 9, () => t.now);
      assert.equal(lease.nodeId, 9);
      t.now += TTL + 1;
      assert.equal(await t.stores.leases.acquireNodeLease({ holder: HOLDER_B, preferred: 9, ttlMs: TTL }), 9);
      await lease.renew();
      assert.notEqual(lease.nodeId, 9);
      assert.equal(Number((BigInt(lease.ids.next()) >> 12n) & 1023n), lease.nodeId, 'new ids carry the new node id');
      await lease.release();
    });

    it('a released id rests before anyone takes it again; only its holder releases it', async () => {
      const leases = t.stores.leases;
      assert.equal(await leases.acquireNodeLease({ holder: HOLDER_A, preferred: 3, ttlMs: TTL }), 3);
      await leases.releaseNodeLease(3, HOLDER_B, NODE_LEASE_REST_MS);
      assert.equal(await leases.renewNodeLease(3, HOLDER_A, TTL), true, 'another holder cannot release it');
      await leases.releaseNodeLease(3, HOLDER_A, NODE_LEASE_REST_MS);
      assert.equal(await leases.renewNodeLease(3, HOLDER_A, TTL), false, 'released');
      assert.notEqual(await leases.acquireNodeLease({ holder: HOLDER_B, preferred: 3, ttlMs: TTL }), 3);
      t.now += NODE_LEASE_REST_MS + 1;
      assert.equal(await leases.acquireNodeLease({ holder: 'holder-c', preferred: 3, ttlMs: TTL }), 3);
    });

    it('all 1024 ids held: null, and NodeLease fails with a clear error', async () => {
      const leases = t.stores.leases;
      for (let i = 0; i < NODE_ID_COUNT; i++) {
        assert.equal(await leases.acquireNodeLease({ holder: `h${i}`, preferred: i, ttlMs: TTL }), i);
      }
      assert.equal(await leases.acquireNodeLease({ holder: 'one-too-many', preferred: 0, ttlMs: TTL }), null);
      await assert.rejects(
        NodeLease.acquire(leases, 0, () => t.now),
        NodeIdsExhaustedError,
      );
    });
  });
}
