/**
 * The per-node read caches on PostgreSQL (docs/scaling.md#per-node-read-caches): B caches what A
 * then changes, and B's next read shows the change once the database's notice has reached B
 * (waited for as the event, never a timer): a user renamed, a user's token replaced (the old one
 * no longer authenticates on B), a bot token reset.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import type { WorldReadCaches } from '../src/store/postgres/world-read-caches.js';
import { requestAt, startNodePair, type InProcessNode, type NodePair } from './helpers/nodes.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  exampleWorld,
} from './helpers/world.js';
import type { Json } from './helpers/json.js';

const admin = `Bearer ${ADMIN_TOKEN}`;

describe('per-node read caches: a change on A reaches B', () => {
  let pair: NodePair;
  let a: InProcessNode;
  let b: InProcessNode;
  let caches: WorldReadCaches;

  async function call(n: InProcessNode, method: string, path: string, auth: string, body?: unknown) {
    return requestAt(n.url, method, `${n.url}${path}`, { auth, body });
  }

  /** Resolves once B has applied a notice naming `kind` `id` (or dropped everything). */
  function noticed(kind: 'a' | 'u' | 'g', id: string): Promise<void> {
    return new Promise((resolve) => {
      const listener = (k: string, i: string) => {
        if ((k === kind && i === id) || k === '*') {
          caches.events.off('notice', listener);
          resolve();
        }
      };
      caches.events.on('notice', listener);
    });
  }

  before(async () => {
    pair = await startNodePair('nodes-read-caches', exampleWorld());
    ({ a, b } = pair);
    caches = (b.slashd.store as PostgresStore).worldReads;
    if (!caches.active) await once(caches.events, 'listening');
  });

  after(async () => {
    await pair?.close();
  });

  test("a user renamed and a user's token replaced on A", async () => {
    const read = async () => (await call(b, 'GET', `/api/v10/users/${BOB_ID}`, ALICE_TOKEN)).body as Json;
    assert.equal((await read()).username, 'bob');
    assert.equal((await call(b, 'GET', '/api/v10/users/@me', BOB_TOKEN)).status, 200, "bob's token cached on B");
    const hits = caches.hits;
    assert.equal((await read()).username, 'bob');
    assert.ok(caches.hits > hits, 'the second read on B is answered from its cache');

    const user = (await call(a, 'GET', `/admin/users/${BOB_ID}`, admin)).body as Json;
    const renamed = noticed('u', BOB_ID);
    const put = await call(a, 'PUT', `/admin/users/${BOB_ID}`, admin, {
      ...user,
      username: 'robert',
      token: 'bob-new-token',
    });
    assert.ok(put.status < 300, `PUT: ${put.status} ${put.text}`);
    await renamed;
    assert.equal((await read()).username, 'robert');
    assert.equal(
      (await call(b, 'GET', '/api/v10/users/@me', BOB_TOKEN)).status,
      401,
      'the old token no longer works on B',
    );
    assert.equal((await call(b, 'GET', '/api/v10/users/@me', 'bob-new-token')).status, 200);
  });

  test('a bot token reset on A', async () => {
    const bot = `Bot ${DEMO_BOT_TOKEN}`;
    assert.equal((await call(b, 'GET', '/api/v10/applications/@me', bot)).status, 200, 'the token cached on B');
    const app = (await call(a, 'GET', `/admin/applications/${DEMO_APP_ID}`, admin)).body as Json;
    const reset = noticed('a', DEMO_APP_ID);
    const put = await call(a, 'PUT', `/admin/applications/${DEMO_APP_ID}`, admin, {
      ...app,
      bot_token: 'demo-bot-token-reset',
    });
    assert.ok(put.status < 300, `PUT: ${put.status} ${put.text}`);
    await reset;
    assert.equal(
      (await call(b, 'GET', '/api/v10/applications/@me', bot)).status,
      401,
      'the old bot token no longer works on B',
    );
    assert.equal((await call(b, 'GET', '/api/v10/applications/@me', 'Bot demo-bot-token-reset')).status, 200);
  });
});
