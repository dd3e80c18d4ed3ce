/**
 * The pure half of node leases: which id a lease store picks, and that a generator writes it into
 * every id. What the lease stores themselves promise is in the contract suite
 * (test/store-contract/node-lease-store.contract.ts), run for each implementation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseNodeId, NODE_ID_COUNT, SnowflakeGenerator } from '../src/core/snowflake.js';

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
