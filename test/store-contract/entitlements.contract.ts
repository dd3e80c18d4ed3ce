/**
 * The EntitlementStore contract (`Store.entitlements`): an application's SKUs are replaced as one
 * list in its order; entitlements are keyed by their application (another's id finds nothing, and
 * lists never mix), paged by id as numbers (after ascending, before descending, newest first by
 * default), read by owner, rewritten in place, and bounded; on this store and another opened on
 * the same database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntitlementType, SKUType } from 'discord-api-types/v10';
import type { StoredEntitlement, StoredSku } from '../../src/resources/entitlements/rules.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB, GUILD_1 } from './fixtures.js';

function sku(id: string, applicationId = APP_A, type = SKUType.Durable): StoredSku {
  return { id, application_id: applicationId, type, name: `SKU ${id}`, slug: `sku-${id}`, flags: 4 };
}

function entitlement(id: string, overrides: Partial<StoredEntitlement> = {}): StoredEntitlement {
  return {
    id,
    application_id: APP_A,
    sku_id: '1500000000000000001',
    user_id: ALICE,
    guild_id: null,
    type: EntitlementType.TestModePurchase,
    deleted: false,
    consumed: false,
    starts_at: null,
    ends_at: null,
    ...overrides,
  };
}

export function describeEntitlementsContract(name: string, make: MakeStores): void {
  describe(`${name}: entitlements`, () => {
    const t = freshDatabasePerTest(make);

    it("SKUs are replaced as one list, in its order, each application's its own", async () => {
      const store = t.stores.entitlements;
      await store.putSkus(APP_A, [sku('1500000000000000002'), sku('1500000000000000001')]);
      await store.putSkus(APP_B, [sku('1500000000000000009', APP_B)]);
      const other = await t.db.connect();
      assert.deepEqual(
        (await other.entitlements.listSkus(APP_A)).map((s) => s.id),
        ['1500000000000000002', '1500000000000000001'],
      );
      await store.putSkus(APP_A, [sku('1500000000000000003', APP_A, SKUType.Consumable)]);
      assert.deepEqual(await other.entitlements.listSkus(APP_A), [
        sku('1500000000000000003', APP_A, SKUType.Consumable),
      ]);
      assert.equal((await store.listSkus(APP_B)).length, 1);
    });

    it('entitlements are keyed by their application and paged by id as numbers', async () => {
      const store = t.stores.entitlements;
      // 19 and 20 digits: text order would put the longer id first.
      const ids = ['999999999999999999', '1000000000000000001', '1000000000000000002'];
      for (const id of ids) assert.equal(await store.createEntitlement(entitlement(id), 10), 'created');
      assert.equal(
        await store.createEntitlement(entitlement('1000000000000000003', { application_id: APP_B }), 10),
        'created',
      );
      const other = await t.db.connect();
      const page = (p: { before?: string; after?: string }) =>
        other.entitlements
          .listEntitlements(APP_A, { before: p.before, after: p.after })
          .then((l) => l.map((e) => e.id));
      assert.deepEqual(await page({}), [...ids].reverse());
      assert.deepEqual(await page({ after: '999999999999999999' }), ids.slice(1));
      assert.deepEqual(await page({ before: '1000000000000000002' }), ['1000000000000000001', '999999999999999999']);
      assert.equal(
        await other.entitlements.getEntitlement(APP_B, ids[0]!),
        null,
        "another application's id finds nothing",
      );
      assert.deepEqual(await other.entitlements.getEntitlement(APP_A, ids[1]!), entitlement(ids[1]!));
    });

    it('by owner: a user’s and a guild’s; rewritten in place; bounded', async () => {
      const store = t.stores.entitlements;
      await store.createEntitlement(entitlement('1000000000000000001'), 3);
      await store.createEntitlement(entitlement('1000000000000000002', { user_id: BOB }), 3);
      await store.createEntitlement(entitlement('1000000000000000003', { user_id: null, guild_id: GUILD_1 }), 3);
      assert.equal(await store.createEntitlement(entitlement('1000000000000000004'), 3), 'full');
      const other = await t.db.connect();
      const owned = await other.entitlements.listOwnedEntitlements(APP_A, [ALICE, GUILD_1]);
      assert.deepEqual(
        owned.map((e) => e.id),
        ['1000000000000000003', '1000000000000000001'],
      );
      assert.deepEqual(await other.entitlements.listOwnedEntitlements(APP_B, [ALICE]), []);
      assert.deepEqual(await other.entitlements.listOwnedEntitlements(APP_A, []), []);
      const consumed = { ...entitlement('1000000000000000001'), consumed: true };
      assert.equal(await store.updateEntitlement(consumed), true);
      assert.deepEqual(await other.entitlements.getEntitlement(APP_A, consumed.id), consumed);
      assert.equal(await store.updateEntitlement({ ...consumed, application_id: APP_B }), false);
      assert.equal(await store.getEntitlement(APP_A, '1000000000000000004'), null, 'nothing written past the bound');
    });
  });
}
