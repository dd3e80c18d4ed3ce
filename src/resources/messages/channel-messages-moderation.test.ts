/**
 * Moderating messages (issue 24 item 6): a discord.js bot with MANAGE_MESSAGES (an administrator
 * bot here) deletes a user's message (`message.delete()`) and bulk deletes (`channel.bulkDelete`),
 * and what a user then reads and what another bot receives (MESSAGE_DELETE, MESSAGE_DELETE_BULK)
 * show it. Refusals are v10's: a bot without MANAGE_MESSAGES 50013, a 15-day-old id 50034 (nothing
 * deleted), fewer than 2, more than 100 or repeated ids 50035 at `messages`; users delete their own
 * messages, and another's only with MANAGE_MESSAGES.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, DiscordAPIError, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { SNOWFLAKE_EPOCH_MS } from '../../core/snowflake.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { GENERAL } from '../../../test/helpers/world.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  HELLO_MESSAGE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Raw = { t: string | null; d: any };
const DAY_MS = 24 * 60 * 60 * 1000;

/** The gateway world with the demo bot installed as an administrator (which includes MANAGE_MESSAGES). */
function moderationWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = '8';
  return world;
}

/** A snowflake of a message sent `ageMs` ago. */
function idOfAge(ageMs: number): string {
  return ((BigInt(Date.now() - ageMs) - SNOWFLAKE_EPOCH_MS) << 22n).toString();
}

