/**
 * Which session gets which dispatch: intents (GUILDS, GUILD_MEMBERS, GUILD_MESSAGES,
 * DIRECT_MESSAGES, MESSAGE_CONTENT emptying content unless mentioned or in a DM), the install
 * (a bot hears only of guilds it is in), VIEW_CHANNEL for channel events, shards
 * ((guild_id >> 22) % num_shards, DMs on shard 0, INTERACTION_CREATE on the guild's shard),
 * GUILD_CREATE/GUILD_DELETE on install and removal, and REQUEST_GUILD_MEMBERS.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GatewayClient } from './helpers/gateway-client.js';
import { GatewayClients, type Payload } from './helpers/gateway-client.js';
import { THIRD_CHANNEL, THIRD_GUILD_ID, gatewayWorld } from './helpers/gateway-world.js';
import { grantBotBits } from './helpers/guild-admin.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOB_ID,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  SECRET,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';
import type { Json } from './helpers/json.js';
import type { WorldDispatchName } from '../src/core/world/dispatch.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
const GUILD_INVITES = 1 << 6;
const GUILD_MESSAGES = 1 << 9;
const DIRECT_MESSAGES = 1 << 12;
const MESSAGE_CONTENT = 1 << 15;

function message(channelId: string, content: string, mentions: string[] = []): Json {
  return {
    id: '1400000000000000001',
    channel_id: channelId,
    author: { id: ALICE_ID, username: 'alice' },
    content,
    embeds: [{ title: 'e' }],
    attachments: [],
    components: [],
    mentions: mentions.map((id) => ({ id })),
  };
}

describe('gateway dispatch routing', () => {
  let server: TestServer;
  const clients = new GatewayClients();
  /** Demo bot, GUILDS only. */
  let guildsOnly: GatewayClient;
  /** Demo bot, GUILDS and GUILD_MESSAGES, without MESSAGE_CONTENT. */
  let messages: GatewayClient;
  /** Other App: GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT (its flags allow them). */
  let full: GatewayClient;
  /** Demo bot, DIRECT_MESSAGES only. */
  let dms: GatewayClient;
  let marker = 0;

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    guildsOnly = await connect();
    await guildsOnly.login(DEMO_BOT_TOKEN, GUILDS);
    messages = await connect();
    await messages.login(DEMO_BOT_TOKEN, GUILDS | GUILD_MESSAGES);
    full = await connect();
    await full.login(OTHER_BOT_TOKEN, GUILDS | GUILD_MEMBERS | GUILD_MESSAGES | MESSAGE_CONTENT);
    dms = await connect();
    await dms.login(DEMO_BOT_TOKEN, DIRECT_MESSAGES);
  });

  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function connect(): Promise<GatewayClient> {
    return clients.connect(server.url);
  }

  function publish(
    t: WorldDispatchName,
    guildId: string | null,
    channelId: string | null,
    d: Json,
    recipientIds: string[] = [],
  ) {
    server.slashd.bus.publish('WORLD_DISPATCH', { t, guildId, channelId, recipientIds, d });
  }

  /**
   * Publishes `events`, then a marker every session of the test guild gets; once each client has
   * the marker, everything published before it has arrived too (a socket keeps order).
   */
  async function deliveries(events: () => void): Promise<Map<GatewayClient, Payload[]>> {
    const starts = new Map(clients.all.map((c) => [c, c.payloads.length]));
    events();
    const name = `marker-${++marker}`;
    publish('GUILD_UPDATE', TEST_GUILD_ID, null, { id: TEST_GUILD_ID, name });
    publish('MESSAGE_CREATE', null, '1', message('1', name), [DEMO_APP_ID]);
    const out = new Map<GatewayClient, Payload[]>();
    for (const client of [guildsOnly, messages, full, dms]) {
      const isMarker = (p: Payload) =>
        (p.t === 'GUILD_UPDATE' || p.t === 'MESSAGE_CREATE') && (p.d.name === name || p.d.content === name);
      await client.next(isMarker, name);
      out.set(
        client,
        client.payloads.slice(starts.get(client)).filter((p) => p.op === 0 && !isMarker(p)),
      );
    }
    return out;
  }

  test('message events: GUILD_MESSAGES needed; content emptied without MESSAGE_CONTENT', async () => {
    const got = await deliveries(() => publish('MESSAGE_CREATE', TEST_GUILD_ID, GENERAL, message(GENERAL, 'hi')));
    assert.equal(got.get(guildsOnly)!.length, 0);
    assert.equal(got.get(dms)!.length, 0, 'DIRECT_MESSAGES is not GUILD_MESSAGES');
    const stripped = got.get(messages)!;
    assert.equal(stripped.length, 1);
    assert.equal(stripped[0]!.d.content, '');
    assert.deepEqual(stripped[0]!.d.embeds, []);
    const kept = got.get(full)!;
    assert.equal(kept[0]!.d.content, 'hi');
    assert.equal(kept[0]!.d.embeds.length, 1);
  });

  test('a message that mentions the bot keeps its content', async () => {
    const got = await deliveries(() =>
      publish('MESSAGE_CREATE', TEST_GUILD_ID, GENERAL, message(GENERAL, 'hey bot', [DEMO_APP_ID])),
    );
    assert.equal(got.get(messages)![0]!.d.content, 'hey bot');
  });

  test('MESSAGE_DELETE_BULK: GUILD_MESSAGES and VIEW_CHANNEL needed, the ids as they were', async () => {
    const d = (channelId: string) => ({ ids: ['5', '6'], channel_id: channelId, guild_id: TEST_GUILD_ID });
    const got = await deliveries(() => {
      publish('MESSAGE_DELETE_BULK', TEST_GUILD_ID, GENERAL, d(GENERAL));
      publish('MESSAGE_DELETE_BULK', TEST_GUILD_ID, SECRET, d(SECRET));
    });
    assert.equal(got.get(guildsOnly)!.length, 0);
    assert.equal(got.get(dms)!.length, 0);
    for (const client of [messages, full]) {
      assert.deepEqual(
        got.get(client)!.map((p) => [p.t, p.d]),
        [['MESSAGE_DELETE_BULK', d(GENERAL)]],
      );
    }
  });

  test('a DM goes to its recipient bots with DIRECT_MESSAGES, content kept', async () => {
    const got = await deliveries(() =>
      publish('MESSAGE_CREATE', null, '77', message('77', 'psst'), [ALICE_ID, DEMO_APP_ID]),
    );
    assert.deepEqual(
      got.get(dms)!.map((p) => p.d.content),
      ['psst'],
    );
    assert.equal(got.get(messages)!.length, 0);
    assert.equal(got.get(full)!.length, 0, 'Other App is no recipient');
  });

  test('WEBHOOKS_UPDATE needs GUILD_WEBHOOKS: none of these sessions asked for it', async () => {
    const got = await deliveries(() =>
      publish('WEBHOOKS_UPDATE', TEST_GUILD_ID, GENERAL, { guild_id: TEST_GUILD_ID, channel_id: GENERAL }),
    );
    for (const client of [guildsOnly, messages, full, dms]) assert.deepEqual(got.get(client), []);
  });

  test('USER_UPDATE goes to every session of its bot, whatever their intents, and to no other bot', async () => {
    const got = await deliveries(() =>
      publish('USER_UPDATE', null, null, { id: DEMO_APP_ID, username: 'Renamed', bot: true }, [DEMO_APP_ID]),
    );
    for (const client of [guildsOnly, messages, dms]) {
      assert.deepEqual(
        got.get(client)!.map((p) => p.t),
        ['USER_UPDATE'],
      );
    }
    assert.deepEqual(got.get(full), [], 'Other App is not told');
  });

  test('channel events need VIEW_CHANNEL on the channel', async () => {
    const got = await deliveries(() => {
      publish('CHANNEL_UPDATE', TEST_GUILD_ID, GENERAL, { id: GENERAL, name: 'general' });
      publish('CHANNEL_UPDATE', TEST_GUILD_ID, SECRET, { id: SECRET, name: 'secret' });
      publish('MESSAGE_CREATE', TEST_GUILD_ID, SECRET, message(SECRET, 'hidden'));
    });
    for (const client of [guildsOnly, messages, full]) {
      assert.deepEqual(
        got.get(client)!.map((p) => p.d.id),
        [GENERAL],
      );
    }
  });

  test('member events need GUILD_MEMBERS; a bot hears only of guilds it is in', async () => {
    const got = await deliveries(() => {
      publish('GUILD_MEMBER_ADD', TEST_GUILD_ID, null, { guild_id: TEST_GUILD_ID, user: { id: BOB_ID } });
      publish('GUILD_ROLE_CREATE', SECOND_GUILD_ID, null, { guild_id: SECOND_GUILD_ID, role: { id: '5' } });
    });
    assert.deepEqual(
      got.get(full)!.map((p) => p.t),
      ['GUILD_MEMBER_ADD', 'GUILD_ROLE_CREATE'],
    );
    assert.equal(got.get(guildsOnly)!.length, 0);
    assert.equal(got.get(messages)!.length, 0);
  });

  test('GUILD_CREATE when the app is installed, GUILD_DELETE when removed', async () => {
    const got = await deliveries(() => {
      server.slashd.bus.publish('APPLICATION_GUILD', {
        applicationId: OTHER_APP_ID,
        guildId: SECOND_GUILD_ID,
        installed: true,
      });
      server.slashd.bus.publish('APPLICATION_GUILD', {
        applicationId: OTHER_APP_ID,
        guildId: SECOND_GUILD_ID,
        installed: false,
      });
    });
    const events = got.get(full)!;
    assert.deepEqual(
      events.map((p) => p.t),
      ['GUILD_CREATE', 'GUILD_DELETE'],
    );
    assertMatchesSchema('GuildResponse', events[0]!.d);
    assert.deepEqual(events[1]!.d, { id: SECOND_GUILD_ID });
    assert.equal(got.get(guildsOnly)!.length, 0);
  });

  test('REQUEST_GUILD_MEMBERS: by query prefix, by user ids (not_found), nonce echoed', async () => {
    full.send({ op: 8, d: { guild_id: TEST_GUILD_ID, query: 'bo', limit: 10, nonce: 'n1' } });
    const byQuery = await full.nextDispatch('GUILD_MEMBERS_CHUNK');
    assert.equal(byQuery.d.nonce, 'n1');
    assert.deepEqual(
      byQuery.d.members.map((m: Json) => m.user.id),
      [BOB_ID],
    );
    assertMatchesSchema('GuildMemberResponse', byQuery.d.members[0]);
    assert.equal(byQuery.d.chunk_index, 0);
    assert.equal(byQuery.d.chunk_count, 1);
    const unknown = '1335036896870409999';
    full.send({ op: 8, d: { guild_id: TEST_GUILD_ID, user_ids: [ALICE_ID, unknown], nonce: 'n2' } });
    const byIds = await full.nextDispatch('GUILD_MEMBERS_CHUNK');
    assert.deepEqual(
      byIds.d.members.map((m: Json) => m.user.id),
      [ALICE_ID],
    );
    assert.deepEqual(byIds.d.not_found, [unknown]);
    // The whole list: the users and the bots (Other App's too, installed by gatewayWorld), as in
    // GUILD_CREATE and GET /guilds/{id}/members, in ascending id order.
    full.send({ op: 8, d: { guild_id: TEST_GUILD_ID, query: '', limit: 0 } });
    const all = await full.nextDispatch('GUILD_MEMBERS_CHUNK');
    const ids: string[] = all.d.members.map((m: Json) => m.user.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    for (const id of [DEMO_APP_ID, ALICE_ID, BOB_ID]) assert.ok(ids.includes(id), id);
    assert.equal(all.d.members.find((m: Json) => m.user.id === DEMO_APP_ID).user.bot, true);
    for (const member of all.d.members) assertMatchesSchema('GuildMemberResponse', member);
    // Without GUILD_MEMBERS the whole list is not given.
    guildsOnly.send({ op: 8, d: { guild_id: TEST_GUILD_ID, query: '', limit: 0 } });
    assert.equal((await guildsOnly.nextDispatch('GUILD_MEMBERS_CHUNK')).d.members.length, 0);
  });

  // Last: it gives the demo bot MANAGE_CHANNELS.
  test('invite events need GUILD_INVITES and MANAGE_CHANNELS in the channel', async () => {
    const invites = await connect();
    await invites.login(DEMO_BOT_TOKEN, GUILDS | GUILD_INVITES);
    const invite = (code: string) => ({ channel_id: GENERAL, guild_id: TEST_GUILD_ID, code });
    const inviteEvents = async (client: GatewayClient, code: string) => {
      const name = `invite-marker-${code}`;
      const start = client.payloads.length;
      publish('INVITE_CREATE', TEST_GUILD_ID, GENERAL, { ...invite(code), uses: 0, max_age: 0, max_uses: 0 });
      publish('INVITE_DELETE', TEST_GUILD_ID, SECRET, invite(`${code}-hidden`));
      publish('GUILD_UPDATE', TEST_GUILD_ID, null, { id: TEST_GUILD_ID, name });
      await client.next((p) => p.t === 'GUILD_UPDATE' && p.d.name === name, name);
      return client.payloads
        .slice(start)
        .filter((p) => p.op === 0 && p.t !== 'GUILD_UPDATE')
        .map((p) => p.d.code);
    };
    assert.deepEqual(await inviteEvents(invites, 'before'), [], 'no MANAGE_CHANNELS');
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, 1n << 4n);
    assert.deepEqual(
      await inviteEvents(invites, 'after'),
      ['after'],
      'MANAGE_CHANNELS, and VIEW_CHANNEL for SECRET lacking',
    );
    assert.deepEqual(await inviteEvents(guildsOnly, 'intent'), [], 'without GUILD_INVITES');
  });
});

