/**
 * Gateway sockets without a session (no IDENTIFY or RESUME yet) hold no token, so they are bounded
 * apart from sessions: each is closed with 4003 once its deadline passes, heartbeats or not; they
 * never count against `maxSessions`; and one client address may hold only a few at once (HTTP 429
 * at the upgrade for one more), while a real bot from another address still gets READY.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { ClientOptions } from 'ws';
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { GatewayDispatchEvents, GatewayIntentBits, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { addressGroup } from '../src/core/gateway/limits.js';
import { GatewayClient, GatewayClients } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN } from './helpers/world.js';

/** Linux routes all of 127/8 to loopback: the attacker's sockets come from an address of their own. */
const ATTACKER_ADDRESS = '127.0.0.2';

const servers: TestServer[] = [];
const clients = new GatewayClients();

after(async () => {
  clients.dropAll();
  for (const server of servers) await server.close();
});

async function serverWith(gateway: Record<string, unknown>, config: Record<string, unknown> = {}) {
  const server = await startServer({ config: { ...config, gateway } });
  servers.push(server);
  return server;
}

async function connect(server: TestServer, options: ClientOptions = {}) {
  return clients.connect(server.url, undefined, options);
}

/** A socket that answers HELLO with a heartbeat (and gets its ACK), and never identifies. */
async function silentSocket(server: TestServer, options: ClientOptions = {}): Promise<GatewayClient> {
  const client = await connect(server, options);
  await client.nextOp(10);
  client.send({ op: 1, d: null });
  await client.nextOp(11);
  return client;
}

/** The HTTP status an upgrade was refused with. */
async function refusedUpgrade(server: TestServer, options: ClientOptions): Promise<string> {
  const error = await GatewayClient.connect(server.url, undefined, options).then(
    (client) => {
      client.drop();
      throw new Error('the upgrade was accepted');
    },
    (error: Error) => error,
  );
  return error.message;
}

describe('gateway sockets that never identify', () => {
  test('one that heartbeats but sends no IDENTIFY is closed with 4003 at its deadline', async () => {
    const server = await serverWith({ identifyTimeoutMs: 150 });
    const client = await silentSocket(server);
    assert.deepEqual(await client.closedWith(), { code: 4003, reason: 'Not authenticated.' });
    assert.equal(server.slashd.gateway.connectionCount, 0);
  });

  test('one that identifies in time has a session and no deadline left', async () => {
    const server = await serverWith({ identifyTimeoutMs: 150 });
    const client = await connect(server);
    const ready = await client.login(DEMO_BOT_TOKEN);
    assert.equal(ready.d.application.id, DEMO_APP_ID);
    assert.equal(server.slashd.gateway.identifiedCount, 1);
    assert.equal(server.slashd.gateway.connectionCount, 1);
    assert.equal(client.closed, null);
  });

  test('they do not count against maxSessions, one address holds a few, and a real bot still gets READY', async () => {
    const perAddress = 6;
    const server = await serverWith({ maxSessions: 2, maxUnidentifiedPerAddress: perAddress });
    const fromAttacker = { localAddress: ATTACKER_ADDRESS };
    // Three times maxSessions, all without a token, all alive.
    for (let i = 0; i < perAddress; i++) await silentSocket(server, fromAttacker);
    assert.equal(server.slashd.gateway.connectionCount, perAddress);
    assert.equal(server.slashd.gateway.identifiedCount, 0);
    assert.match(await refusedUpgrade(server, fromAttacker), /HTTP 429/);

    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    const manager = new WebSocketManager({ token: DEMO_BOT_TOKEN, intents: GatewayIntentBits.Guilds, rest });
    try {
      const ready = new Promise<GatewayDispatchPayload>((resolve) =>
        manager.on(WebSocketShardEvents.Dispatch, (payload) => {
          if (payload.t === GatewayDispatchEvents.Ready) resolve(payload);
        }),
      );
      await manager.connect();
      const payload = await ready;
      assert.equal((payload.d as { application: { id: string } }).application.id, DEMO_APP_ID);
      assert.equal(server.slashd.gateway.identifiedCount, 1);
      // The attacker's sockets are all still there: the bot did not need their slots.
      assert.equal(server.slashd.gateway.connectionCount, perAddress + 1);
    } finally {
      await manager.destroy();
    }
  });

  test('behind a trusted proxy, clients are told apart by X-Forwarded-For', async () => {
    const server = await serverWith({ maxUnidentifiedPerAddress: 2 }, { trustProxy: 'loopback' });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    await silentSocket(server, from('203.0.113.7'));
    await silentSocket(server, from('203.0.113.7'));
    assert.match(await refusedUpgrade(server, from('203.0.113.7')), /HTTP 429/);
    // Another client through the same proxy is not held out by the first one's sockets.
    await silentSocket(server, from('203.0.113.8'));
    // An IPv6 client's /64 is one client: another address of it is refused too.
    await silentSocket(server, from('2001:db8:1:2::1'));
    await silentSocket(server, from('2001:db8:1:2::2'));
    assert.match(await refusedUpgrade(server, from('2001:db8:1:2:ffff::3')), /HTTP 429/);
  });
});

describe('addressGroup', () => {
  test('an IPv4 address is itself, an IPv4-mapped one its IPv4, an IPv6 one its /64', () => {
    assert.equal(addressGroup('203.0.113.7'), '203.0.113.7');
    assert.equal(addressGroup('::ffff:127.0.0.2'), '127.0.0.2');
    assert.equal(addressGroup('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(addressGroup('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
    assert.notEqual(addressGroup('2001:db8:1:3::1'), addressGroup('2001:db8:1:2::1'));
    assert.equal(addressGroup(''), '');
  });
});