describe('moderating messages: MANAGE_MESSAGES, bulk delete and MESSAGE_DELETE_BULK', () => {
  let server: TestServer;
  let moderator: Client;
  let watcher: Client;
  const raw = new Inbox<Raw>((p) => String(p.t));
  const bulkEvents = new Inbox<string[]>((ids) => ids.join(','));

  before(async () => {
    server = await startServer({ world: moderationWorld() });
    watcher = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      rest: { api: `${server.url}/api` },
    });
    watcher.on(Events.Raw, (packet: Raw) => raw.push(packet));
    watcher.on(Events.MessageBulkDelete, (messages) => bulkEvents.push([...messages.keys()]));
    const ready = new Inbox<string>();
    watcher.once(Events.ClientReady, () => ready.push('ready'));
    await watcher.login(OTHER_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    // The moderating bot speaks REST only, as one handling an interaction does.
    moderator = new Client({ intents: [], rest: { api: `${server.url}/api` } });
    moderator.token = DEMO_BOT_TOKEN;
    moderator.rest.setToken(DEMO_BOT_TOKEN);
    await moderator.guilds.fetch(TEST_GUILD_ID);
  });
  after(async () => {
    await Promise.all([moderator?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  async function userPosts(token: string, content: string): Promise<string> {
    const response = await server.request('POST', `/channels/${GENERAL}/messages`, { auth: token, body: { content } });
    assert.equal(response.status, 200, response.text);
    return response.body.id as string;
  }

  async function channelOf(client: Client): Promise<TextChannel> {
    return (await client.channels.fetch(GENERAL, { force: true })) as TextChannel;
  }

  async function userReads(id: string): Promise<number> {
    return (await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE_TOKEN })).status;
  }

  async function apiError(promise: Promise<unknown>): Promise<DiscordAPIError> {
    const error = await promise.then(
      () => assert.fail('the request succeeded'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DiscordAPIError, String(error));
    return error;
  }

  test("discord.js message.delete() of a user's message: gone for the user, MESSAGE_DELETE to the other bot", async () => {
    const id = await userPosts(CAROL_TOKEN, 'spam from carol');
    const message: Message = await (await channelOf(moderator)).messages.fetch(id);
    assert.equal(message.author.id, CAROL_ID);
    await message.delete();
    assert.equal(await userReads(id), 404);
    const event = await raw.find((p) => p.t === 'MESSAGE_DELETE' && p.d.id === id, 'MESSAGE_DELETE');
    assert.deepEqual(event.d, { id, channel_id: GENERAL, guild_id: TEST_GUILD_ID });
  });

  test('discord.js channel.bulkDelete([...]): every message gone, one MESSAGE_DELETE_BULK with their ids', async () => {
    const ids = [
      await userPosts(CAROL_TOKEN, 'one'),
      await userPosts(BOB_TOKEN, 'two'),
      await userPosts(ALICE_TOKEN, 'three'),
    ];
    const botsOwn = (await (await channelOf(moderator)).send('and the bot')).id;
    ids.push(botsOwn);
    const unknown = idOfAge(DAY_MS);
    const deleted = await (await channelOf(moderator)).bulkDelete([...ids, unknown]);
    assert.deepEqual([...deleted.keys()].sort(), [...ids, unknown].sort(), 'discord.js reports the ids it sent');
    for (const id of ids) assert.equal(await userReads(id), 404, id);
    const listed = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE_TOKEN });
    assert.deepEqual(
      (listed.body as { id: string }[]).filter((m) => ids.includes(m.id)),
      [],
    );
    const event = await raw.find((p) => p.t === 'MESSAGE_DELETE_BULK', 'MESSAGE_DELETE_BULK');
    assert.deepEqual(event.d, { ids, channel_id: GENERAL, guild_id: TEST_GUILD_ID }, 'the unknown id is skipped');
    assert.deepEqual(await bulkEvents.find((got) => got.length === ids.length, 'messageDeleteBulk'), ids);
  });

  test('a bot without MANAGE_MESSAGES: 403 50013 for bulkDelete and for deleting a user message', async () => {
    const ids = [await userPosts(CAROL_TOKEN, 'keep me'), await userPosts(CAROL_TOKEN, 'and me')];
    const channel = await channelOf(watcher);
    const bulk = await apiError(channel.bulkDelete(ids));
    assert.deepEqual([bulk.status, bulk.code, bulk.message], [403, 50013, 'Missing Permissions']);
    const single = await apiError(channel.messages.delete(ids[0]!));
    assert.deepEqual([single.status, single.code], [403, 50013]);
    for (const id of ids) assert.equal(await userReads(id), 200);
  });

  test('a 15-day-old id: 400 50034 and nothing deleted', async () => {
    const fresh = await userPosts(CAROL_TOKEN, 'fresh');
    const error = await apiError((await channelOf(moderator)).bulkDelete([fresh, idOfAge(15 * DAY_MS)]));
    assert.deepEqual(
      [error.status, error.code, error.message],
      [400, 50034, 'You can only bulk delete messages that are under 14 days old'],
    );
    assert.equal(await userReads(fresh), 200);
  });

  test('bounds of the body: 50035 at messages (fewer than 2, more than 100, a repeated id, not ids)', async () => {
    const id = idOfAge(DAY_MS);
    const many = Array.from({ length: 101 }, (_, i) => (BigInt(id) + BigInt(i)).toString());
    const cases: [unknown, string[], string][] = [
      [{ messages: [id] }, ['messages'], 'BASE_TYPE_MIN_LENGTH'],
      [{ messages: many }, ['messages'], 'BASE_TYPE_MAX_LENGTH'],
      [{ messages: [id, id] }, ['messages', '1'], 'LIST_TYPE_DUPLICATE_VALUE'],
      [{ messages: [id, 'x'] }, ['messages', '1'], 'NUMBER_TYPE_COERCE'],
      [{}, ['messages'], 'BASE_TYPE_REQUIRED'],
    ];
    for (const [body, path, code] of cases) {
      const response = await server.request('POST', `/channels/${GENERAL}/messages/bulk-delete`, { auth: BOT, body });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 50035, response.text);
      const leaf = path.reduce((node: any, key) => node?.[key], response.body.errors);
      assert.equal(leaf?._errors?.[0]?.code, code, response.text);
    }
    const user = await server.request('POST', `/channels/${GENERAL}/messages/bulk-delete`, {
      auth: ALICE_TOKEN,
      body: { messages: [id, idOfAge(2 * DAY_MS)] },
    });
    assert.equal(user.status, 401, 'bulk delete is for bots');
  });

  test("users: their own message is theirs to delete; another's needs MANAGE_MESSAGES", async () => {
    const carols = await userPosts(CAROL_TOKEN, 'carol says');
    const del = (token: string, id: string) =>
      server.request('DELETE', `/channels/${GENERAL}/messages/${id}`, { auth: token });
    const byBob = await del(BOB_TOKEN, carols);
    assert.deepEqual([byBob.status, byBob.body.code], [403, 50013], 'Moderator role lacks MANAGE_MESSAGES');
    const edit = await server.request('PATCH', `/channels/${GENERAL}/messages/${carols}`, {
      auth: ALICE_TOKEN,
      body: { content: 'alice says' },
    });
    assert.deepEqual([edit.status, edit.body.code], [403, 50005], 'nobody edits another user');
    assert.equal((await del(ALICE_TOKEN, carols)).status, 204, 'an administrator deletes it');
    const own = await userPosts(CAROL_TOKEN, 'mine');
    assert.equal((await del(CAROL_TOKEN, own)).status, 204);
    assert.equal((await del(CAROL_TOKEN, own)).body.code, 10008);
    // A message of the world file is deleted as any other: not by bob, by alice.
    assert.deepEqual((await del(BOB_TOKEN, HELLO_MESSAGE)).body.code, 50013);
    assert.equal(await userReads(HELLO_MESSAGE), 200);
    assert.equal((await del(ALICE_TOKEN, HELLO_MESSAGE)).status, 204);
    assert.equal(await userReads(HELLO_MESSAGE), 404);
  });
});