describe('gateway shards', () => {
  let server: TestServer;
  const clients = new GatewayClients();

  before(async () => {
    server = await startServer({ world: gatewayWorld(), config: { gateway: { failWithoutSession: true } } });
  });

  after(async () => {
    clients.dropAll();
    await server.close();
  });

  async function shard(id: number, count: number): Promise<{ client: GatewayClient; ready: Payload }> {
    const client = await clients.connect(server.url);
    const ready = await client.login(DEMO_BOT_TOKEN, GUILDS | DIRECT_MESSAGES, { shard: [id, count] });
    return { client, ready };
  }

  async function invokeIn(guildId: string, channelId: string): Promise<Json> {
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${guildId}/commands`, {
      auth: BOT,
      body: { name: 'where', description: 'Where' },
    });
    assert.ok(created.status === 201 || created.status === 200, created.text);
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody(created.body, { guildId: guildId, channelId: channelId }),
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('/gateway/bot recommends one shard per 1,000 guilds', async () => {
    const bot = await server.request('GET', '/gateway/bot', { auth: BOT });
    assert.equal(bot.body.shards, 1);
  });

  test('each guild, its events and its interactions go to shard (guild_id >> 22) % 2; DMs to 0', async () => {
    // Only shard 1 is up: the test guild's shard (0) has no session, so its interaction fails.
    const one = await shard(1, 2);
    assert.deepEqual(
      one.ready.d.guilds.map((g: Json) => g.id),
      [THIRD_GUILD_ID],
    );
    assert.equal((await one.client.nextDispatch('GUILD_CREATE')).d.id, THIRD_GUILD_ID);
    assert.equal((await invokeIn(TEST_GUILD_ID, GENERAL)).state, 'failed');

    const zero = await shard(0, 2);
    assert.deepEqual(
      zero.ready.d.guilds.map((g: Json) => g.id),
      [TEST_GUILD_ID],
    );
    assert.equal((await zero.client.nextDispatch('GUILD_CREATE')).d.id, TEST_GUILD_ID);

    const third = await invokeIn(THIRD_GUILD_ID, THIRD_CHANNEL);
    assert.equal(third.state, 'pending');
    assert.equal((await one.client.nextDispatch('INTERACTION_CREATE')).d.id, third.id);
    const test = await invokeIn(TEST_GUILD_ID, GENERAL);
    assert.equal((await zero.client.nextDispatch('INTERACTION_CREATE')).d.id, test.id);

    server.slashd.bus.publish('WORLD_DISPATCH', {
      t: 'GUILD_UPDATE',
      guildId: THIRD_GUILD_ID,
      channelId: null,
      recipientIds: [],
      d: { id: THIRD_GUILD_ID },
    });
    server.slashd.bus.publish('WORLD_DISPATCH', {
      t: 'MESSAGE_CREATE',
      guildId: null,
      channelId: '9',
      recipientIds: [DEMO_APP_ID],
      d: message('9', 'dm'),
    });
    assert.equal((await one.client.nextDispatch('GUILD_UPDATE')).d.id, THIRD_GUILD_ID);
    assert.equal((await zero.client.nextDispatch('MESSAGE_CREATE')).d.content, 'dm');
    await server.slashd.gateway.settled();
    assert.equal(
      zero.client.payloads.some((p) => p.t === 'GUILD_UPDATE' || (p.t === 'INTERACTION_CREATE' && p.d.id === third.id)),
      false,
    );
    assert.equal(
      one.client.payloads.some((p) => p.t === 'MESSAGE_CREATE' || (p.t === 'INTERACTION_CREATE' && p.d.id === test.id)),
      false,
    );
  });
});
