/**
 * Every v10 close code where its condition arises, with a raw `ws` client: 4001 unknown opcode,
 * 4002 decode error (bad JSON, a payload over 4096 bytes, an encoding other than JSON), 4003 not
 * authenticated, 4004 bad token, 4005 a second IDENTIFY, 4007 a RESUME ahead of the session, 4008
 * over 120 commands a minute, 4009 missed heartbeats (on an injected clock), 4010 a bad shard,
 * 4011 sharding required, 4012 a bad version, 4013 unknown intents, 4014 privileged intents the
 * app's flags do not allow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayClient, GatewayClients } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_BOT_TOKEN, OTHER_BOT_TOKEN, TEST_GUILD_ID, exampleWorld } from './helpers/world.js';

const GUILD_MEMBERS = 1 << 1;
const GUILD_PRESENCES = 1 << 8;
const MESSAGE_CONTENT = 1 << 15;
const HEARTBEAT_INTERVAL_MS = 41_250;

describe('gateway close codes', () => {
  let server: TestServer;
  let clock = Date.UTC(2025, 5, 1, 12, 0, 0);
  const clients = new GatewayClients();

  before(async () => {
    const world = exampleWorld();
    // The demo bot is in one guild; Other App in one too. With at most one guild per shard,
    // a bot in two guilds on one shard needs sharding.
    world.guilds[1]!.installs.push({ application_id: world.applications[0]!.id, scopes: ['bot'], permissions: null });
    server = await startServer({ world, now: () => clock, config: { gateway: { maxGuildsPerShard: 1 } } });
  });

  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function connect(query?: string): Promise<GatewayClient> {
    return clients.connect(server.url, query);
  }

  async function closesWith(client: GatewayClient, code: number): Promise<void> {
    const closed = await client.closedWith();
    assert.equal(closed.code, code, `closed with ${closed.code} ${closed.reason}`);
  }

  test('4001: an unknown opcode', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 5, d: null });
    await closesWith(client, 4001);
  });

  test('4002: a payload that is not JSON, or has no numeric op', async () => {
    const a = await connect();
    a.send('{"op": 1,');
    await closesWith(a, 4002);
    const b = await connect();
    b.send({ d: 1 });
    await closesWith(b, 4002);
  });

  test('4002: a client payload over 4096 bytes', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 1, d: null, padding: 'x'.repeat(4096) });
    await closesWith(client, 4002);
  });

  test('4002: an encoding other than JSON or ETF, or a compression other than zlib-stream, before HELLO', async () => {
    const msgpack = await connect('?v=10&encoding=msgpack');
    await closesWith(msgpack, 4002);
    assert.equal(msgpack.payloads.length, 0);
    const zstd = await connect('?v=10&encoding=json&compress=zstd-stream');
    await closesWith(zstd, 4002);
  });

  test('4003: a command before IDENTIFY', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 8, d: { guild_id: TEST_GUILD_ID, query: '', limit: 0 } });
    await closesWith(client, 4003);
    const presence = await connect();
    presence.send({ op: 3, d: { since: null, activities: [], status: 'online', afk: false } });
    await closesWith(presence, 4003);
  });

  test('4004: a token that is no bot’s', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.identify('not-a-token');
    await closesWith(client, 4004);
    const resume = await connect();
    resume.send({ op: 6, d: { token: 'not-a-token', session_id: 'x', seq: 0 } });
    await closesWith(resume, 4004);
  });

  test('4005: a second IDENTIFY', async () => {
    const client = await connect();
    await client.login(OTHER_BOT_TOKEN);
    client.identify(OTHER_BOT_TOKEN);
    await closesWith(client, 4005);
  });

  test('4007: RESUME with a seq the session never reached', async () => {
    const first = await connect();
    const ready = await first.login(OTHER_BOT_TOKEN);
    first.drop();
    const second = await connect();
    await second.nextOp(10);
    second.send({ op: 6, d: { token: OTHER_BOT_TOKEN, session_id: ready.d.session_id, seq: 999 } });
    await closesWith(second, 4007);
  });

  test('4008: more than 120 commands in 60 s; the window restarts on the clock', async () => {
    const calm = await connect();
    await calm.nextOp(10);
    for (let i = 0; i < 120; i++) calm.send({ op: 1, d: null });
    await calm.next(() => calm.payloads.filter((p) => p.op === 11).length === 120, '120 ACKs');
    clock += 60_000;
    for (let i = 0; i < 120; i++) calm.send({ op: 1, d: null });
    await calm.next(() => calm.payloads.filter((p) => p.op === 11).length === 240, '240 ACKs');
    assert.equal(calm.closed, null);
    const client = await connect();
    await client.nextOp(10);
    for (let i = 0; i < 121; i++) client.send({ op: 1, d: null });
    await closesWith(client, 4008);
  });

  test('4009: no heartbeat for 1.5 intervals, on the injected clock', async () => {
    const client = await connect();
    await client.login(OTHER_BOT_TOKEN);
    const beating = await connect();
    await beating.nextOp(10);
    clock += HEARTBEAT_INTERVAL_MS;
    beating.send({ op: 1, d: null });
    await beating.nextOp(11);
    server.slashd.gateway.sweep();
    assert.equal(client.closed, null, 'one interval is within the allowance');
    clock += HEARTBEAT_INTERVAL_MS;
    server.slashd.gateway.sweep();
    await closesWith(client, 4009);
    assert.equal(beating.closed, null, 'the connection that heartbeated stays');
  });

  test('a connection late by an interval is asked for a heartbeat (op 1); answering keeps it open', async () => {
    const client = await connect();
    await client.login(OTHER_BOT_TOKEN);
    const last = await client.nextDispatch('GUILD_CREATE');
    clock += HEARTBEAT_INTERVAL_MS + 1;
    server.slashd.gateway.sweep();
    assert.deepEqual(await client.nextOp(1), { op: 1, d: last.s, s: null, t: null });
    client.send({ op: 1, d: last.s });
    await client.nextOp(11);
    clock += HEARTBEAT_INTERVAL_MS / 2 + 1;
    server.slashd.gateway.sweep();
    client.send({ op: 1, d: last.s });
    await client.nextOp(11);
    assert.equal(client.closed, null);
  });

  test('4010: a shard id outside the shard count', async () => {
    for (const shard of [[2, 2], [-1, 2], [0, 0], [0]]) {
      const client = await connect();
      await client.nextOp(10);
      client.identify(OTHER_BOT_TOKEN, 1, { shard });
      await closesWith(client, 4010);
    }
  });

  test('4011: more guilds on one shard than allowed; enough shards log in', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.identify(DEMO_BOT_TOKEN);
    await closesWith(client, 4011);
    // Both demo guilds are on shard 0 of 2 as well; a guild-less shard is fine.
    const shard1 = await connect();
    const ready = await shard1.login(DEMO_BOT_TOKEN, 1, { shard: [1, 2] });
    assert.deepEqual(ready.d.guilds, []);
  });

  test('4012: a gateway version other than 9 or 10', async () => {
    const client = await connect('?v=8&encoding=json');
    await closesWith(client, 4012);
    const fine = await connect('?v=9&encoding=json');
    await fine.nextOp(10);
  });

  test('4013: intents with unknown bits, or none given', async () => {
    for (const intents of [1 << 30, -1, 1.5, 'abc', null]) {
      const client = await connect();
      await client.nextOp(10);
      client.identify(OTHER_BOT_TOKEN, intents as number);
      await closesWith(client, 4013);
    }
  });

  test('4014: privileged intents without the app’s flag', async () => {
    for (const intents of [GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT]) {
      const client = await connect();
      await client.nextOp(10);
      client.identify(OTHER_BOT_TOKEN, intents);
      await closesWith(client, 4014);
    }
  });

  test('an upgrade on another path is refused', async () => {
    await assert.rejects(GatewayClient.connect(`${server.url}/api/v10`), /HTTP 404/);
  });
});
