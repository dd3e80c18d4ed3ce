/**
 * The SubscriptionStore contract (`Store.subscriptions`): a subscription is written with the
 * entitlement it grants in one transaction (both or neither: the bounds of either refuse both),
 * keyed by its application (another's id finds nothing, lists never mix), listed by user and SKU
 * and paged by id as numbers, rewritten and deleted together with its entitlement; on this store
 * and another opened on the same database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntitlementType, SKUType, SubscriptionStatus } from 'discord-api-types/v10';
import type { StoredEntitlement } from '../../src/resources/entitlements/rules.js';
import type { StoredSubscription } from '../../src/resources/subscriptions/rules.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB } from './fixtures.js';

const SKU = '1500000000000000001';
const OTHER_SKU = '1500000000000000002';
const BOUNDS = { subscriptions: 10, entitlements: 10 };

function subscription(id: string, overrides: Partial<StoredSubscription> = {}): StoredSubscription {
  return {
    id,
    application_id: APP_A,
    user_id: ALICE,
    sku_ids: [SKU],
    entitlement_ids: [id],
    renewal_sku_ids: [SKU],
    current_period_start: '2026-12-01T00:00:00.000Z',
    current_period_end: '2026-12-31T00:00:00.000Z',
    status: SubscriptionStatus.Active,
    canceled_at: null,
    ...overrides,
  };
}

function grant(of: StoredSubscription, id: string): StoredEntitlement {
  return {
    id,
    application_id: of.application_id,
    sku_id: of.sku_ids[0]!,
    user_id: of.user_id,
    guild_id: null,
    type: EntitlementType.ApplicationSubscription,
    deleted: false,
    consumed: false,
    starts_at: of.current_period_start,
    ends_at: of.current_period_end,
  };
}

export function describeSubscriptionsContract(name: string, make: MakeStores): void {
  describe(`${name}: subscriptions`, () => {
    const t = freshDatabasePerTest(make);

    it('a subscription is written with its entitlement, keyed by its application', async () => {
      const store = t.stores.subscriptions;
      await t.stores.entitlements.putSkus(APP_A, [
        { id: SKU, application_id: APP_A, type: SKUType.Subscription, name: 'Monthly', slug: 'monthly', flags: 260 },
      ]);
      const first = subscription('1000000000000000001', { entitlement_ids: ['1000000000000000101'] });
      assert.equal(await store.createSubscription(first, grant(first, '1000000000000000101'), BOUNDS), 'created');
      const other = await t.db.connect();
      assert.deepEqual(await other.subscriptions.getSubscription(APP_A, first.id), first);
      assert.deepEqual(
        await other.entitlements.getEntitlement(APP_A, '1000000000000000101'),
        grant(first, '1000000000000000101'),
      );
      assert.equal(
        await other.subscriptions.getSubscription(APP_B, first.id),
        null,
        "another application's id finds nothing",
      );
      assert.deepEqual(await other.subscriptions.listUserSubscriptions(APP_B, ALICE), []);
    });

    it('bounded: at either bound nothing is written, neither row', async () => {
      const store = t.stores.subscriptions;
      const first = subscription('1000000000000000001');
      assert.equal(await store.createSubscription(first, grant(first, '1000000000000000101'), BOUNDS), 'created');
      const second = subscription('1000000000000000002');
      assert.equal(
        await store.createSubscription(second, grant(second, '1000000000000000102'), {
          subscriptions: 1,
          entitlements: 10,
        }),
        'subscriptions-full',
      );
      assert.equal(
        await store.createSubscription(second, grant(second, '1000000000000000102'), {
          subscriptions: 10,
          entitlements: 1,
        }),
        'entitlements-full',
      );
      assert.equal(await store.getSubscription(APP_A, second.id), null);
      assert.equal(await t.stores.entitlements.getEntitlement(APP_A, '1000000000000000102'), null);
    });

    it("listed by user and SKU, paged by id as numbers; a user's list holds every SKU", async () => {
      const store = t.stores.subscriptions;
      // 19 and 20 digits: text order would put the longer id first.
      const ids = ['999999999999999999', '1000000000000000001', '1000000000000000002'];
      for (const [index, id] of ids.entries()) {
        const s = subscription(id);
        assert.equal(await store.createSubscription(s, grant(s, `110000000000000000${index}`), BOUNDS), 'created');
      }
      const bob = subscription('1000000000000000003', { user_id: BOB });
      await store.createSubscription(bob, grant(bob, '1100000000000000009'), BOUNDS);
      const otherSku = subscription('1000000000000000004', { sku_ids: [OTHER_SKU] });
      await store.createSubscription(otherSku, grant(otherSku, '1100000000000000008'), BOUNDS);
      const foreign = subscription('1000000000000000005', { application_id: APP_B });
      await store.createSubscription(foreign, grant(foreign, '1100000000000000007'), BOUNDS);

      const other = await t.db.connect();
      const page = (p: { before?: string | undefined; after?: string | undefined; limit?: number }) =>
        other.subscriptions
          .listSubscriptions(APP_A, {
            skuId: SKU,
            userId: ALICE,
            before: p.before,
            after: p.after,
            limit: p.limit ?? 100,
          })
          .then((l) => l.map((s) => s.id));
      assert.deepEqual(await page({}), [...ids].reverse(), 'newest first');
      assert.deepEqual(await page({ limit: 1 }), [ids[2]]);
      assert.deepEqual(await page({ after: ids[0] }), ids.slice(1));
      assert.deepEqual(await page({ after: ids[0], limit: 1 }), [ids[1]]);
      assert.deepEqual(await page({ before: ids[2] }), [ids[1], ids[0]]);
      assert.deepEqual(
        (await other.subscriptions.listUserSubscriptions(APP_A, ALICE)).map((s) => s.id),
        ['1000000000000000004', ...[...ids].reverse()],
      );
    });

    it('rewritten and deleted together with its entitlement; another application’s row is untouched', async () => {
      const store = t.stores.subscriptions;
      const s = subscription('1000000000000000001');
      const e = grant(s, '1000000000000000101');
      await store.createSubscription(s, e, BOUNDS);
      const ending = {
        ...s,
        status: SubscriptionStatus.Ending,
        renewal_sku_ids: null,
        canceled_at: '2026-12-02T00:00:00.000Z',
      };
      const ended = { ...e, ends_at: '2026-12-02T00:00:00.000Z' };
      assert.equal(await store.updateSubscription(ending, ended), true);
      const other = await t.db.connect();
      assert.deepEqual(await other.subscriptions.getSubscription(APP_A, s.id), ending);
      assert.deepEqual(await other.entitlements.getEntitlement(APP_A, e.id), ended);
      assert.equal(await store.updateSubscription({ ...ending, application_id: APP_B }, null), false);
      assert.equal(await store.deleteSubscription({ ...ending, application_id: APP_B }, null), false);
      assert.equal(await store.deleteSubscription(ending, { ...ended, deleted: true }), true);
      assert.equal(await other.subscriptions.getSubscription(APP_A, s.id), null);
      assert.equal((await other.entitlements.getEntitlement(APP_A, e.id))?.deleted, true);
      assert.equal(await store.deleteSubscription(ending, null), false, 'once');
    });
  });
}
