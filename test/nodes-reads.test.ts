/**
 * Reads on one node after writes on another (one PostgreSQL schema, one Redis prefix): nothing a
 * node keeps in process goes stale. Commands listed (B's list answers held in two views), the channel's command index (the picker),
 * a user, and a new gateway session's GUILD_CREATE on B all show what A wrote just before, and
 * B's session gets the dispatch of A's world change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayClient } from './helpers/gateway-client.js';
import { requestAt, startNodePair, type InProcessNode, type NodePair } from './helpers/nodes.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';
import type { Json } from './helpers/json.js';

type Node = InProcessNode;

describe('reads on B after writes on A', () => {
  let pair: NodePair;
  const clients: GatewayClient[] = [];
  let a: Node;
  let b: Node;

  async function call(n: Node, method: string, path: string, auth: string, body?: unknown): Promise<Json> {
    const response = await requestAt(n.url, method, `${n.url}${path}`, { auth, body });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
    return (response.body ?? {}) as Json;
  }

  const commandNames = async (n: Node, token: string): Promise<string[]> => {
    const index = await call(n, 'GET', `/api/v10/channels/${GENERAL}/application-command-index`, token);
    return (index.application_commands as Json[]).map((c) => c.name as string).sort();
  };

  before(async () => {
    pair = await startNodePair('nodes-reads', exampleWorld());
    ({ a, b } = pair);
  });

  after(async () => {
    for (const client of clients) client.drop();
    await pair?.close();
  });

  test('commands and the picker', async () => {
    const base = `/api/v10/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    assert.deepEqual(await call(b, 'GET', base, BOT), []);
    const before = await commandNames(b, BOB_TOKEN);
    const created = await call(a, 'POST', base, BOT, { name: 'fresh', description: 'Made on A' });
    assert.deepEqual(
      (await call(b, 'GET', base, BOT)).map((c: Json) => c.name),
      ['fresh'],
    );
    assert.deepEqual(await commandNames(b, BOB_TOKEN), [...before, 'fresh'].sort());
    // B now holds the list's bytes in two views: A's next write must replace both.
    const withLocalizations = `${base}?with_localizations=true`;
    assert.deepEqual(
      (await call(b, 'GET', withLocalizations, BOT)).map((c: Json) => c.name),
      ['fresh'],
    );
    await call(a, 'PATCH', `${base}/${created.id}`, BOT, { description: 'Edited on A' });
    assert.deepEqual(
      (await call(b, 'GET', base, BOT)).map((c: Json) => c.description),
      ['Edited on A'],
    );
    assert.deepEqual(
      (await call(b, 'GET', withLocalizations, BOT)).map((c: Json) => c.description),
      ['Edited on A'],
    );

    await call(a, 'PUT', `${base}/${created.id}/permissions`, 'Bearer alice-perm-token', {
      permissions: [{ id: BOB_ID, type: 2, permission: false }],
    });
    assert.deepEqual(await commandNames(b, BOB_TOKEN), before, 'bob no longer sees it on B');
    assert.ok((await commandNames(b, ALICE_TOKEN)).includes('fresh'));
  });

  test('a user and a guild changed on A, read and dispatched on B', async () => {
    const bot = await GatewayClient.connect(b.url);
    clients.push(bot);
    await bot.login(DEMO_BOT_TOKEN, 1);
    await bot.nextDispatch('GUILD_CREATE');

    const user = await call(a, 'GET', `/admin/users/${BOB_ID}`, `Bearer ${ADMIN_TOKEN}`);
    await call(a, 'PUT', `/admin/users/${BOB_ID}`, `Bearer ${ADMIN_TOKEN}`, { ...user, username: 'robert' });
    assert.equal((await call(b, 'GET', `/api/v10/users/${BOB_ID}`, ALICE_TOKEN)).username, 'robert');

    const guild = await call(a, 'GET', `/admin/guilds/${TEST_GUILD_ID}`, `Bearer ${ADMIN_TOKEN}`);
    await call(a, 'PUT', `/admin/guilds/${TEST_GUILD_ID}`, `Bearer ${ADMIN_TOKEN}`, { ...guild, name: 'Renamed' });
    const update = await bot.nextDispatch('GUILD_UPDATE');
    assert.equal(update.d.name, 'Renamed');

    const later = await GatewayClient.connect(b.url);
    clients.push(later);
    await later.login(DEMO_BOT_TOKEN, 1);
    assert.equal((await later.nextDispatch('GUILD_CREATE')).d.name, 'Renamed');
  });
});
