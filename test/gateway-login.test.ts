/**
 * The gateway's login path with a raw `ws` client: discovery, HELLO, IDENTIFY, READY and one
 * GUILD_CREATE per guild (shapes checked against the OpenAPI schemas), heartbeats and their ACKs,
 * INTERACTION_CREATE for an app without an interactions endpoint (and the interaction failing at
 * once when no session is connected), APPLICATION_COMMAND_PERMISSIONS_UPDATE, zlib-stream framing.
 */
import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { constants, inflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { NO_BOT_CONNECTED_DETAIL } from '../src/resources/interactions/delivery.js';
import { GatewayClient, GatewayClients } from './helpers/gateway-client.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import { invocationBody } from './helpers/invocation.js';
import type { Json } from './helpers/json.js';
import {
  ALICE_ID,
  ANNOUNCEMENTS,
  BOB_TOKEN as BOB,
  BOT,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  GENERAL,
  NSFW_LOUNGE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  THREAD,
} from './helpers/world.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;

describe('gateway login', () => {
  let server: TestServer;
  let ping: Json;
  const clients = new GatewayClients();

  before(async () => {
    server = await startServer({ config: { gateway: { failWithoutSession: true } } });
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    assert.equal(created.status, 201, created.text);
    ping = created.body;
  });

  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function connect(query?: string): Promise<GatewayClient> {
    return clients.connect(server.url, query);
  }

  function invoke(): Promise<Json> {
    return server.request('POST', '/interactions', { auth: BOB, body: invocationBody(ping) });
  }

  test('GET /gateway: the server’s own ws:// URL; /gateway/bot: shards and session_start_limit', async () => {
    const open = await server.request('GET', '/gateway');
    assert.equal(open.status, 200, open.text);
    assert.deepEqual(open.body, { url: server.url.replace('http://', 'ws://') });
    const bot = await server.request('GET', '/gateway/bot', { auth: BOT });
    assert.equal(bot.status, 200, bot.text);
    assert.equal(bot.body.url, server.url.replace('http://', 'ws://'));
    assert.equal(bot.body.shards, 1);
    assert.deepEqual(Object.keys(bot.body.session_start_limit).sort(), [
      'max_concurrency',
      'remaining',
      'reset_after',
      'total',
    ]);
    assert.equal(bot.body.session_start_limit.total, 1000);
    assert.equal(bot.body.session_start_limit.max_concurrency, 1);
    const anonymous = await server.request('GET', '/gateway/bot');
    assert.equal(anonymous.status, 401);
  });

  test('an interaction for an app with no connected session fails at once with its reason', async () => {
    const response = await invoke();
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'failed');
    const status = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(status.body.failure_reason, 'delivery_failure');
    assert.equal(status.body.failure_detail, NO_BOT_CONNECTED_DETAIL);
    assert.match(status.body.failure_detail, /^no bot is logged in with this app's token/);
  });

  test('HELLO, IDENTIFY, READY, then one GUILD_CREATE per guild the bot is in', async () => {
    const client = await connect();
    const hello = await client.nextOp(10);
    assert.deepEqual(hello, { op: 10, d: { heartbeat_interval: 41250 }, s: null, t: null });
    const before = (await server.request('GET', '/gateway/bot', { auth: BOT })).body;
    client.identify(DEMO_BOT_TOKEN, GUILDS | (1 << 9));
    const ready = await client.nextDispatch('READY');
    assert.equal(ready.s, 1);
    assert.equal(ready.d.v, 10);
    assert.equal(ready.d.user.id, DEMO_APP_ID);
    assert.equal(ready.d.user.bot, true);
    assertMatchesSchema('UserResponse', ready.d.user);
    assert.deepEqual(ready.d.guilds, [{ id: TEST_GUILD_ID, unavailable: true }]);
    assert.match(ready.d.session_id, /^[0-9a-f]{32}$/);
    assert.equal(ready.d.resume_gateway_url, server.url.replace('http://', 'ws://'));
    assert.deepEqual(ready.d.shard, [0, 1]);
    assert.deepEqual(ready.d.application, { id: DEMO_APP_ID, flags: 565248 });

    const guild = await client.nextDispatch('GUILD_CREATE');
    assert.equal(guild.s, 2);
    assertMatchesSchema('GuildResponse', guild.d);
    assert.equal(guild.d.id, TEST_GUILD_ID);
    assert.equal(guild.d.unavailable, false);
    assert.equal(guild.d.large, false);
    assert.equal(guild.d.member_count, 5, 'four members and the bot');
    assert.equal(typeof guild.d.joined_at, 'string');
    assert.equal(guild.d.roles.length, 4);
    for (const role of guild.d.roles) assertMatchesSchema('GuildRoleResponse', role);
    assert.deepEqual(
      guild.d.channels.map((c: Json) => c.id),
      [CATEGORY, GENERAL, NSFW_LOUNGE, ANNOUNCEMENTS],
    );
    for (const channel of guild.d.channels) assertMatchesSchema('GuildChannelResponse', channel);
    assert.deepEqual(
      guild.d.threads.map((c: Json) => c.id),
      [THREAD],
    );
    assertMatchesSchema('ThreadResponse', guild.d.threads[0]);
    assert.equal(guild.d.members.length, 1, 'without GUILD_MEMBERS only the bot itself');
    assertMatchesSchema('GuildMemberResponse', guild.d.members[0]);
    assert.equal(guild.d.members[0].user.id, DEMO_APP_ID);
    // Other App is installed in the second guild only: the demo bot never hears of it.
    assert.equal(
      client.payloads.some((p) => p.t === 'GUILD_CREATE' && p.d.id === SECOND_GUILD_ID),
      false,
    );
    const afterLogin = (await server.request('GET', '/gateway/bot', { auth: BOT })).body;
    assert.equal(afterLogin.session_start_limit.remaining, before.session_start_limit.remaining - 1);
  });

  test('with GUILD_MEMBERS (allowed by the app’s flag), a small guild’s members all come', async () => {
    // Other App has no GUILD_MEMBERS flag: grant it through the admin world API first.
    const world = await server.request('GET', `${server.url}/admin/world`, {
      headers: { authorization: `Bearer test-admin-token` },
    });
    assert.equal(world.status, 200, world.text);
    const app = (world.body.applications as Json[]).find((a) => a.id === OTHER_APP_ID)!;
    const put = await server.request('PUT', `${server.url}/admin/applications/${OTHER_APP_ID}`, {
      headers: { authorization: `Bearer test-admin-token` },
      body: { ...app, flags: 1 << 15 },
    });
    assert.ok(put.status < 300, put.text);
    const client = await connect();
    const ready = await client.login(OTHER_BOT_TOKEN, GUILDS | GUILD_MEMBERS);
    assert.deepEqual(ready.d.application, { id: OTHER_APP_ID, flags: 1 << 15 });
    const guild = await client.nextDispatch('GUILD_CREATE');
    assert.equal(guild.d.id, SECOND_GUILD_ID);
    assert.deepEqual(guild.d.members.map((m: Json) => m.user.id).sort(), [OTHER_APP_ID, ERIN_ID].sort());
  });

  test('a heartbeat is answered at once with op 11', async () => {
    const client = await connect();
    await client.nextOp(10);
    client.send({ op: 1, d: null });
    assert.deepEqual(await client.nextOp(11), { op: 11, d: null, s: null, t: null });
    client.identify(DEMO_BOT_TOKEN);
    await client.nextDispatch('READY');
    client.send({ op: 1, d: 1 });
    await client.nextOp(11);
  });

  test('INTERACTION_CREATE reaches one session, and the answer goes over HTTP', async () => {
    const client = await connect();
    await client.login(DEMO_BOT_TOKEN, GUILDS);
    const response = await invoke();
    assert.equal(response.body.state, 'pending');
    // Earlier tests' sessions of the app are still connected: one of them, whichever, gets it.
    const event = await Promise.any(clients.all.map((c) => c.nextDispatch('INTERACTION_CREATE')));
    assert.equal(event.d.id, response.body.id);
    assert.equal(event.d.guild_id, TEST_GUILD_ID);
    assert.equal(event.d.data.name, 'ping');
    const answered = await server.request('POST', `/interactions/${event.d.id}/${event.d.token}/callback`, {
      body: { type: 4, data: { content: 'pong' } },
    });
    assert.equal(answered.status, 204, answered.text);
    const status = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(status.body.response.data.content, 'pong');
    // Only one of the app's sessions gets each interaction.
    const receivers = clients.all.filter((c) =>
      c.payloads.some((p) => p.t === 'INTERACTION_CREATE' && p.d.id === event.d.id),
    );
    assert.equal(receivers.length, 1);
  });

  test('APPLICATION_COMMAND_PERMISSIONS_UPDATE after a permissions PUT, needing no intent', async () => {
    const client = await connect();
    await client.login(DEMO_BOT_TOKEN, 0);
    const put = await server.request(
      'PUT',
      `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${ping.id}/permissions`,
      {
        auth: 'Bearer alice-perm-token',
        body: { permissions: [{ id: ALICE_ID, type: 2, permission: true }] },
      },
    );
    assert.equal(put.status, 200, put.text);
    const event = await client.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.equal(event.d.id, ping.id);
    assert.equal(event.d.guild_id, TEST_GUILD_ID);
    assert.deepEqual(event.d.permissions, [{ id: ALICE_ID, type: 2, permission: true }]);
    assert.equal(client.payloads.filter((p) => p.t === 'GUILD_CREATE').length, 0, 'no GUILDS intent: no GUILD_CREATE');
  });

  test('zlib-stream: one zlib context, every payload ends in 00 00 ff ff and inflates in order', async () => {
    const client = await connect('?v=10&encoding=json&compress=zlib-stream');
    const ready = await client.login(DEMO_BOT_TOKEN, GUILDS);
    assert.equal(ready.d.user.id, DEMO_APP_ID);
    await client.nextDispatch('GUILD_CREATE');
    assert.ok(client.rawFrames.length >= 3);
    for (const frame of client.rawFrames) {
      assert.deepEqual([...frame.subarray(-4)], [0x00, 0x00, 0xff, 0xff]);
    }
    // The frames form one stream: their concatenation inflates to the three payloads in order.
    const text = inflateSync(Buffer.concat(client.rawFrames), { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    assert.ok(text.startsWith('{"op":10,'));
    assert.ok(text.includes('"t":"READY"'));
    // Later frames depend on the earlier ones' context: alone, the second frame does not inflate.
    assert.throws(() => inflateSync(client.rawFrames[1]!));
  });
});

describe('gateway transport', () => {
  test('permessage-deflate, when the client offers it, carries large payloads intact', async () => {
    const server = await startServer();
    try {
      const client = await GatewayClient.connect(server.url, '?v=10&encoding=json&compress=zlib-stream', {
        perMessageDeflate: true,
      });
      assert.match(client.ws.extensions, /permessage-deflate/);
      await client.login(DEMO_BOT_TOKEN, GUILDS);
      const guild = await client.nextDispatch('GUILD_CREATE');
      assert.ok(JSON.stringify(guild.d).length > 1024, 'large enough to be compressed');
      assert.equal(guild.d.id, TEST_GUILD_ID);
      client.drop();
    } finally {
      await server.close();
    }
  });
});

describe('gateway configuration', () => {
  test('a configured public URL is announced by discovery and READY', async () => {
    const server = await startServer({ config: { gateway: { publicUrl: 'wss://gateway.example.test' } } });
    try {
      assert.deepEqual((await server.request('GET', '/gateway')).body, { url: 'wss://gateway.example.test' });
      const bot = await server.request('GET', '/gateway/bot', { auth: BOT });
      assert.equal(bot.body.url, 'wss://gateway.example.test');
      const client = await GatewayClient.connect(server.url);
      const ready = await client.login(DEMO_BOT_TOKEN);
      assert.equal(ready.d.resume_gateway_url, 'wss://gateway.example.test');
      client.drop();
    } finally {
      await server.close();
    }
  });

  test('the announced URL is the bound address, whatever the Host; a malformed Host gets 421, a malformed upgrade URL 400', async () => {
    const server = await startServer();
    try {
      const { port } = new URL(server.url);
      const raw = (head: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = tcpConnect(Number(port), '127.0.0.1', () => socket.end(head));
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
      const ask = (host: string) => raw(`GET /api/v10/gateway HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      // A Host without a port used to give ws://127.0.0.1 (port 80): the bound address and port now.
      for (const host of ['127.0.0.1', 'localhost', `localhost:${port}`, '[::1]:9']) {
        assert.ok((await ask(host)).includes(`"url":"ws://127.0.0.1:${port}"`), host);
      }
      assert.match(await ask('evil.test/x?y'), /^HTTP\/1.1 421 /);
      const upgrade = await raw(
        'GET http://[ HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      assert.match(upgrade, /^HTTP\/1.1 400/);
      assert.equal((await server.request('GET', '/gateway')).status, 200, 'the node still serves');
    } finally {
      await server.close();
    }
  });

  test('past maxSessions identified connections, an upgrade is refused with 503', async () => {
    const server = await startServer({ config: { gateway: { maxSessions: 1 } } });
    try {
      const first = await GatewayClient.connect(server.url);
      await first.login(DEMO_BOT_TOKEN);
      await assert.rejects(GatewayClient.connect(server.url), /HTTP 503/);
      first.drop();
    } finally {
      await server.close();
    }
  });
});
