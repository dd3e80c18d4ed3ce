/**
 * The RoleConnectionStore contract (`Store.roleConnections`): an application's metadata records
 * are replaced as one list, and a user's connection is written, replaced and removed, each keyed
 * by its application (another's finds nothing); on this store and another opened on the same database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B } from './fixtures.js';

const RECORD = { type: 2, key: 'level', name: 'Level', description: 'At least' };

export function describeRoleConnectionsContract(name: string, make: MakeStores): void {
  describe(`${name}: role connections`, () => {
    const t = freshDatabasePerTest(make);

    it("metadata records are the application's, replaced as one list", async () => {
      const store = t.stores.roleConnections;
      assert.deepEqual(await store.getMetadata(APP_A), []);
      await store.putMetadata(APP_A, [RECORD, { ...RECORD, key: 'xp' }]);
      await store.putMetadata(APP_A, [{ ...RECORD, key: 'xp' }]);
      const other = await t.db.connect();
      assert.deepEqual(await other.roleConnections.getMetadata(APP_A), [{ ...RECORD, key: 'xp' }]);
      assert.deepEqual(await other.roleConnections.getMetadata(APP_B), []);
    });

    it("a user's connection is written, replaced and removed, by application", async () => {
      const store = t.stores.roleConnections;
      const connection = { platform_name: 'Game', platform_username: null, metadata: { level: '3' } };
      await store.putConnection(APP_A, ALICE, connection);
      await store.putConnection(APP_A, ALICE, { ...connection, metadata: { level: '4' } });
      const other = await t.db.connect();
      assert.deepEqual(await other.roleConnections.getConnection(APP_A, ALICE), {
        ...connection,
        metadata: { level: '4' },
      });
      assert.equal(await other.roleConnections.getConnection(APP_B, ALICE), null);
      assert.equal(await store.deleteConnection(APP_B, ALICE), false);
      assert.equal(await store.deleteConnection(APP_A, ALICE), true);
      assert.equal(await other.roleConnections.getConnection(APP_A, ALICE), null);
    });
  });
}
