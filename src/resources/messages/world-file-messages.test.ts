/**
 * Messages of the world file are messages (issue 36 item 2): a discord.js moderation bot (an
 * administrator) deletes one (`message.delete()`), edits its own (`message.edit()`), pins and
 * reacts to one, and bulk deletes two (`channel.bulkDelete`); readers and another bot see each
 * change (MESSAGE_DELETE, MESSAGE_UPDATE, MESSAGE_DELETE_BULK), nobody edits another's (50005),
 * and a reset, a world re-import and a snapshot restore bring every one back as the file has it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client, type Message, type TextChannel } from 'discord.js';
import { SNOWFLAKE_EPOCH_MS } from '../../core/snowflake.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { v10Error, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { adminOk, startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_ID,
  CAROL_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** A snowflake of a message sent an hour ago plus `n` ms: young enough to bulk delete. */
function recentId(n: number): string {
  return ((BigInt(Date.now() - 60 * 60 * 1000 + n) - SNOWFLAKE_EPOCH_MS) << 22n).toString();
}

const BY_CAROL = recentId(1);
const BY_BOT = recentId(2);
const FIRST_OF_TWO = recentId(3);
const SECOND_OF_TWO = recentId(4);
const SEEDED: Record<string, string> = {
  [BY_CAROL]: 'carol wrote this in the world file',
  [BY_BOT]: 'the demo bot wrote this in the world file',
  [FIRST_OF_TWO]: 'one of two',
  [SECOND_OF_TWO]: 'two of two',
  [HELLO_MESSAGE]: 'hello world',
};

/** The gateway world, the demo bot an administrator, with recent world-file messages in #general. */
function seededWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = '8';
  guild.messages.push(
    { id: BY_CAROL, channel_id: GENERAL, author_id: CAROL_ID, content: SEEDED[BY_CAROL]! },
    { id: BY_BOT, channel_id: GENERAL, author_id: DEMO_APP_ID, content: SEEDED[BY_BOT]! },
    { id: FIRST_OF_TWO, channel_id: GENERAL, author_id: BOB_ID, content: SEEDED[FIRST_OF_TWO]! },
    { id: SECOND_OF_TWO, channel_id: GENERAL, author_id: CAROL_ID, content: SEEDED[SECOND_OF_TWO]! },
  );
  return world;
}

