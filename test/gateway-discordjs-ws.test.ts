/**
 * An unmodified @discordjs/ws WebSocketManager with 2 shards and zlib-stream, its REST pointed at
 * slashd: it discovers the gateway through /gateway/bot, each shard logs in, and each guild (its
 * GUILD_CREATE, its events, its interactions) arrives on the shard (guild_id >> 22) % 2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { GatewayDispatchEvents, GatewayIntentBits, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { THIRD_CHANNEL, THIRD_GUILD_ID, gatewayWorld } from './helpers/gateway-world.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';
import type { Json } from './helpers/json.js';

describe('@discordjs/ws with 2 shards', () => {
  let server: TestServer;
  let manager: WebSocketManager;
  const received: { shardId: number; payload: GatewayDispatchPayload }[] = [];
  const waiters: (() => void)[] = [];

  /** Resolves once a dispatch matching `match` has arrived (on any shard). */
  function arrival(match: (shardId: number, payload: Json) => boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error('no such dispatch')), 10_000);
      const check = () => {
        const found = received.find((r) => match(r.shardId, r.payload));
        if (!found) {
          waiters.push(check);
          return;
        }
        clearTimeout(limit);
        resolve(found.shardId);
      };
      check();
    });
  }

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    manager = new WebSocketManager({
      token: DEMO_BOT_TOKEN,
      intents: GatewayIntentBits.Guilds,
      rest,
      shardCount: 2,
      compression: CompressionMethod.ZlibNative,
      // The default throttler waits 5 s between identifies (max_concurrency 1); no test waits on time.
      buildIdentifyThrottler: () => ({ waitForIdentify: async () => undefined }),
    });
    manager.on(WebSocketShardEvents.Dispatch, (payload, shardId) => {
      received.push({ shardId, payload });
      for (const wake of waiters.splice(0)) wake();
    });
    await manager.connect();
  });

  after(async () => {
    await manager?.destroy();
    await server?.close();
  });

  test('each shard gets READY and the GUILD_CREATE of its own guilds', async () => {
    assert.equal(await arrival((_, p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID), 0);
    assert.equal(await arrival((_, p) => p.t === 'GUILD_CREATE' && p.d.id === THIRD_GUILD_ID), 1);
    const readies = received.filter((r) => r.payload.t === GatewayDispatchEvents.Ready);
    assert.deepEqual(readies.map((r) => r.shardId).sort(), [0, 1]);
    for (const ready of readies) {
      const d = ready.payload.d as Json;
      assert.deepEqual(d.shard, [ready.shardId, 2]);
      assert.equal(d.application.id, DEMO_APP_ID);
    }
    assert.equal(received.filter((r) => r.payload.t === GatewayDispatchEvents.GuildCreate).length, 2);
  });

  test('a guild’s events and interactions arrive on its shard', async () => {
    for (const [guildId, channelId, shard] of [
      [TEST_GUILD_ID, GENERAL, 0],
      [THIRD_GUILD_ID, THIRD_CHANNEL, 1],
    ] as const) {
      server.slashd.bus.publish('WORLD_DISPATCH', {
        t: 'CHANNEL_UPDATE',
        guildId,
        channelId,
        recipientIds: [],
        d: { id: channelId, guild_id: guildId },
      });
      assert.equal(await arrival((_, p) => p.t === 'CHANNEL_UPDATE' && p.d.id === channelId), shard);
      const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${guildId}/commands`, {
        auth: BOT,
        body: { name: 'where', description: 'Where' },
      });
      assert.equal(created.status, 201, created.text);
      const invoked = await server.request('POST', '/interactions', {
        auth: ALICE_TOKEN,
        body: invocationBody(created.body, { guildId: guildId, channelId: channelId }),
      });
      assert.equal(invoked.status, 200, invoked.text);
      assert.equal(await arrival((_, p) => p.t === 'INTERACTION_CREATE' && p.d.id === invoked.body.id), shard);
    }
    assert.equal(
      received.filter((r) => r.payload.t === GatewayDispatchEvents.InteractionCreate).length,
      2,
      'each exactly once',
    );
  });
});
