/**
 * Sessions outlive their sockets: a client that lost its socket RESUMEs and gets every dispatch
 * it missed, in order and with its sequence numbers, then RESUMED. A session the client closed
 * (1000), one past the resume window (injected clock), or an unknown one gets INVALID_SESSION
 * (d: false). A draining node tells its clients to RECONNECT (op 7).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayClient, GatewayClients, type Payload } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const GUILDS = 1;

describe('gateway resume', () => {
  let server: TestServer;
  let clock = Date.UTC(2025, 5, 1, 12, 0, 0);
  const clients = new GatewayClients();

  before(async () => {
    server = await startServer({ now: () => clock });
  });

  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function connect(): Promise<GatewayClient> {
    return clients.connect(server.url);
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

  function publishPermissions(commandId: string): void {
    server.slashd.bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', {
      applicationId: DEMO_APP_ID,
      data: { id: commandId, application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, permissions: [] },
    });
  }

  /** Waits until the server has seen the socket go (its session no longer has one). */
  async function untilDetached(sessionId: string): Promise<void> {
    for (let i = 0; i < 1000 && server.slashd.gateway.isAttached(sessionId); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(server.slashd.gateway.isAttached(sessionId), false);
  }

  async function resume(sessionId: string, seq: number | null): Promise<GatewayClient> {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq } });
    return client;
  }

  test('a dropped socket loses no event: the missed ones come in order, then RESUMED', async () => {
    const first = await connect();
    const ready = await first.login(DEMO_BOT_TOKEN, GUILDS);
    const guild = await first.nextDispatch('GUILD_CREATE');
    assert.equal(guild.s, 2);
    publishRole('before');
    await server.slashd.gateway.settled();
    const seen = await first.nextDispatch('GUILD_ROLE_UPDATE');
    assert.equal(seen.s, 3);

    first.drop();
    await untilDetached(ready.d.session_id);
    publishRole('while away 1');
    publishPermissions('1');
    publishRole('while away 2');
    await server.slashd.gateway.settled();

    const second = await resume(ready.d.session_id, 3);
    const replayed: Payload[] = [];
    for (let i = 0; i < 3; i++) replayed.push(await second.next((p) => p.op === 0));
    assert.deepEqual(
      replayed.map((p) => [p.s, p.t]),
      [
        [4, 'GUILD_ROLE_UPDATE'],
        [5, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE'],
        [6, 'GUILD_ROLE_UPDATE'],
      ],
    );
    assert.equal(replayed[0]!.d.role.name, 'while away 1');
    assert.equal(replayed[2]!.d.role.name, 'while away 2');
    const resumed = await second.nextDispatch('RESUMED');
    assert.equal(resumed.s, 7);
    // And the resumed session goes on live.
    publishRole('after');
    await server.slashd.gateway.settled();
    const live = await second.nextDispatch('GUILD_ROLE_UPDATE');
    assert.equal(live.s, 8);
    assert.equal(live.d.role.name, 'after');
  });

  test('resuming from an older seq replays from there', async () => {
    const first = await connect();
    const ready = await first.login(DEMO_BOT_TOKEN, GUILDS);
    await first.nextDispatch('GUILD_CREATE');
    first.drop();
    await untilDetached(ready.d.session_id);
    const second = await resume(ready.d.session_id, 1);
    const guild = await second.next((p) => p.op === 0);
    assert.equal(guild.t, 'GUILD_CREATE');
    assert.equal(guild.s, 2);
    assert.equal((await second.nextDispatch('RESUMED')).s, 3);
  });

  test('an unknown session, a session closed with 1000, one past the resume window: INVALID_SESSION false', async () => {
    const unknown = await resume('0'.repeat(32), 0);
    assert.deepEqual(await unknown.nextOp(9), { op: 9, d: false, s: null, t: null });

    const closing = await connect();
    const ready = await closing.login(DEMO_BOT_TOKEN, GUILDS);
    closing.close(1000);
    await untilDetached(ready.d.session_id);
    const afterClose = await resume(ready.d.session_id, 1);
    assert.equal((await afterClose.nextOp(9)).d, false);

    const lost = await connect();
    const lostReady = await lost.login(DEMO_BOT_TOKEN, GUILDS);
    lost.drop();
    await untilDetached(lostReady.d.session_id);
    clock += 3 * 60_000 + 1;
    server.slashd.gateway.sweep();
    const late = await resume(lostReady.d.session_id, 1);
    assert.equal((await late.nextOp(9)).d, false);
  });

  test('a resume buffer that cannot be read: INVALID_SESSION true, and the session stays resumable', async () => {
    const owner = await connect();
    const ready = await owner.login(DEMO_BOT_TOKEN, GUILDS);
    owner.drop();
    await untilDetached(ready.d.session_id);
    // The in-memory buffer stands in for a shared store that is briefly away.
    const buffer = server.slashd.gateway.resumeBuffer;
    const since = buffer.since.bind(buffer);
    buffer.since = async () => {
      throw new Error('store away');
    };
    const first = await resume(ready.d.session_id, 1);
    assert.deepEqual(await first.nextOp(9), { op: 9, d: true, s: null, t: null });
    buffer.since = since;
    const second = await resume(ready.d.session_id, 1);
    assert.equal((await second.nextDispatch('RESUMED')).s, 3);
  });

  test('another bot’s token cannot resume a session', async () => {
    const owner = await connect();
    const ready = await owner.login(DEMO_BOT_TOKEN, GUILDS);
    owner.drop();
    await untilDetached(ready.d.session_id);
    const thief = await connect();
    await thief.nextOp(10);
    thief.send({ op: 6, d: { token: 'other-bot-token', session_id: ready.d.session_id, seq: 0 } });
    assert.equal((await thief.nextOp(9)).d, false);
  });

  test('a client that stops reading is closed past the send buffer bound, and can resume', async () => {
    // The resume buffer must hold what piles up unread (several MiB in the kernel's buffers).
    const local = await startServer({
      config: { gateway: { sendBufferBytes: 256 * 1024, resumeBufferChars: 256 * 1024 * 1024 } },
    });
    try {
      const client = await GatewayClient.connect(local.url);
      const ready = await client.login(DEMO_BOT_TOKEN, GUILDS);
      await client.nextDispatch('GUILD_CREATE');
      // The client's socket stops reading: what the server sends piles up in its buffers.
      const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      const big = 'x'.repeat(64 * 1024);
      let published = 0;
      while (local.slashd.gateway.isAttached(ready.d.session_id) && published < 2000) {
        for (let i = 0; i < 20; i++, published++) {
          local.slashd.bus.publish('WORLD_DISPATCH', {
            t: 'GUILD_UPDATE',
            guildId: TEST_GUILD_ID,
            channelId: null,
            recipientIds: [],
            d: { id: TEST_GUILD_ID, n: published, big },
          });
        }
        await local.slashd.gateway.settled();
      }
      assert.equal(local.slashd.gateway.isAttached(ready.d.session_id), false, 'closed as a slow consumer');
      socket.resume();
      assert.equal((await client.closedWith()).code, 4000);
      const lastSeen = client.payloads.filter((p) => p.op === 0).at(-1)!.s!;
      const again = await GatewayClient.connect(local.url);
      await again.nextOp(10);
      again.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: ready.d.session_id, seq: lastSeen } });
      const first = await again.next((p) => p.op === 0);
      assert.equal(first.s, lastSeen + 1, 'the resume continues where the client stopped reading');
      again.drop();
    } finally {
      await local.close();
    }
  });

  test('a draining node sends RECONNECT (op 7) and closes resumably', async () => {
    const local = await startServer();
    try {
      const client = await GatewayClient.connect(local.url);
      await client.login(DEMO_BOT_TOKEN, GUILDS);
      await local.slashd.gateway.close();
      assert.deepEqual(await client.nextOp(7), { op: 7, d: null, s: null, t: null });
      const closed = await client.closedWith();
      assert.equal(closed.code, 4000);
    } finally {
      await local.close();
    }
  });
});
