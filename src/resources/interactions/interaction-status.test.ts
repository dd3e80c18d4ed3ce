/**
 * GET /interactions/{id} as the invoking user polls it (issue 27): the store answers it from the
 * interaction's status (SQLite: from its memory of the interactions it wrote), and says the same
 * as the stored record at every step (in flight, answered, failed, past its deadline), on the node
 * that took the interaction and on a second node on the same database (a second process on the
 * SQLite file; a second node on PostgreSQL + Redis), whichever node the app's answer reached. The
 * deadline is crossed on an injected clock, never by waiting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { requestAt, startNodePair } from '../../../test/helpers/nodes.js';
import { adminOk, startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

/** A node as these tests call it. */
type Node = Pick<TestServer, 'api' | 'request'>;

interface TwoNodes {
  first: Node;
  second: Node;
  /** Moves both nodes' clock forward; absent where the nodes run on the wall clock. */
  advance?: (ms: number) => void;
  close(): Promise<void>;
}

/** The demo app's endpoint, registered, and the guild command its users invoke. */
async function pollingApp(node: Node): Promise<{ app: AppServer; command: Json }> {
  const app = await startRegisteredApp(node.api, DEMO_BOT_TOKEN);
  const created = await node.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
    auth: BOT,
    body: { name: 'poll', description: 'Answered later' },
  });
  assert.equal(created.status, 201, created.text);
  return { app, command: created.body as Json };
}

function describeStatusReads(name: string, start: () => Promise<TwoNodes>): void {
  describe(`GET /interactions/{id} (${name}): the status read, on the node that took the interaction and on another`, () => {
    let nodes: TwoNodes;
    let first: Node;
    let second: Node;
    let app: AppServer;
    let command: Json;

    before(async () => {
      nodes = await start();
      ({ first, second } = nodes);
      ({ app, command } = await pollingApp(first));
    });

    after(async () => {
      await app?.close();
      await nodes?.close();
    });

    /** Invokes as Alice on the first node: the interaction's id and the state POST /interactions answered. */
    async function invoke(): Promise<{ id: string; state: string }> {
      const invoked = await first.request('POST', '/interactions', {
        auth: ALICE_TOKEN,
        body: invocationBody(command, { nonce: 'n-1' }),
      });
      assert.equal(invoked.status, 200, invoked.text);
      return invoked.body as { id: string; state: string };
    }

    /** The status as Alice reads it on both nodes: they must agree. */
    async function statusOnBoth(id: string): Promise<Json> {
      const here = await first.request('GET', `/interactions/${id}`, { auth: ALICE_TOKEN });
      const there = await second.request('GET', `/interactions/${id}`, { auth: ALICE_TOKEN });
      assert.equal(here.status, 200, here.text);
      assert.deepEqual(there.body, here.body, 'the second node reads what the first does');
      return here.body as Json;
    }

    test('in flight, then answered through the second node: each read shows the current state', async () => {
      app.handle(() => ({ accepted: true }));
      const { id, state } = await invoke();
      assert.equal(state, 'pending');
      assert.deepEqual(await statusOnBoth(id), { id, nonce: 'n-1', state: 'pending', response: null });

      const interaction = app.interactions().at(-1)!;
      assert.equal(interaction.id, id);
      const answered = await fetch(`${second.api}/interactions/${id}/${interaction.token as string}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: 'done' } }),
      });
      assert.equal(answered.status, 204, await answered.text());
      const status = await statusOnBoth(id);
      assert.equal(status.state, 'responded', 'the first node does not answer from a stale memory');
      assert.equal(status.response.type, 4);
      assert.equal(status.response.data.content, 'done');

      const other = await first.request('GET', `/interactions/${id}`, { auth: BOB_TOKEN });
      assert.equal(other.status, 404, 'only the invoker reads it');
      assert.equal(other.body.code, 10062);
    });

    test('a failed delivery reads failed, with its reason and the detail', async () => {
      app.handle(() => ({ status: 500, body: 'broken' }));
      const { id, state } = await invoke();
      assert.equal(state, 'failed');
      assert.deepEqual(await statusOnBoth(id), {
        id,
        nonce: 'n-1',
        state: 'failed',
        response: null,
        failure_reason: 'delivery_failure',
        failure_detail: 'the endpoint answered 500',
      });
    });

    test('unanswered past its 3 s deadline, it reads failed (timeout) before any timer stored it', async (t) => {
      if (!nodes.advance) return t.skip('these nodes run on the wall clock');
      app.handle(() => ({ accepted: true }));
      const { id } = await invoke();
      assert.equal((await statusOnBoth(id)).state, 'pending');
      nodes.advance(3_001);
      const status = await statusOnBoth(id);
      assert.equal(status.state, 'failed');
      assert.equal(status.failure_reason, 'timeout');
      const interaction = app.interactions().at(-1)!;
      const late = await app.callback(interaction, { type: 4, data: { content: 'too late' } });
      assert.equal(late.status, 404, 'the answer after the deadline is refused');
      assert.equal((await statusOnBoth(id)).state, 'failed');
    });
  });
}

describeStatusReads('SQLite, two processes on one file', async () => {
  let clock = Date.UTC(2025, 5, 1, 12, 0, 0);
  const first = await startServer({ now: () => clock });
  const second = await startServer({ db: first.dbPath, now: () => clock });
  return {
    first,
    second,
    advance: (ms) => (clock += ms),
    close: async () => {
      await second.close();
      await first.close();
    },
  };
});

describeStatusReads('PostgreSQL + Redis, two nodes', async () => {
  const pair = await startNodePair('interaction-status', exampleWorld());
  const node = (url: string): Node => ({
    api: `${url}/api/v10`,
    request: (method, path, opts) => requestAt(url, method, path, opts),
  });
  return { first: node(pair.a.url), second: node(pair.b.url), close: () => pair.close() };
});

describe('GET /interactions/{id} on SQLite: what takes interactions away takes their remembered status', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  before(async () => {
    server = await startServer();
    ({ app, command } = await pollingApp(server));
    app.handle(() => ({ accepted: true }));
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function invokedAndRead(): Promise<string> {
    const invoked = await server.request('POST', '/interactions', { auth: ALICE_TOKEN, body: invocationBody(command) });
    assert.equal(invoked.status, 200, invoked.text);
    const id = invoked.body.id as string;
    assert.equal((await server.request('GET', `/interactions/${id}`, { auth: ALICE_TOKEN })).status, 200);
    return id;
  }

  async function statusCode(id: string): Promise<number> {
    return (await server.request('GET', `/interactions/${id}`, { auth: ALICE_TOKEN })).status;
  }

  test('a snapshot taken before the interaction, restored: the interaction is unknown', async () => {
    const snapshot = await adminOk(server, 'POST', '/snapshots');
    const id = await invokedAndRead();
    await adminOk(server, 'POST', `/snapshots/${snapshot.body.id as string}/restore`);
    assert.equal(await statusCode(id), 404);
  });

  test('its application deleted: the interaction is unknown', async () => {
    const id = await invokedAndRead();
    await adminOk(server, 'DELETE', `/applications/${DEMO_APP_ID}`);
    assert.equal(await statusCode(id), 404);
  });
});
