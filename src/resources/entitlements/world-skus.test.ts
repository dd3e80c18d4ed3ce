/**
 * SKUs in the world file (`applications[].skus`, docs/world.md#skus): read as the admin API's SKU
 * list reads them (50035-style issues at their paths: a bad type, a duplicate id, too many), put
 * into the monetization sandbox when the application is written (a start-up world, `PUT` and
 * `POST /admin/world`), exported as given; and the served demo world sells one of each kind.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { parseWorld } from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import { DEMO_SKUS, SERVED_DEMO_WORLD } from '../../world/demo-world.js';
import { readWorld } from '../../world/world-file.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ADMIN_AUTH, BOT, DEMO_APP_ID, exampleWorld } from '../../../test/helpers/world.js';

type Json = Record<string, any>;

function withSkus(skus: unknown): unknown {
  const world = exampleWorld() as unknown as Json;
  world.applications[0].skus = skus;
  return world;
}

function issuePaths(value: unknown): string[] {
  const parsed = parseWorld(value);
  assert.equal(parsed.ok, false, 'refused');
  return parsed.ok ? [] : parsed.issues.map((i) => `${i.path.join('.')} ${i.code}`);
}

describe('SKUs in the world file', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
  });

  test('read at their paths: a bad type, an empty name, a duplicate id, too many', () => {
    assert.deepEqual(
      issuePaths(
        withSkus([
          { id: '1400000000000000001', type: 9, name: '' },
          { id: '1400000000000000002', type: 2, name: 'A' },
          { id: '1400000000000000002', type: 3, name: 'B' },
        ]),
      ),
      [
        'applications.0.skus.0.type BASE_TYPE_CHOICES',
        'applications.0.skus.0.name BASE_TYPE_BAD_LENGTH',
        'applications.0.skus.2.id LIST_TYPE_DUPLICATE_VALUE',
      ],
    );
    const many = Array.from({ length: 51 }, (_, i) => ({
      id: String(1400000000000000100n + BigInt(i)),
      type: 2,
      name: `S${i}`,
    }));
    assert.deepEqual(issuePaths(withSkus(many)), ['applications.0.skus BASE_TYPE_MAX_LENGTH']);
  });

  test('put when the application is written, and exported as the world gave them', async () => {
    const world = readWorld(
      withSkus([
        { id: '1400000000000000001', type: 2, name: 'Premium' },
        { id: '1400000000000000003', type: 5, name: 'Monthly' },
      ]),
      'the test',
    );
    const server = await startServer({ world });
    servers.push(server);
    const skus = await server.request('GET', `/applications/${DEMO_APP_ID}/skus`, { auth: BOT });
    assert.deepEqual(
      (skus.body as Json[]).map((s) => [s.id, s.type, s.slug, s.flags]),
      [
        ['1400000000000000001', 2, 'premium', 4],
        ['1400000000000000003', 5, 'monthly', 260],
      ],
    );
    const exported = await server.request('GET', `${server.url}/admin/world`, { auth: ADMIN_AUTH });
    assert.deepEqual(
      (exported.body as World).applications[0]!.skus!.map((s) => s.id),
      ['1400000000000000001', '1400000000000000003'],
    );

    const merged = structuredClone(exported.body as World);
    merged.applications = [
      {
        ...merged.applications[0]!,
        skus: [{ id: '1400000000000000009', type: 3, name: 'Coins', slug: 'coins', flags: 4 }],
      },
    ];
    const post = await server.request('POST', `${server.url}/admin/world`, {
      auth: ADMIN_AUTH,
      body: { applications: merged.applications, users: [], guilds: [], oauth2_tokens: [] },
    });
    assert.equal(post.status, 200, post.text);
    const after = await server.request('GET', `/applications/${DEMO_APP_ID}/skus`, { auth: BOT });
    assert.deepEqual(
      (after.body as Json[]).map((s) => s.id),
      ['1400000000000000009'],
      'the merged world’s list',
    );
    const app = { ...merged.applications[0]!, skus: [{ id: '1400000000000000010', type: 2, name: 'Gold' }] };
    const put = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}`, {
      auth: ADMIN_AUTH,
      body: app,
    });
    assert.ok(put.status < 300, put.text);
    const replaced = await server.request('GET', `/applications/${DEMO_APP_ID}/skus`, { auth: BOT });
    assert.deepEqual(
      (replaced.body as Json[]).map((s) => [s.id, s.slug]),
      [['1400000000000000010', 'gold']],
    );
    const bad = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}`, {
      auth: ADMIN_AUTH,
      body: { ...app, skus: [{ id: '1400000000000000011', type: 7, name: 'Bad' }] },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.deepEqual(Object.keys(bad.body.errors.skus['0']), ['type']);
    const kept = await server.request('GET', `/applications/${DEMO_APP_ID}/skus`, { auth: BOT });
    assert.deepEqual(kept.body, replaced.body, 'a refused write changes nothing');
  });

  test('the served demo world sells a durable, a consumable and a subscription SKU', async () => {
    const server = await startServer({ world: readWorld(structuredClone(SERVED_DEMO_WORLD), 'the demo world') });
    servers.push(server);
    const skus = await server.request('GET', `/applications/${DEMO_APP_ID}/skus`, { auth: BOT });
    assert.deepEqual(
      (skus.body as Json[]).map((s) => [s.id, s.type, s.name]),
      DEMO_SKUS.map((s) => [s.id, s.type, s.name]),
    );
    assert.deepEqual(
      (skus.body as Json[]).map((s) => s.type),
      [2, 3, 5],
    );
  });
});
