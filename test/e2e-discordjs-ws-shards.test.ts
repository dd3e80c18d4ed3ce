/**
 * @discordjs/core on @discordjs/ws with two shards, @discordjs/rest pointed at slashd: each shard
 * identifies with `[id, 2]`, and every event about a guild arrives on that guild's shard,
 * `(guild_id >> 22) % 2`, and on no other: READY lists the shard's guilds, GUILD_CREATE, an
 * INTERACTION_CREATE (answered through @discordjs/core's REST API), an
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE and a GUILD_ROLE_CREATE after an admin change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, GatewayDispatchEvents, GatewayIntentBits } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import type { World } from '../src/core/world/types.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';
import { THIRD_CHANNEL, THIRD_GUILD_ID } from './helpers/gateway-world.js';

type Json = any;

const SHARDS = 2;
const ALICE_PERMISSIONS = 'Bearer alice-perm-token';
/** The Test Guild's id shifted by one shard step (1 << 22): it lands on the other shard. */
const ODD_GUILD_ID = THIRD_GUILD_ID;
const ODD_CHANNEL_ID = THIRD_CHANNEL;

const shardOf = (guildId: string): number => Number((BigInt(guildId) >> 22n) % BigInt(SHARDS));

/** The example world plus a guild on the other shard, with the demo bot and alice in it. */
function shardedWorld(): World {
  const world = exampleWorld();
  world.guilds.push({
    id: ODD_GUILD_ID,
    name: 'Odd Guild',
    owner_id: ALICE_ID,
    preferred_locale: 'en-US',
    roles: [{ id: ODD_GUILD_ID, name: '@everyone', permissions: '2147552256' }],
    channels: [
      { id: ODD_CHANNEL_ID, type: 0, name: 'odd-general', nsfw: false, parent_id: null, permission_overwrites: [] },
    ],
    members: [{ user_id: ALICE_ID, roles: [], nick: null, joined_at: '2025-03-07T00:00:00.000Z' }],
    installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: '2147552256' }],
    messages: [],
  });
  return world;
}

interface Received {
  t: string;
  d: Json;
  shardId: number;
}

