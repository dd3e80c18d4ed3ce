/**
 * A channel's message counters (issue 36 item 6), over real HTTP on SQLite and PostgreSQL: a
 * channel's `last_message_id` is its newest message (the world file's seeded ones too), kept when
 * that message is deleted; a thread's `message_count` counts its messages now (down on a delete and
 * a bulk delete) and `total_message_sent` every one ever sent. Every read carries them: the channel,
 * the guild's list, a thread list, the answer of PATCH, GUILD_CREATE, THREAD_UPDATE, the CHANNEL_UPDATE
 * of an admin world change, a DM channel,
 * and discord.js's `channel.lastMessageId`, `thread.messageCount` and `thread.totalMessageSent`.
 * A message sent sends no THREAD_UPDATE or CHANNEL_UPDATE (v10 sends none for counts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client, type TextChannel, type ThreadChannel } from 'discord.js';
import { SNOWFLAKE_EPOCH_MS } from '../../core/snowflake.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { restBot, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { adminOk, startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_ID,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  NSFW_LOUNGE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  THREAD,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

/** A snowflake of a message sent an hour ago plus `n` ms. */
function recentId(n: number): string {
  return ((BigInt(Date.now() - 60 * 60 * 1000 + n) - SNOWFLAKE_EPOCH_MS) << 22n).toString();
}

const SEEDED_IN_THREAD = [recentId(1), recentId(2)] as const;

/** The gateway world, the demo bot an administrator, with two world-file messages in the thread. */
function countersWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = '8';
  guild.messages.push(
    { id: SEEDED_IN_THREAD[0], channel_id: THREAD, author_id: CAROL_ID, content: 'seeded one' },
    { id: SEEDED_IN_THREAD[1], channel_id: THREAD, author_id: BOB_ID, content: 'seeded two' },
  );
  return world;
}

