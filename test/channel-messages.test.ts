/**
 * A bot's own messages over real HTTP: `POST /channels/{id}/messages` with VIEW_CHANNEL and
 * SEND_MESSAGES checked and the message rules of interaction answers, reading one message and
 * pages of them (`limit`, `before`, `after`, `around`), editing and deleting its own; every change
 * published as a v10 MESSAGE_CREATE / UPDATE / DELETE on the bus, as are interaction answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BusEvents } from '../src/events/bus.js';
import type { World } from '../src/core/world/types.js';
import { startRegisteredApp, type AppServer } from './helpers/app-server.js';
import { assertMatchesSchema, withSchemaChecks } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  ANNOUNCEMENTS,
  BOT,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE as HELLO,
  HIDDEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  THREAD,
  exampleWorld,
} from './helpers/world.js';
import type { Json } from './helpers/json.js';
import { invocationBody } from './helpers/invocation.js';

type Dispatch = BusEvents['WORLD_DISPATCH'];

function messagesWorld(): World {
  const world = exampleWorld();
  world.guilds[0]!.channels.push({
    id: HIDDEN,
    type: 0,
    name: 'hidden',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: '1024' }],
  });
  return world;
}

describe("a bot's channel messages", () => {
  let server: TestServer;
  const dispatched: Dispatch[] = [];
  before(async () => {
    server = withSchemaChecks(await startServer({ world: messagesWorld() }));
    server.slashd.bus.subscribe('WORLD_DISPATCH', (event) => dispatched.push(event));
  });
  after(async () => {
    await server.close();
  });

  async function send(body: unknown, channelId = GENERAL, auth = BOT) {
    return server.request('POST', `/channels/${channelId}/messages`, { auth, body });
  }

  async function list(query: string): Promise<string[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?${query}`, { auth: BOT });
    assert.equal(response.status, 200, response.text);
    for (const message of response.body) assertMatchesSchema('MessageResponse', message);
    return (response.body as Json[]).map((m) => m.id);
  }

  test('POST: the message as v10 returns it, and MESSAGE_CREATE with guild_id and member', async () => {
    const since = dispatched.length;
    const response = await send({ content: 'hello from the bot', embeds: [{ title: 'An embed' }], tts: false });
    assert.equal(response.status, 200, response.text);
    const message = response.body;
    assertMatchesSchema('MessageResponse', message);
    assert.equal(message.content, 'hello from the bot');
    assert.equal(message.channel_id, GENERAL);
    assert.equal(message.author.id, DEMO_APP_ID);
    assert.equal(message.author.bot, true);
    assert.equal(message.type, 0);
    assert.deepEqual(message.embeds, [{ type: 'rich', title: 'An embed' }]);
    // A bot's own message is no interaction answer and comes through no webhook.
    assert.equal(message.webhook_id, undefined);
    assert.equal(message.interaction_metadata, undefined);
    const events = dispatched.slice(since);
    assert.equal(events.length, 1);
    const event = events[0]!;
    assert.deepEqual(
      [event.t, event.guildId, event.channelId, event.recipientIds],
      ['MESSAGE_CREATE', TEST_GUILD_ID, GENERAL, []],
    );
    assert.equal(event.d.id, message.id);
    assert.equal(event.d.guild_id, TEST_GUILD_ID);
    assert.equal((event.d.member as Json).joined_at !== undefined, true);
    assert.equal((event.d.member as Json).user, undefined);

    // Readable at once, by the bot and by a member of the guild.
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${message.id}`, { auth: ALICE });
    assert.equal(read.status, 200, read.text);
    assertMatchesSchema('MessageResponse', read.body);
    assert.equal(read.body.content, 'hello from the bot');
  });

  test('POST in a thread needs SEND_MESSAGES_IN_THREADS; the @everyone bits here lack it', async () => {
    const response = await send({ content: 'x' }, THREAD);
    assert.equal(response.status, 403, response.text);
    assert.equal(response.body.code, 50013);
  });

  test('POST refusals: unknown channel, no VIEW_CHANNEL, no SEND_MESSAGES, another app, a category, no token', async () => {
    const cases: [string, string, number, number][] = [
      ['1', BOT, 404, 10003],
      [HIDDEN, BOT, 403, 50001],
      [ANNOUNCEMENTS, BOT, 403, 50013],
      [GENERAL, `Bot ${OTHER_BOT_TOKEN}`, 403, 50001],
      [CATEGORY, BOT, 400, 50008],
    ];
    for (const [channelId, auth, status, code] of cases) {
      const response = await send({ content: 'x' }, channelId, auth);
      assert.equal(response.status, status, `${channelId}: ${response.text}`);
      assert.equal(response.body.code, code, `${channelId}: ${response.text}`);
    }
    const anonymous = await server.request('POST', `/channels/${GENERAL}/messages`, { body: { content: 'x' } });
    assert.equal(anonymous.status, 401);
  });

  test('POST bodies: empty (50006), ephemeral flag, too long, a bad embed: 50035 at the field', async () => {
    const empty = await send({});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 50006);
    const ephemeral = await send({ content: 'x', flags: 64 });
    assert.equal(ephemeral.status, 400);
    assert.ok(ephemeral.body.errors.flags._errors.length > 0, ephemeral.text);
    const long = await send({ content: 'x'.repeat(2001) });
    assert.equal(long.status, 400);
    assert.ok(long.body.errors.content._errors.length > 0, long.text);
    const embed = await send({ embeds: [{ title: 5 }] });
    assert.equal(embed.status, 400);
    assert.ok(embed.body.errors.embeds['0'].title._errors.length > 0, embed.text);
    const notObject = await send([1, 2]);
    assert.equal(notObject.status, 400);
  });

  test('GET a page: limit, before, after, around; newest first; bounded parameters', async () => {
    const ids: string[] = [];
    for (const content of ['one', 'two', 'three']) ids.push((await send({ content })).body.id);
    const [one, two, three] = ids as [string, string, string];
    assert.deepEqual(await list('limit=2'), [three, two]);
    assert.deepEqual(await list(`limit=2&before=${three}`), [two, one]);
    const afterHello = await list(`limit=2&after=${HELLO}`);
    assert.equal(afterHello.length, 2);
    assert.ok(!afterHello.includes(HELLO));
    assert.deepEqual(await list(`limit=3&around=${two}`), [three, two, one]);
    assert.deepEqual((await list(`before=${one}`)).at(-1), HELLO);
    assert.deepEqual(await list(`limit=1&after=${three}`), []);
    for (const query of ['limit=101', 'limit=0', 'before=x', 'around=-5']) {
      const response = await server.request('GET', `/channels/${GENERAL}/messages?${query}`, { auth: BOT });
      assert.equal(response.status, 400, query);
      assert.equal(response.body.code, 50035, query);
      assert.ok(response.body.errors[query.split('=')[0]!], response.text);
    }
  });

  test('GET one message: 10008 for an unknown one; a world message; READ_MESSAGE_HISTORY needed', async () => {
    const hello = await server.request('GET', `/channels/${GENERAL}/messages/${HELLO}`, { auth: BOT });
    assert.equal(hello.status, 200, hello.text);
    assert.equal(hello.body.content, 'hello world');
    const unknown = await server.request('GET', `/channels/${GENERAL}/messages/1`, { auth: BOT });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 10008);
    const hidden = await server.request('GET', `/channels/${HIDDEN}/messages/1`, { auth: BOT });
    assert.equal(hidden.status, 403);
    assert.equal(hidden.body.code, 50001);
  });

  test('PATCH and DELETE: only its own messages, each published', async () => {
    const sent = (await send({ content: 'before' })).body;
    const since = dispatched.length;
    const edited = await server.request('PATCH', `/channels/${GENERAL}/messages/${sent.id}`, {
      auth: BOT,
      body: { content: 'after' },
    });
    assert.equal(edited.status, 200, edited.text);
    assertMatchesSchema('MessageResponse', edited.body);
    assert.equal(edited.body.content, 'after');
    assert.ok(edited.body.edited_timestamp);
    const others = await server.request('PATCH', `/channels/${GENERAL}/messages/${HELLO}`, {
      auth: BOT,
      body: { content: 'mine now' },
    });
    assert.equal(others.status, 403);
    assert.equal(others.body.code, 50005);
    const deleted = await server.request('DELETE', `/channels/${GENERAL}/messages/${sent.id}`, { auth: BOT });
    assert.equal(deleted.status, 204);
    const again = await server.request('DELETE', `/channels/${GENERAL}/messages/${sent.id}`, { auth: BOT });
    assert.equal(again.body.code, 10008);
    const notOwn = await server.request('DELETE', `/channels/${GENERAL}/messages/${HELLO}`, { auth: BOT });
    assert.equal(notOwn.status, 403);
    assert.equal(notOwn.body.code, 50013);
    const events = dispatched.slice(since);
    assert.deepEqual(
      events.map((e) => e.t),
      ['MESSAGE_UPDATE', 'MESSAGE_DELETE'],
    );
    assert.equal(events[0]!.d.content, 'after');
    assert.deepEqual(events[1]!.d, { id: sent.id, channel_id: GENERAL, guild_id: TEST_GUILD_ID });
  });
});

describe('interaction answers as MESSAGE_CREATE', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;
  const dispatched: Dispatch[] = [];
  before(async () => {
    server = await startServer();
    server.slashd.bus.subscribe('WORLD_DISPATCH', (event) => dispatched.push(event));
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    command = created.body;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function invoke(): Promise<void> {
    const response = await server.request('POST', '/interactions', { auth: ALICE, body: invocationBody(command) });
    assert.equal(response.status, 200, response.text);
  }

  test('a public answer is published with its interaction metadata; an ephemeral one is not', async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'pong' } } }));
    await invoke();
    const created = dispatched.filter((e) => e.t === 'MESSAGE_CREATE');
    assert.equal(created.length, 1);
    assert.equal(created[0]!.d.content, 'pong');
    assert.equal(created[0]!.channelId, GENERAL);
    assert.equal((created[0]!.d.interaction_metadata as Json).user.username, 'alice');
    app.handle(() => ({ inline: { type: 4, data: { content: 'secret', flags: 64 } } }));
    await invoke();
    assert.equal(dispatched.filter((e) => e.t === 'MESSAGE_CREATE').length, 1);
  });
});