describe('@discordjs/core + @discordjs/ws with two shards against slashd', () => {
  let server: TestServer;
  let gateway: WebSocketManager;
  let client: Client;
  let command: Json;
  const dispatches = new Inbox<Received>((r) => `${r.t} on shard ${r.shardId}`);
  const answered = new Inbox<{ id: string; error: unknown }>();

  before(async () => {
    assert.equal(shardOf(TEST_GUILD_ID), 0);
    assert.equal(shardOf(ODD_GUILD_ID), 1);
    server = await startServer({ world: shardedWorld() });
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: { name: 'where', description: 'Which shard answers' },
    });
    assert.equal(created.status, 201, created.text);
    command = created.body;

    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    gateway = new WebSocketManager({
      token: DEMO_BOT_TOKEN,
      intents: GatewayIntentBits.Guilds,
      rest,
      shardCount: SHARDS,
    });
    client = new Client({ rest, gateway });
    gateway.on(WebSocketShardEvents.Dispatch, (payload, shardId) => {
      dispatches.push({ t: payload.t, d: payload.d, shardId });
    });
    client.on(GatewayDispatchEvents.InteractionCreate, ({ data, api, shardId }) => {
      api.interactions.reply(data.id, data.token, { content: `answered on shard ${shardId}` }).then(
        () => answered.push({ id: data.id, error: null }),
        (error: unknown) => answered.push({ id: data.id, error }),
      );
    });
    await gateway.connect();
  });

  after(async () => {
    await gateway?.destroy();
    await server?.close();
  });

  test('GET /gateway/bot recommends a shard count and the bot identifies two shards', async () => {
    const info = await server.request('GET', '/gateway/bot', { auth: BOT });
    assert.equal(info.status, 200, info.text);
    assert.ok(info.body.shards >= 1);
    const readies = await dispatches.findMany(SHARDS, (r) => r.t === 'READY', 'READY on each shard');
    assert.deepEqual(readies.map((r) => r.d.shard).sort(), [
      [0, 2],
      [1, 2],
    ]);
    for (const ready of readies) {
      assert.equal(ready.d.shard[0], ready.shardId, 'READY names the shard it arrives on');
    }
  });

  test("READY on each shard lists only that shard's guilds", async () => {
    const readies = await dispatches.findMany(SHARDS, (r) => r.t === 'READY', 'READY on each shard');
    for (const ready of readies) {
      const ids = (ready.d.guilds as Json[]).map((g) => g.id as string);
      for (const id of ids) assert.equal(shardOf(id), ready.shardId, `guild ${id} in READY of shard ${ready.shardId}`);
    }
    const all = readies.flatMap((r) => (r.d.guilds as Json[]).map((g) => g.id as string)).sort();
    assert.deepEqual(all, [TEST_GUILD_ID, ODD_GUILD_ID].sort());
  });

  test("each guild's GUILD_CREATE arrives on its shard, once", async () => {
    for (const guildId of [TEST_GUILD_ID, ODD_GUILD_ID]) {
      const create = await dispatches.find(
        (r) => r.t === 'GUILD_CREATE' && r.d.id === guildId,
        `GUILD_CREATE ${guildId}`,
      );
      assert.equal(create.shardId, shardOf(guildId), `GUILD_CREATE ${guildId} on shard ${shardOf(guildId)}`);
    }
    const creates = dispatches.all().filter((r) => r.t === 'GUILD_CREATE');
    assert.equal(creates.length, 2, 'no guild twice');
  });

  test("an interaction in each guild arrives on its guild's shard and is answered through @discordjs/core", async () => {
    for (const [guildId, channelId] of [
      [TEST_GUILD_ID, GENERAL],
      [ODD_GUILD_ID, ODD_CHANNEL_ID],
    ] as const) {
      const invoked = await server.request('POST', '/interactions', {
        auth: ALICE,
        body: invocationBody(command, { guildId: guildId, channelId: channelId }),
      });
      assert.equal(invoked.status, 200, invoked.text);
      const id = invoked.body.id as string;
      const created = await dispatches.find(
        (r) => r.t === 'INTERACTION_CREATE' && r.d.id === id,
        `INTERACTION_CREATE ${id}`,
      );
      assert.equal(created.shardId, shardOf(guildId));
      assert.equal(
        dispatches.all().filter((r) => r.t === 'INTERACTION_CREATE' && r.d.id === id).length,
        1,
        'on one shard only',
      );
      const done = await answered.find((a) => a.id === id, `the answer to ${id}`);
      assert.equal(done.error, null, String(done.error));
      const status = await server.request('GET', `/interactions/${id}`, { auth: ALICE });
      assert.deepEqual(status.body.response, {
        type: 4,
        data: { content: `answered on shard ${shardOf(guildId)}` },
      });
    }
  });

  test("a permissions PUT in the odd guild reaches that guild's shard only", async () => {
    const put = await server.request(
      'PUT',
      `/applications/${DEMO_APP_ID}/guilds/${ODD_GUILD_ID}/commands/${command.id}/permissions`,
      { auth: ALICE_PERMISSIONS, body: { permissions: [{ id: ALICE_ID, type: 2, permission: true }] } },
    );
    assert.equal(put.status, 200, put.text);
    const update = await dispatches.find(
      (r) => r.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE' && r.d.guild_id === ODD_GUILD_ID,
      'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
    );
    assert.equal(update.shardId, 1);
    assert.equal(update.d.id, command.id);
    assert.equal(
      dispatches.all().filter((r) => r.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE').length,
      1,
      'one dispatch, on one shard',
    );
  });

  test("a role created in each guild through the admin API arrives on the guild's shard", async () => {
    for (const guildId of [ODD_GUILD_ID, TEST_GUILD_ID]) {
      const roleId = (BigInt(guildId) + 77n).toString();
      const current = await server.request('GET', `${server.url}/admin/guilds/${guildId}`, {
        auth: `Bearer ${ADMIN_TOKEN}`,
      });
      assert.equal(current.status, 200, current.text);
      const put = await server.request('PUT', `${server.url}/admin/guilds/${guildId}`, {
        auth: `Bearer ${ADMIN_TOKEN}`,
        body: { ...current.body, roles: [...current.body.roles, { id: roleId, name: 'Sharded', permissions: '0' }] },
      });
      assert.equal(put.status, 200, put.text);
      const created = await dispatches.find(
        (r) => r.t === 'GUILD_ROLE_CREATE' && r.d.role?.id === roleId,
        `GUILD_ROLE_CREATE in ${guildId}`,
      );
      assert.equal(created.shardId, shardOf(guildId));
      assert.equal(created.d.guild_id, guildId);
    }
  });
});