function describeCounters(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: channel and thread message counters`, () => {
    let server: TestServer;
    let bot: Client;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => String(p.t));

    before(async () => {
      server = await startServer({ ...options(), world: countersWorld() });
      watcher = await watchingBot(
        server,
        OTHER_BOT_TOKEN,
        [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
        raw,
      );
      bot = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
    });
    after(async () => {
      await Promise.all([bot?.destroy(), watcher?.destroy()]);
      await server?.close();
      await cleanup();
    });

    async function send(channelId: string, content: string, auth = BOT): Promise<string> {
      const sent = await server.request('POST', `/channels/${channelId}/messages`, { auth, body: { content } });
      assert.equal(sent.status, 200, sent.text);
      return sent.body.id as string;
    }
    async function read(channelId: string, auth = BOT): Promise<Json> {
      const channel = await server.request('GET', `/channels/${channelId}`, { auth });
      assert.equal(channel.status, 200, channel.text);
      return channel.body as Json;
    }
    function counts(thread: Json): [unknown, unknown, unknown] {
      return [thread.last_message_id, thread.message_count, thread.total_message_sent];
    }

    test('before any message: the world file’s newest message is the channel’s last, its thread counts its own', async () => {
      const general = await read(GENERAL);
      assert.equal(general.last_message_id, HELLO_MESSAGE);
      assertMatchesSchema('GuildChannelResponse', general);
      assert.equal((await read(NSFW_LOUNGE)).last_message_id, null, 'no message ever');
      const thread = await read(THREAD);
      assertMatchesSchema('ThreadResponse', thread);
      assert.deepEqual(counts(thread), [SEEDED_IN_THREAD[1], 2, 2]);
    });

    test('sends by a bot and a user move last_message_id on every read; a delete keeps it', async () => {
      const first = await send(GENERAL, 'first');
      const second = await send(GENERAL, 'second, by alice', ALICE_TOKEN);
      assert.equal((await read(GENERAL)).last_message_id, second);
      const listed = await server.request('GET', `/guilds/${TEST_GUILD_ID}/channels`, { auth: BOT });
      assert.equal(listed.status, 200, listed.text);
      const inList = (listed.body as Json[]).find((c) => c.id === GENERAL)!;
      assert.equal(inList.last_message_id, second);
      assert.equal((listed.body as Json[]).find((c) => c.id === NSFW_LOUNGE)!.last_message_id, null);
      assert.equal(
        (listed.body as Json[]).find((c) => c.type === 4)!.last_message_id,
        undefined,
        'a category has none',
      );

      const deleted = await server.request('DELETE', `/channels/${GENERAL}/messages/${second}`, { auth: BOT });
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal((await read(GENERAL)).last_message_id, second, 'v10 keeps the id of a deleted message');
      assert.notEqual(first, second);

      const renamed = await server.request('PATCH', `/channels/${GENERAL}`, { auth: BOT, body: { topic: 'counted' } });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.last_message_id, second, 'the PATCH answer carries it');
      const update = await raw.find((p) => p.t === 'CHANNEL_UPDATE' && p.d.id === GENERAL, 'CHANNEL_UPDATE');
      assert.equal(update.d.last_message_id, second, 'and CHANNEL_UPDATE');
    });

    test('a thread: message_count down on a delete and a bulk delete, total_message_sent never; no THREAD_UPDATE for counts', async () => {
      const ids = [await send(THREAD, 'one'), await send(THREAD, 'two'), await send(THREAD, 'three', ALICE_TOKEN)];
      assert.deepEqual(counts(await read(THREAD)), [ids[2], 5, 5]);
      const single = await server.request('DELETE', `/channels/${THREAD}/messages/${ids[2]}`, { auth: BOT });
      assert.equal(single.status, 204, single.text);
      const seeded = await server.request('DELETE', `/channels/${THREAD}/messages/${SEEDED_IN_THREAD[0]}`, {
        auth: BOT,
      });
      assert.equal(seeded.status, 204, seeded.text);
      assert.deepEqual(counts(await read(THREAD)), [ids[2], 3, 5], 'a world-file message deleted counts down too');
      const bulk = await server.request('POST', `/channels/${THREAD}/messages/bulk-delete`, {
        auth: BOT,
        body: { messages: [ids[0], ids[1]] },
      });
      assert.equal(bulk.status, 204, bulk.text);
      assert.deepEqual(counts(await read(THREAD)), [ids[2], 1, 5]);

      const active = await server.request('GET', `/guilds/${TEST_GUILD_ID}/threads/active`, { auth: BOT });
      assert.equal(active.status, 200, active.text);
      assert.deepEqual(counts((active.body.threads as Json[]).find((t) => t.id === THREAD)!), [ids[2], 1, 5]);
      assert.equal(
        raw.all().some((p) => p.t === 'THREAD_UPDATE' && p.d.id === THREAD),
        false,
        'no THREAD_UPDATE for a message sent or deleted',
      );

      const edited = await server.request('PATCH', `/channels/${THREAD}`, { auth: BOT, body: { name: 'counted' } });
      assert.equal(edited.status, 200, edited.text);
      assert.deepEqual(counts(edited.body as Json), [ids[2], 1, 5], 'the PATCH answer carries them');
      const update = await raw.find((p) => p.t === 'THREAD_UPDATE' && p.d.id === THREAD, 'THREAD_UPDATE');
      assert.deepEqual(counts(update.d as Json), [ids[2], 1, 5], 'and THREAD_UPDATE');
    });

    test('discord.js reads channel.lastMessageId, thread.messageCount and thread.totalMessageSent', async () => {
      const channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
      const sent = await channel.send('from discord.js');
      const again = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
      assert.equal(again.lastMessageId, sent.id);
      const thread = (await bot.channels.fetch(THREAD, { force: true })) as ThreadChannel;
      const before = [thread.messageCount, thread.totalMessageSent];
      const inThread = await thread.send('in the thread');
      const counted = (await bot.channels.fetch(THREAD, { force: true })) as ThreadChannel;
      assert.deepEqual(
        [counted.lastMessageId, counted.messageCount, counted.totalMessageSent],
        [inThread.id, before[0]! + 1, before[1]! + 1],
      );
      await inThread.delete();
      const after = (await bot.channels.fetch(THREAD, { force: true })) as ThreadChannel;
      assert.deepEqual(
        [after.lastMessageId, after.messageCount, after.totalMessageSent],
        [inThread.id, before[0], before[1]! + 1],
      );
    });

    test('GUILD_CREATE of a bot logging in now carries the counters', async () => {
      const expected = await read(THREAD);
      const generalNow = (await read(GENERAL)).last_message_id as string;
      const late = new Inbox<RawDispatch>((p) => String(p.t));
      const client = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], late);
      try {
        const created = await late.find((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID, 'GUILD_CREATE');
        const d = created.d as Json;
        assert.equal((d.channels as Json[]).find((c) => c.id === GENERAL)!.last_message_id, generalNow);
        assert.deepEqual(counts((d.threads as Json[]).find((t) => t.id === THREAD)!), counts(expected));
        assert.equal((client.channels.cache.get(GENERAL) as TextChannel).lastMessageId, generalNow);
      } finally {
        await client.destroy();
      }
    });

    test('CHANNEL_UPDATE of an admin world change carries the counters (PUT a guild, POST /admin/world)', async () => {
      const general = (await read(GENERAL)).last_message_id as string;
      assert.notEqual(general, HELLO_MESSAGE, 'a message sent through the API is the newest: the stored counters');
      const stored = await adminOk(server, 'GET', `/guilds/${TEST_GUILD_ID}`);
      const guild = stored.body as Json;
      guild.channels.find((c: Json) => c.id === GENERAL).name = 'lobby';
      await adminOk(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, guild);
      const update = await raw.find((p) => p.t === 'CHANNEL_UPDATE' && p.d.name === 'lobby', 'CHANNEL_UPDATE');
      assert.equal(update.d.last_message_id, general);

      guild.channels.find((c: Json) => c.id === GENERAL).name = 'merged';
      await adminOk(server, 'POST', '/world', { guilds: [guild] });
      const merged = await raw.find((p) => p.t === 'CHANNEL_UPDATE' && p.d.name === 'merged', 'CHANNEL_UPDATE');
      assert.equal(merged.d.last_message_id, general, 'the merge of POST /admin/world too');
      assertMatchesSchema('GuildChannelResponse', merged.d);
    });

    test('a DM channel’s last_message_id: its newest message, when opened again and listed', async () => {
      const opened = await server.request('POST', '/users/@me/channels', {
        auth: BOT,
        body: { recipient_id: CAROL_ID },
      });
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.last_message_id, null);
      const dm = opened.body.id as string;
      await send(dm, 'hello carol');
      const answer = await send(dm, 'hello bot', CAROL_TOKEN);
      const again = await server.request('POST', '/users/@me/channels', {
        auth: BOT,
        body: { recipient_id: CAROL_ID },
      });
      assert.equal(again.body.last_message_id, answer);
      assert.equal((await read(dm, CAROL_TOKEN)).last_message_id, answer);
      const listed = await server.request('GET', '/users/@me/channels', { auth: CAROL_TOKEN });
      assert.equal(listed.status, 200, listed.text);
      assert.equal((listed.body as Json[]).find((c) => c.id === dm)!.last_message_id, answer);
    });
  });
}

describeCounters(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_counters');
describeCounters(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
