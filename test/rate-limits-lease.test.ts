/** The lease arithmetic of shared rate-limit counters (src/core/rate-limits/lease.ts), pure. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applyLeaseReply, leaseSize, takeFromLease, type Lease } from '../src/core/rate-limits/lease.js';

describe('rate-limit leases', () => {
  test('a lease is a share of the limit, never less than one request', () => {
    assert.equal(leaseSize(50, 1 / 64), 1);
    assert.equal(leaseSize(5, 1 / 64), 1);
    assert.equal(leaseSize(6_400, 1 / 64), 100);
    assert.equal(leaseSize(10_000, 0), 1);
  });

  test('the requester takes the first granted request; the rest are taken one by one in order', () => {
    const first = applyLeaseReply(undefined, 1_000, { total: 30, ttlMs: 500, granted: 10, size: 10 }, 100);
    assert.deepEqual(first.count, { count: 21, resetAt: 1_500 });
    let lease: Lease | undefined = first.lease;
    const counts: number[] = [];
    for (;;) {
      const taken = takeFromLease(lease, 1_100, 100);
      if (taken === undefined) break;
      counts.push(taken.count.count);
      lease = taken.lease;
    }
    assert.deepEqual(counts, [22, 23, 24, 25, 26, 27, 28, 29, 30]);
  });

  test('a partial grant drains the counter: refused locally once the hand is empty, until the window ends', () => {
    const { lease } = applyLeaseReply(undefined, 0, { total: 105, ttlMs: 1_000, granted: 5, size: 10 }, 100);
    assert.equal(lease.drained, true);
    let held: Lease = lease;
    for (let i = 0; i < 4; i++) held = takeFromLease(held, 10, 100)!.lease;
    const refused = takeFromLease(held, 10, 100)!;
    assert.ok(refused.count.count > 100);
    assert.equal(takeFromLease(held, 1_000, 100), undefined, 'a new window asks the shared store again');
  });

  test('nothing granted: the requester is over the limit', () => {
    const { count, lease } = applyLeaseReply(undefined, 0, { total: 110, ttlMs: 40, granted: 0, size: 10 }, 100);
    assert.ok(count.count > 100);
    assert.equal(lease.drained, true);
  });

  test('whatever the replies, every admitted count is within the limit and at most the granted total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 80 }),
        (limit, size, takesBetweenLeases) => {
          let shared = 0;
          let granted = 0;
          let admitted = 0;
          let lease: Lease | undefined;
          for (const takes of takesBetweenLeases) {
            shared += size;
            const grant = Math.min(size, Math.max(0, limit - (shared - size)));
            granted += grant;
            const leased = applyLeaseReply(lease, 0, { total: shared, ttlMs: 1_000, granted: grant, size }, limit);
            if (leased.count.count <= limit) admitted++;
            lease = leased.lease;
            for (let t = 0; t < takes; t++) {
              const taken = takeFromLease(lease, 1, limit);
              if (taken === undefined) break;
              if (taken.count.count <= limit) admitted++;
              lease = taken.lease;
            }
          }
          return admitted <= granted && granted <= limit;
        },
      ),
    );
  });
});