describe('world-file messages: deleted, edited, pinned, reacted to and bulk deleted; a reset brings them back', () => {
  let server: TestServer;
  let moderator: Client;
  let watcher: Client;
  const raw = new Inbox<RawDispatch>((p) => String(p.t));
  const world = seededWorld();

  before(async () => {
    server = await startServer({ world: structuredClone(world), config: { snapshotAtStart: true } });
    watcher = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      raw,
    );
    // Logged in, as a bot editing its own message must be (discord.js compares the author with its user).
    moderator = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], new Inbox<RawDispatch>());
  });
  after(async () => {
    await Promise.all([moderator?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  async function general(): Promise<TextChannel> {
    return (await moderator.channels.fetch(GENERAL, { force: true })) as TextChannel;
  }

  async function fetchAsModerator(id: string): Promise<Message> {
    return (await general()).messages.fetch({ message: id, force: true });
  }

  /** What a user reads of the message: its status and content. */
  async function userReads(id: string): Promise<{ status: number; content?: string; edited?: string | null }> {
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE_TOKEN });
    return read.status === 200
      ? { status: 200, content: read.body.content, edited: read.body.edited_timestamp }
      : { status: read.status };
  }

  /** The ids of #general's messages a user lists, each as often as listed. */
  async function listed(): Promise<string[]> {
    const list = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE_TOKEN });
    assert.equal(list.status, 200, list.text);
    return (list.body as { id: string }[]).map((m) => m.id);
  }

  async function everySeededAsTheFileHasIt(): Promise<void> {
    for (const [id, content] of Object.entries(SEEDED)) {
      assert.deepEqual(await userReads(id), { status: 200, content, edited: null }, id);
    }
    const ids = await listed();
    for (const id of Object.keys(SEEDED)) assert.equal(ids.filter((m) => m === id).length, 1, `${id} listed once`);
  }

  test('message.delete() of a user’s world-file message: gone for readers, MESSAGE_DELETE to the other bot', async () => {
    const message = await fetchAsModerator(BY_CAROL);
    assert.equal(message.author.id, CAROL_ID);
    await message.delete();
    assert.equal((await userReads(BY_CAROL)).status, 404);
    assert.ok(!(await listed()).includes(BY_CAROL));
    const event = await raw.find((p) => p.t === 'MESSAGE_DELETE' && p.d.id === BY_CAROL, 'MESSAGE_DELETE');
    assert.deepEqual(event.d, { id: BY_CAROL, channel_id: GENERAL, guild_id: TEST_GUILD_ID });
    await assert.rejects((async () => (await general()).messages.delete(BY_CAROL))(), v10Error(404, 10008));
  });

  test('message.edit() of the bot’s own world-file message: the edit is read everywhere, once; others’ are 50005', async () => {
    const own = await fetchAsModerator(BY_BOT);
    assert.deepEqual([own.author.id, own.author.bot], [DEMO_APP_ID, true], 'a bot wrote it');
    const edited = await own.edit('edited by the bot that wrote it');
    assert.equal(edited.content, 'edited by the bot that wrote it');
    assert.ok(edited.editedTimestamp !== null);
    const read = await userReads(BY_BOT);
    assert.equal(read.content, 'edited by the bot that wrote it');
    assert.ok(read.edited);
    assert.equal((await listed()).filter((id) => id === BY_BOT).length, 1, 'the copy, not the document too');
    const update = await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === BY_BOT, 'MESSAGE_UPDATE');
    assert.equal(update.d.content, 'edited by the bot that wrote it');
    const again = await (await fetchAsModerator(BY_BOT)).edit('and edited again');
    assert.equal(again.content, 'and edited again');
    assert.equal((await userReads(BY_BOT)).content, 'and edited again');
    await assert.rejects((await fetchAsModerator(FIRST_OF_TWO)).edit('not mine'), v10Error(403, 50005));
    assert.equal((await userReads(FIRST_OF_TWO)).content, SEEDED[FIRST_OF_TWO]);
  });

  test('pin(), react() and bulkDelete([...]) of world-file messages: one MESSAGE_DELETE_BULK with their ids', async () => {
    const first = await fetchAsModerator(FIRST_OF_TWO);
    await first.pin();
    await first.react('👍');
    const pins = await (await general()).messages.fetchPins();
    assert.deepEqual(
      pins.items.map((item) => item.message.id),
      [FIRST_OF_TWO],
    );
    const reacted = await server.request('GET', `/channels/${GENERAL}/messages/${FIRST_OF_TWO}`, {
      auth: ALICE_TOKEN,
    });
    assert.deepEqual([reacted.body.pinned, reacted.body.reactions?.[0]?.count], [true, 1]);
    const deleted = await (await general()).bulkDelete([FIRST_OF_TWO, SECOND_OF_TWO]);
    assert.deepEqual([...deleted.keys()].sort(), [FIRST_OF_TWO, SECOND_OF_TWO].sort());
    for (const id of [FIRST_OF_TWO, SECOND_OF_TWO]) assert.equal((await userReads(id)).status, 404, id);
    const event = await raw.find((p) => p.t === 'MESSAGE_DELETE_BULK', 'MESSAGE_DELETE_BULK');
    assert.deepEqual(event.d, { ids: [FIRST_OF_TWO, SECOND_OF_TWO], channel_id: GENERAL, guild_id: TEST_GUILD_ID });
    assert.deepEqual((await (await general()).messages.fetchPins()).items, [], 'its pin went with it');
    // A single delete has no age bound: the old world-file message goes too.
    await (await fetchAsModerator(HELLO_MESSAGE)).delete();
    assert.equal((await userReads(HELLO_MESSAGE)).status, 404);
  });

  test('POST /admin/reset brings every world-file message back as the file has it', async () => {
    await adminOk(server, 'POST', '/reset');
    await everySeededAsTheFileHasIt();
    const own = await server.request('GET', `/channels/${GENERAL}/messages/${BY_BOT}`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
    });
    assert.deepEqual([own.body.author.id, own.body.edited_timestamp], [DEMO_APP_ID, null]);
  });

  test('a world re-import (PUT /admin/world) and a snapshot restore bring them back too', async () => {
    await (await fetchAsModerator(BY_CAROL)).delete();
    await (await fetchAsModerator(BY_BOT)).edit('edited before the re-import');
    assert.equal((await userReads(BY_CAROL)).status, 404);
    await adminOk(server, 'PUT', '/world', structuredClone(world));
    await everySeededAsTheFileHasIt();

    const snapshot = await adminOk(server, 'POST', '/snapshots');
    await (await general()).bulkDelete([FIRST_OF_TWO, SECOND_OF_TWO]);
    await (await fetchAsModerator(BY_BOT)).edit('edited before the restore');
    assert.equal((await userReads(FIRST_OF_TWO)).status, 404);
    await adminOk(server, 'POST', `/snapshots/${snapshot.body.id as string}/restore`);
    await everySeededAsTheFileHasIt();
  });
});
