/**
 * Subscriptions over HTTP on SQLite and PostgreSQL, every v10 answer checked against the OpenAPI
 * document (`SubscriptionResponse`, the operations `get_sku_subscriptions` and
 * `get_sku_subscription`): refusals (a SKU of another app or none: 10027; `user_id` missing or
 * bad, `limit` out of range: 50035 at the parameter; a subscription of another user or SKU: 404)
 * that write nothing; the admin API's life cycle (bought with its type 8 entitlement, bought
 * again: the same one, canceled, its period ended: inactive and its entitlement ended, renewed
 * while active: a new period, deleted: gone and its entitlement deleted); paging; and the
 * console's Store as the signed-in user (404 outside a sandbox, another user's items are not theirs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertMatchesOperation, assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  ALICE_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  DEMO_APP_ID,
  NOBODY,
  OTHER_BOT_TOKEN,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const DURABLE = '1400000000000000001';
const CONSUMABLE = '1400000000000000002';
const MONTHLY = '1400000000000000003';
const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;

function describeSubscriptions(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: subscriptions over HTTP`, () => {
    let server: TestServer;
    let plain: TestServer;
    const admin = `/admin/applications/${DEMO_APP_ID}`;

    before(async () => {
      const base = options();
      server = withSchemaChecks(await startServer({ ...base, config: { ...base.config, sandboxSignIn: true } }));
      const put = await adminCall('PUT', '/skus', [
        { id: DURABLE, type: 2, name: 'Premium' },
        { id: CONSUMABLE, type: 3, name: 'Coins' },
        { id: MONTHLY, type: 5, name: 'Monthly' },
      ]);
      assert.equal(put.status, 200, put.text);
    });
    after(async () => {
      await server?.close();
      await plain?.close();
      await cleanup();
    });

    function adminCall(method: string, path: string, body?: unknown) {
      return server.request(method, `${server.url}${admin}${path}`, { auth: ADMIN_AUTH, body });
    }
    async function list(query: string, sku = MONTHLY, auth = BOT) {
      const response = await server.request('GET', `/skus/${sku}/subscriptions${query}`, { auth });
      if (response.status === 200) assertMatchesOperation('GET', '/skus/{sku_id}/subscriptions', 200, response.body);
      return response;
    }
    function fieldErrors(response: { status: number; body: Json; text: string }): string[] {
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 50035);
      return Object.keys(response.body.errors as Json).sort();
    }
    async function subscribe(userId: string, sku = MONTHLY): Promise<Json> {
      const response = await adminCall('POST', '/subscriptions', { sku_id: sku, user_id: userId });
      assert.equal(response.status, 200, response.text);
      assertMatchesSchema('SubscriptionResponse', response.body);
      return response.body;
    }
    async function entitlement(id: string): Promise<Json> {
      const response = await server.request('GET', `/applications/${DEMO_APP_ID}/entitlements/${id}`, { auth: BOT });
      assert.equal(response.status, 200, response.text);
      return response.body;
    }

    test('refusals name their cause and write nothing', async () => {
      assert.deepEqual(fieldErrors(await list('')), ['user_id'], 'a bot must name the user');
      assert.deepEqual(fieldErrors(await list('?user_id=x&limit=101&after=y')), ['after', 'limit', 'user_id']);
      const unknown = await list(`?user_id=${ALICE_ID}`, '1400000000000000009');
      assert.deepEqual([unknown.status, unknown.body.code], [404, 10027]);
      const foreign = await list(`?user_id=${ALICE_ID}`, MONTHLY, OTHER_BOT);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 10027], "another app's SKU is none of its own");
      const durable = await adminCall('POST', '/subscriptions', { sku_id: DURABLE, user_id: ALICE_ID });
      assert.deepEqual(fieldErrors(durable), ['sku_id']);
      assert.equal(durable.body.errors.sku_id._errors[0].code, 'SKU_NOT_SUBSCRIPTION');
      assert.deepEqual(fieldErrors(await adminCall('POST', '/subscriptions', { sku_id: 'x' })), ['sku_id', 'user_id']);
      const nobody = await adminCall('POST', '/subscriptions', { sku_id: MONTHLY, user_id: NOBODY });
      assert.deepEqual([nobody.status, nobody.body.code], [404, 10013]);
      const noApp = await server.request('POST', `${server.url}/admin/applications/${NOBODY}/subscriptions`, {
        auth: ADMIN_AUTH,
        body: { sku_id: MONTHLY, user_id: ALICE_ID },
      });
      assert.deepEqual([noApp.status, noApp.body.code], [404, 10002]);
      const missing = await adminCall('POST', '/subscriptions/1400000000000000777/cancel');
      assert.equal(missing.status, 404, missing.text);
      assert.deepEqual((await list(`?user_id=${ALICE_ID}`)).body, []);
      const entitlements = await server.request('GET', `/applications/${DEMO_APP_ID}/entitlements`, { auth: BOT });
      assert.deepEqual(entitlements.body, [], 'no entitlement was granted');
    });

    test('bought, read, bought again, canceled, ended, bought anew, renewed, deleted', async () => {
      const bought = await subscribe(ALICE_ID);
      assert.deepEqual(
        [bought.user_id, bought.sku_ids, bought.renewal_sku_ids, bought.status, bought.canceled_at],
        [ALICE_ID, [MONTHLY], [MONTHLY], 0, null],
      );
      assert.equal(bought.entitlement_ids.length, 1);
      const granted = await entitlement(bought.entitlement_ids[0]);
      assert.deepEqual(
        [granted.type, granted.user_id, granted.sku_id, granted.starts_at, granted.ends_at],
        [8, ALICE_ID, MONTHLY, bought.current_period_start, bought.current_period_end],
      );
      assert.ok(Date.parse(bought.current_period_end) > Date.parse(bought.current_period_start));

      const one = await server.request('GET', `/skus/${MONTHLY}/subscriptions/${bought.id}`, { auth: BOT });
      assert.equal(one.status, 200, one.text);
      assertMatchesOperation('GET', '/skus/{sku_id}/subscriptions/{subscription_id}', 200, one.body);
      assert.deepEqual(one.body, bought);
      for (const path of [
        `/skus/${MONTHLY}/subscriptions/${bought.id}?user_id=${BOB_ID}`,
        `/skus/${DURABLE}/subscriptions/${bought.id}`,
        `/skus/${MONTHLY}/subscriptions/1400000000000000777`,
        `/skus/${MONTHLY}/subscriptions/not-an-id`,
      ]) {
        const refused = await server.request('GET', path, { auth: BOT });
        assert.equal(refused.status, 404, `${path}: ${refused.text}`);
      }
      const foreign = await server.request('GET', `/skus/${MONTHLY}/subscriptions/${bought.id}`, { auth: OTHER_BOT });
      assert.deepEqual([foreign.status, foreign.body.code], [404, 10027]);
      assert.deepEqual((await list(`?user_id=${ALICE_ID}`)).body, [bought]);
      assert.deepEqual((await list(`?user_id=${BOB_ID}`)).body, [], "another user's list");

      assert.deepEqual(await subscribe(ALICE_ID), bought, 'a live subscription is kept, not doubled');

      const cancel = await adminCall('POST', `/subscriptions/${bought.id}/cancel`);
      assert.equal(cancel.status, 200, cancel.text);
      assert.deepEqual([cancel.body.status, cancel.body.renewal_sku_ids], [2, null]);
      assert.ok(cancel.body.canceled_at);
      const again = await adminCall('POST', `/subscriptions/${bought.id}/cancel`);
      assert.deepEqual(again.body, cancel.body, 'a second cancel changes nothing');
      assert.ok((await entitlement(granted.id)).ends_at === granted.ends_at, 'an ending one runs to its end');

      const ended = await adminCall('POST', `/subscriptions/${bought.id}/renew`);
      assert.equal(ended.status, 200, ended.text);
      assert.equal(ended.body.status, 1, 'an ending subscription becomes inactive at its end');
      const endedEntitlement = await entitlement(granted.id);
      assert.ok(Date.parse(endedEntitlement.ends_at) <= Date.now(), 'its entitlement has ended');
      const inactive = await adminCall('POST', `/subscriptions/${bought.id}/renew`);
      assert.deepEqual(fieldErrors(inactive), ['subscription_id']);

      const anew = await subscribe(ALICE_ID);
      assert.notEqual(anew.id, bought.id, 'an inactive subscription does not stand in the way');
      const renewed = await adminCall('POST', `/subscriptions/${anew.id}/renew`);
      assert.equal(renewed.body.status, 0, 'an active one renews');
      assert.ok(Date.parse(renewed.body.current_period_end) >= Date.parse(anew.current_period_end));
      assert.equal((await entitlement(anew.entitlement_ids[0])).ends_at, renewed.body.current_period_end);

      const ids = (await list(`?user_id=${ALICE_ID}`)).body.map((s: Json) => s.id);
      assert.deepEqual(ids, [bought.id, anew.id], 'ids ascending');
      assert.deepEqual(
        (await list(`?user_id=${ALICE_ID}&limit=1`)).body.map((s: Json) => s.id),
        [anew.id],
      );
      assert.deepEqual(
        (await list(`?user_id=${ALICE_ID}&after=${bought.id}`)).body.map((s: Json) => s.id),
        [anew.id],
      );
      assert.deepEqual(
        (await list(`?user_id=${ALICE_ID}&before=${anew.id}`)).body.map((s: Json) => s.id),
        [bought.id],
      );

      const deleted = await adminCall('DELETE', `/subscriptions/${anew.id}`);
      assert.equal(deleted.status, 204, deleted.text);
      const gone = await server.request('GET', `/skus/${MONTHLY}/subscriptions/${anew.id}`, { auth: BOT });
      assert.equal(gone.status, 404);
      assert.equal((await entitlement(anew.entitlement_ids[0])).deleted, true);
      assert.equal((await adminCall('DELETE', `/subscriptions/${anew.id}`)).status, 404);
    });

    test("the admin API's purchase: a subscription SKU's makes a subscription, another SKU's an entitlement", async () => {
      const monthly = await adminCall('POST', '/entitlements', { sku_id: MONTHLY, user_id: CAROL_ID });
      assert.equal(monthly.status, 200, monthly.text);
      assert.deepEqual([monthly.body.type, monthly.body.user_id], [8, CAROL_ID]);
      const subscriptions = (await list(`?user_id=${CAROL_ID}`)).body as Json[];
      assert.deepEqual(
        subscriptions.map((s) => s.entitlement_ids),
        [[monthly.body.id]],
      );
      const durable = await adminCall('POST', '/entitlements', { sku_id: DURABLE, user_id: CAROL_ID });
      assert.deepEqual([durable.status, durable.body.type, durable.body.ends_at], [200, 1, null]);
      assert.deepEqual(fieldErrors(await adminCall('POST', '/entitlements', { user_id: CAROL_ID })), ['sku_id']);
    });

    test("the console's Store: the user's shelves, a purchase of each kind, cancel and consume of their own only", async () => {
      const consoleCall = (method: string, path: string, auth: string, body?: unknown) =>
        server.request(method, `${server.url}/console/api${path}`, { auth, body });
      const apps = `/applications/${DEMO_APP_ID}`;
      const coins = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: CONSUMABLE });
      assert.equal(coins.status, 200, coins.text);
      assert.deepEqual([coins.body.entitlement.type, coins.body.subscription], [1, null]);
      const monthly = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: MONTHLY });
      assert.equal(monthly.body.subscription.user_id, BOB_ID);
      const durable = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: DURABLE });
      const again = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: DURABLE });
      assert.equal(again.body.entitlement.id, durable.body.entitlement.id, 'a durable SKU held is not sold twice');
      const moreCoins = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: CONSUMABLE });
      assert.notEqual(moreCoins.body.entitlement.id, coins.body.entitlement.id, 'a consumable is sold each time');
      const bad = await consoleCall('POST', `${apps}/purchases`, BOB_TOKEN, { sku_id: 'x' });
      assert.deepEqual(fieldErrors(bad), ['sku_id']);

      const aliceCancels = await consoleCall(
        'POST',
        `${apps}/subscriptions/${monthly.body.subscription.id}/cancel`,
        ALICE_TOKEN,
      );
      assert.equal(aliceCancels.status, 404, "another user's subscription is not hers");
      const aliceConsumes = await consoleCall(
        'POST',
        `${apps}/entitlements/${coins.body.entitlement.id}/consume`,
        ALICE_TOKEN,
      );
      assert.deepEqual([aliceConsumes.status, aliceConsumes.body.code], [404, 10029]);

      const consumed = await consoleCall(
        'POST',
        `${apps}/entitlements/${coins.body.entitlement.id}/consume`,
        BOB_TOKEN,
      );
      assert.equal(consumed.body.consumed, true);
      const canceled = await consoleCall(
        'POST',
        `${apps}/subscriptions/${monthly.body.subscription.id}/cancel`,
        BOB_TOKEN,
      );
      assert.equal(canceled.body.status, 2);

      const shelves = await consoleCall('GET', '/store', BOB_TOKEN);
      assert.equal(shelves.status, 200, shelves.text);
      assert.deepEqual(
        (shelves.body as Json[]).map((shelf) => [shelf.application.id, shelf.skus.length]),
        [[DEMO_APP_ID, 3]],
        'only applications with SKUs',
      );
      const shelf = (shelves.body as Json[])[0]!;
      assert.ok(shelf.entitlements.every((e: Json) => e.user_id === BOB_ID));
      assert.deepEqual(
        shelf.subscriptions.map((s: Json) => [s.id, s.status]),
        [[monthly.body.subscription.id, 2]],
      );
      assert.equal((await consoleCall('GET', '/store', BOT)).status, 401, 'a user token only');

      plain = await startServer();
      const refused = await plain.request('POST', `${plain.url}/console/api${apps}/purchases`, {
        auth: BOB_TOKEN,
        body: { sku_id: MONTHLY },
      });
      assert.equal(refused.status, 404, 'no sandbox purchase outside a sandbox');
    });
  });
}

describeSubscriptions(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_subscriptions');
describeSubscriptions(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
