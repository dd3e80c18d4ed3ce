/**
 * The monetization sandbox over HTTP on SQLite and PostgreSQL, every request and answer checked
 * against the OpenAPI document: SKUs from the admin API (50035 at their paths, nothing written),
 * test entitlements for a user and a guild (10027 for a SKU the app lacks, 10013 / 10004 for an
 * owner that is not there, 50035 at each field), another app's path (20012), the list's filters
 * and paging, consume (a durable one: 50035; again: no change), delete (test ones only: 10029
 * after). The entitlements an interaction carries are entitlements-discordjs.test.ts's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  BOB_ID,
  BOT,
  DEMO_APP_ID,
  NOBODY,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const DURABLE = '1400000000000000001';
const CONSUMABLE = '1400000000000000002';
const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;

function describeEntitlements(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: entitlements over HTTP`, () => {
    let server: TestServer;
    const base = `/applications/${DEMO_APP_ID}`;

    before(async () => {
      server = withSchemaChecks(await startServer(options()));
    });
    after(async () => {
      await server?.close();
      await cleanup();
    });

    function putSkus(body: unknown) {
      return server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}/skus`, { auth: ADMIN_AUTH, body });
    }
    function createTest(body: Json, auth = BOT, appId = DEMO_APP_ID) {
      assertMatchesSchema('CreateEntitlementRequestData', body);
      return server.request('POST', `/applications/${appId}/entitlements`, { auth, body });
    }
    function fieldErrors(response: { status: number; body: Json }): string[] {
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.code, 50035);
      return Object.keys(response.body.errors as Json).sort();
    }

    test('SKUs: bad lists are 50035 at their paths and write nothing; a good one is served to the bot', async () => {
      assert.deepEqual(fieldErrors(await putSkus([{ id: 'x', type: 9, name: '' }])), ['0']);
      const bad = await putSkus([{ id: DURABLE, type: 9, name: '' }]);
      assert.deepEqual(Object.keys(bad.body.errors['0']).sort(), ['name', 'type']);
      assert.deepEqual(fieldErrors(await putSkus({})), ['_errors']);
      assert.deepEqual((await server.request('GET', `${base}/skus`, { auth: BOT })).body, []);
      const put = await putSkus([
        { id: DURABLE, type: 2, name: 'Premium' },
        { id: CONSUMABLE, type: 3, name: 'Coins', slug: 'coins' },
      ]);
      assert.equal(put.status, 200, put.text);
      const skus = await server.request('GET', `${base}/skus`, { auth: BOT });
      assert.deepEqual(
        (skus.body as Json[]).map((s) => [s.id, s.type, s.slug, s.application_id, s.flags]),
        [
          [DURABLE, 2, 'premium', DEMO_APP_ID, 4],
          [CONSUMABLE, 3, 'coins', DEMO_APP_ID, 4],
        ],
      );
      const foreign = await server.request('GET', `${base}/skus`, { auth: OTHER_BOT });
      assert.equal(foreign.status, 403, foreign.text);
      assert.equal(foreign.body.code, 20012);
    });

    test('test entitlements: refusals name their cause and write nothing', async () => {
      const missing = await server.request('POST', `${base}/entitlements`, { auth: BOT, body: {} });
      assert.deepEqual(fieldErrors(missing), ['owner_id', 'owner_type', 'sku_id']);
      const badType = await server.request('POST', `${base}/entitlements`, {
        auth: BOT,
        body: { sku_id: DURABLE, owner_id: ALICE_ID, owner_type: 3 },
      });
      assert.deepEqual(fieldErrors(badType), ['owner_type']);
      const unknownSku = await createTest({ sku_id: '1400000000000000009', owner_id: ALICE_ID, owner_type: 2 });
      assert.deepEqual([unknownSku.status, unknownSku.body.code], [404, 10027]);
      const nobody = await createTest({ sku_id: DURABLE, owner_id: NOBODY, owner_type: 2 });
      assert.deepEqual([nobody.status, nobody.body.code], [404, 10013]);
      const noGuild = await createTest({ sku_id: DURABLE, owner_id: NOBODY, owner_type: 1 });
      assert.deepEqual([noGuild.status, noGuild.body.code], [404, 10004]);
      const foreign = await createTest({ sku_id: DURABLE, owner_id: ALICE_ID, owner_type: 2 }, OTHER_BOT);
      assert.deepEqual([foreign.status, foreign.body.code], [403, 20012]);
      const otherApp = await createTest(
        { sku_id: DURABLE, owner_id: ALICE_ID, owner_type: 2 },
        OTHER_BOT,
        OTHER_APP_ID,
      );
      assert.deepEqual([otherApp.status, otherApp.body.code], [404, 10027], 'the other app has no such SKU');
      const listed = await server.request('GET', `${base}/entitlements`, { auth: BOT });
      assert.deepEqual(listed.body, []);
    });

    test('create, list with every filter, consume, delete', async () => {
      const alice = await createTest({ sku_id: DURABLE, owner_id: ALICE_ID, owner_type: 2 });
      assert.equal(alice.status, 200, alice.text);
      assert.deepEqual(
        [alice.body.user_id, alice.body.guild_id, alice.body.type, alice.body.deleted, alice.body.consumed],
        [ALICE_ID, undefined, 4, false, false],
      );
      const guild = await createTest({ sku_id: DURABLE, owner_id: TEST_GUILD_ID, owner_type: 1 });
      assert.equal(guild.body.guild_id, TEST_GUILD_ID);
      const bob = await createTest({ sku_id: CONSUMABLE, owner_id: BOB_ID, owner_type: 2 });

      const list = async (query: string) => {
        const response = await server.request('GET', `${base}/entitlements${query}`, { auth: BOT });
        assert.equal(response.status, 200, response.text);
        return (response.body as Json[]).map((e) => e.id);
      };
      const all = [alice.body.id, guild.body.id, bob.body.id];
      assert.deepEqual(await list(''), all, 'ids ascending');
      assert.deepEqual(await list(`?user_id=${ALICE_ID}`), [alice.body.id]);
      assert.deepEqual(await list(`?guild_id=${TEST_GUILD_ID}`), [guild.body.id]);
      assert.deepEqual(await list(`?sku_ids=${CONSUMABLE}`), [bob.body.id]);
      assert.deepEqual(await list(`?sku_ids=${DURABLE},${CONSUMABLE}&limit=2`), all.slice(1), 'the newest two');
      assert.deepEqual(await list(`?after=${alice.body.id}&limit=1`), [guild.body.id]);
      assert.deepEqual(await list(`?before=${bob.body.id}`), all.slice(0, 2));
      const badQuery = await server.request('GET', `${base}/entitlements?limit=101&user_id=x`, { auth: BOT });
      assert.deepEqual(fieldErrors(badQuery), ['limit', 'user_id']);

      const durableConsume = await server.request('POST', `${base}/entitlements/${alice.body.id}/consume`, {
        auth: BOT,
      });
      assert.deepEqual(fieldErrors(durableConsume), ['entitlement_id']);
      for (let i = 0; i < 2; i++) {
        const consumed = await server.request('POST', `${base}/entitlements/${bob.body.id}/consume`, { auth: BOT });
        assert.equal(consumed.status, 204, consumed.text);
      }
      const read = await server.request('GET', `${base}/entitlements/${bob.body.id}`, { auth: BOT });
      assert.equal(read.body.consumed, true);
      const foreignRead = await server.request('GET', `/applications/${OTHER_APP_ID}/entitlements/${bob.body.id}`, {
        auth: OTHER_BOT,
      });
      assert.deepEqual([foreignRead.status, foreignRead.body.code], [404, 10029], "another app's id finds nothing");

      const deleted = await server.request('DELETE', `${base}/entitlements/${guild.body.id}`, { auth: BOT });
      assert.equal(deleted.status, 204, deleted.text);
      const again = await server.request('DELETE', `${base}/entitlements/${guild.body.id}`, { auth: BOT });
      assert.deepEqual([again.status, again.body.code], [404, 10029]);
      assert.deepEqual(await list(''), [alice.body.id, bob.body.id], 'deleted ones are left out by default');
      assert.deepEqual(await list('?exclude_deleted=false'), all);
      const unknown = await server.request('GET', `${base}/entitlements/1400000000000000777`, { auth: BOT });
      assert.deepEqual([unknown.status, unknown.body.code], [404, 10029]);
    });
  });
}

describeEntitlements(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_entitlements');
describeEntitlements(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
