/**
 * Injected gateway faults (`/admin/faults`): on the next matching dispatch or at once, the app's
 * session gets op 7 RECONNECT, op 9 INVALID_SESSION, or a close with the fault's code. The dispatch
 * a fault replaces stays in the resume buffer, so a client that resumes loses nothing; another
 * app's session is never touched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GatewayClient } from './helpers/gateway-client.js';
import { GatewayClients, type Payload } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, OTHER_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const GUILDS = 1;

describe('injected gateway faults', () => {
  let server: TestServer;
  const clients = new GatewayClients();

  before(async () => {
    server = await startServer();
  });
  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function connect(): Promise<GatewayClient> {
    return clients.connect(server.url);
  }

  async function addFault(body: Record<string, unknown>): Promise<void> {
    const created = await server.request('POST', `${server.url}/admin/faults`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: { application_id: DEMO_APP_ID, count: 1, ...body },
    });
    assert.equal(created.status, 201, created.text);
  }

  function publishRole(name: string): void {
    server.slashd.bus.publish('WORLD_DISPATCH', {
      t: 'GUILD_ROLE_UPDATE',
      guildId: TEST_GUILD_ID,
      channelId: null,
      recipientIds: [],
      d: { guild_id: TEST_GUILD_ID, role: { id: TEST_GUILD_ID, name } },
    });
  }

  async function loggedIn(token = DEMO_BOT_TOKEN): Promise<{ client: GatewayClient; ready: Payload }> {
    const client = await connect();
    const ready = await client.login(token, GUILDS);
    await client.nextDispatch('GUILD_CREATE');
    return { client, ready };
  }

  async function untilDetached(sessionId: string): Promise<void> {
    for (let i = 0; i < 1000 && server.slashd.gateway.isAttached(sessionId); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(server.slashd.gateway.isAttached(sessionId), false);
  }

  async function resume(sessionId: string, seq: number): Promise<GatewayClient> {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq } });
    return client;
  }

  test('RECONNECT on the next matching dispatch; resuming replays that dispatch', async () => {
    const { client, ready } = await loggedIn();
    await addFault({ kind: 'reconnect', event: 'GUILD_ROLE_UPDATE' });
    publishRole('struck');
    await server.slashd.gateway.settled();
    assert.deepEqual(await client.nextOp(7), { op: 7, d: null, s: null, t: null });
    assert.equal((await client.closedWith()).code, 4000);
    assert.ok(!client.payloads.some((p) => p.t === 'GUILD_ROLE_UPDATE'), 'the struck dispatch was not sent');
    await untilDetached(ready.d.session_id);

    const resumed = await resume(ready.d.session_id, 2);
    const replayed = await resumed.nextDispatch('GUILD_ROLE_UPDATE');
    assert.equal(replayed.s, 3);
    assert.equal(replayed.d.role.name, 'struck');
    assert.equal((await resumed.nextDispatch('RESUMED')).s, 4);
    // Spent: the next one arrives as usual.
    publishRole('after');
    await server.slashd.gateway.settled();
    assert.equal((await resumed.nextDispatch('GUILD_ROLE_UPDATE')).d.role.name, 'after');
    resumed.close();
  });

  test('INVALID_SESSION at once (not resumable): op 9 d false, and the session is gone', async () => {
    const { client, ready } = await loggedIn();
    await addFault({ kind: 'invalid_session', resumable: false });
    assert.deepEqual(await client.nextOp(9), { op: 9, d: false, s: null, t: null });
    await client.closedWith();
    await untilDetached(ready.d.session_id);
    const again = await resume(ready.d.session_id, 2);
    assert.equal((await again.nextOp(9)).d, false);
  });

  test('a close code at once; another app’s session is untouched', async () => {
    const other = await loggedIn(OTHER_BOT_TOKEN);
    const { client } = await loggedIn();
    await addFault({ kind: 'close', close_code: 4004 });
    assert.equal((await client.closedWith()).code, 4004);
    other.client.send({ op: 1, d: null });
    await other.client.nextOp(11);
    assert.equal(other.client.closed, null);
    other.client.close();
  });

  test('a fault added while no session is connected strikes at the app’s next dispatch', async () => {
    await addFault({ kind: 'reconnect' });
    const client = await connect();
    await client.nextOp(10);
    client.identify(DEMO_BOT_TOKEN, GUILDS);
    assert.equal((await client.nextOp(7)).op, 7);
    assert.equal((await client.closedWith()).code, 4000);
  });
});
