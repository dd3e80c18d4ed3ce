/**
 * READY as the core builds it (`core/gateway/ready.ts`, typed with discord-api-types) is READY as a
 * bot receives it over a real WebSocket, field for field: the gateway can send the builder's
 * payload without a change on the wire.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readyPayload } from '../src/core/gateway/ready.js';
import { GatewayClient } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, exampleWorld, SECOND_GUILD_ID, TEST_GUILD_ID } from './helpers/world.js';

const GUILDS = 1 << 0;

describe('READY', () => {
  let server: TestServer;
  const clients: GatewayClient[] = [];

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    for (const client of clients) client.drop();
    await server.close();
  });

  function demoApp() {
    const app = exampleWorld().applications.find((a) => a.id === DEMO_APP_ID);
    assert.ok(app, 'the demo app is in the example world');
    return app;
  }

  test('the builder’s payload is what the gateway sends', async () => {
    const client = await GatewayClient.connect(server.url);
    clients.push(client);
    const ready = await client.login(DEMO_BOT_TOKEN, GUILDS);
    const expected = readyPayload({
      app: demoApp(),
      sessionId: ready.d.session_id,
      resumeUrl: server.url.replace('http://', 'ws://'),
      shard: [0, 1],
      guildIds: [TEST_GUILD_ID],
    });
    assert.deepEqual(ready.d, JSON.parse(JSON.stringify(expected)));
  });

  test('one unavailable guild per id, in order, with the shard and the application', () => {
    const ready = readyPayload({
      app: demoApp(),
      sessionId: 'a'.repeat(32),
      resumeUrl: 'ws://example.test',
      shard: [1, 2],
      guildIds: [SECOND_GUILD_ID, TEST_GUILD_ID],
    });
    assert.deepEqual(ready.guilds, [
      { id: SECOND_GUILD_ID, unavailable: true },
      { id: TEST_GUILD_ID, unavailable: true },
    ]);
    assert.deepEqual(ready.shard, [1, 2]);
    assert.deepEqual(ready.application, { id: DEMO_APP_ID, flags: demoApp().flags });
    assert.equal(ready.user.id, DEMO_APP_ID);
    assert.equal(ready.user.bot, true);
  });
});
