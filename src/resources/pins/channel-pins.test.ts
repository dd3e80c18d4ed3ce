/**
 * A channel's pins at both of v10's paths: discord.js `message.pin()`, `fetchPins()` and
 * `unpin()` (the paged `/messages/pins`), discord.py `pin()` and `pins()` (the older `/pins`), a
 * user pinning a message of the world file, CHANNEL_PINS_UPDATE to another bot, and the refusals:
 * no PIN_MESSAGES 50013, an unknown message 10008, a hidden channel 50001, a full channel 30003, bad
 * queries 50035 at the parameter; and `pinned: true` on every read of a pinned message (the message,
 * the channel's list, an edit's answer, MESSAGE_UPDATE).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client, type TextChannel } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { restBot, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  GENERAL,
  SECRET,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  HELLO_MESSAGE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';

const BOB_TOKEN = 'bob-user-token';
const PIN_MESSAGES = 1n << 51n;

type Raw = RawDispatch;

/** The gateway world, with the demo bot allowed to pin. */
function pinsWorld(): World {
  const world = gatewayWorld();
  const install = world.guilds[0]!.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | PIN_MESSAGES).toString();
  return world;
}

describe('pins: PUT/DELETE/GET /channels/{id}/messages/pins and /pins, CHANNEL_PINS_UPDATE', () => {
  let server: TestServer;
  let bot: Client;
  let watcher: Client;
  const raw = new Inbox<Raw>((p) => String(p.t));

  before(async () => {
    server = await startServer({ world: pinsWorld() });
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
  });

  function pinUpdates(): Raw[] {
    return raw.all().filter((p) => p.t === 'CHANNEL_PINS_UPDATE');
  }

  test('discord.js: pin(), fetchPins() lists it with its time, unpin() empties the list; the other bot is told', async () => {
    const channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
    const sent = await channel.send('pin me, discord.js');
    const since = pinUpdates().length;
    await sent.pin('worth keeping');
    const pins = await channel.messages.fetchPins();
    assert.equal(pins.hasMore, false);
    assert.deepEqual(
      pins.items.map((item) => [item.message.id, item.message.content, item.message.pinned]),
      [[sent.id, 'pin me, discord.js', true]],
    );
    assert.ok(pins.items[0]!.pinnedAt.getTime() > 0);
    const pinned = await raw.find((p) => p.t === 'CHANNEL_PINS_UPDATE' && pinUpdates().indexOf(p) >= since, 'pin');
    assert.deepEqual(pinned.d, {
      guild_id: TEST_GUILD_ID,
      channel_id: GENERAL,
      last_pin_timestamp: pins.items[0]!.pinnedAt.toISOString(),
    });

    await sent.unpin();
    assert.deepEqual((await channel.messages.fetchPins()).items, []);
    const unpinned = await raw.find(
      (p) => p.t === 'CHANNEL_PINS_UPDATE' && p.d.last_pin_timestamp === null,
      'the unpin',
    );
    assert.equal(unpinned.d.channel_id, GENERAL);
  });

  test('a user pins a message of the world file at the older path; it lists there with pinned: true', async () => {
    const put = await server.request('PUT', `/channels/${GENERAL}/pins/${HELLO_MESSAGE}`, { auth: ALICE_TOKEN });
    assert.equal(put.status, 204, put.text);
    const again = await server.request('PUT', `/channels/${GENERAL}/messages/pins/${HELLO_MESSAGE}`, {
      auth: ALICE_TOKEN,
    });
    assert.equal(again.status, 204, 'pinning a pinned message is no error');
    const list = await server.request('GET', `/channels/${GENERAL}/pins`, { auth: BOT });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.map((m: any) => [m.id, m.content, m.pinned]),
      [[HELLO_MESSAGE, 'hello world', true]],
    );
    const removed = await server.request('DELETE', `/channels/${GENERAL}/pins/${HELLO_MESSAGE}`, { auth: ALICE_TOKEN });
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual((await server.request('GET', `/channels/${GENERAL}/pins`, { auth: BOT })).body, []);
  });

  test('a pinned message reads pinned: true everywhere: GET, the channel list, an edit and its MESSAGE_UPDATE', async () => {
    const channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
    const sent = await channel.send('pinned wherever read');
    assert.equal(sent.pinned, false);
    await sent.pin();
    const one = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.pinned, true);
    const list = await server.request('GET', `/channels/${GENERAL}/messages?limit=5`, { auth: BOT });
    assert.deepEqual(
      list.body.filter((m: any) => m.id === sent.id).map((m: any) => m.pinned),
      [true],
    );
    assert.ok(
      list.body.some((m: any) => m.id !== sent.id && m.pinned === false),
      'the others are not pinned',
    );
    const edited = await server.request('PATCH', `/channels/${GENERAL}/messages/${sent.id}`, {
      auth: BOT,
      body: { content: 'pinned wherever read, edited' },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.pinned, true);
    const update = await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === sent.id, 'the edit');
    assert.equal(update.d.pinned, true);
    const fetched = await channel.messages.fetch({ message: sent.id, force: true });
    assert.equal(fetched.pinned, true);
    await sent.unpin();
    const after = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.equal(after.body.pinned, false);
  });

  test('paging: limit and before (a time); has_more says when more are older', async () => {
    const ids: string[] = [];
    for (const content of ['one', 'two', 'three']) {
      const sent = await server.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { content } });
      ids.push(sent.body.id);
      assert.equal(
        (await server.request('PUT', `/channels/${GENERAL}/messages/pins/${sent.body.id}`, { auth: BOT })).status,
        204,
      );
    }
    const first = await server.request('GET', `/channels/${GENERAL}/messages/pins?limit=2`, { auth: BOT });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.has_more, true);
    assert.deepEqual(
      first.body.items.map((i: any) => i.message.content),
      ['three', 'two'],
    );
    const oldest = first.body.items[1].pinned_at as string;
    const rest = await server.request(
      'GET',
      `/channels/${GENERAL}/messages/pins?before=${encodeURIComponent(oldest)}`,
      {
        auth: BOT,
      },
    );
    assert.equal(rest.body.has_more, false);
    // Pins made in the same millisecond share a time: `before` then keeps only the older times.
    for (const item of rest.body.items) assert.ok(item.pinned_at < oldest);
    for (const id of ids) await server.request('DELETE', `/channels/${GENERAL}/messages/pins/${id}`, { auth: BOT });
  });

  test('refusals: PIN_MESSAGES, unknown message, hidden channel, bad queries, a full channel', async () => {
    const bob = await server.request('PUT', `/channels/${GENERAL}/messages/pins/${HELLO_MESSAGE}`, { auth: BOB_TOKEN });
    assert.deepEqual([bob.status, bob.body.code], [403, 50013]);
    const unknown = await server.request('PUT', `/channels/${GENERAL}/messages/pins/1345183757107299999`, {
      auth: BOT,
    });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 10008]);
    const hidden = await server.request('GET', `/channels/${SECRET}/messages/pins`, { auth: BOT });
    assert.deepEqual([hidden.status, hidden.body.code], [403, 50001]);
    const limit = await server.request('GET', `/channels/${GENERAL}/messages/pins?limit=51`, { auth: BOT });
    assert.equal(limit.status, 400);
    assert.equal(limit.body.errors.limit._errors[0].code, 'NUMBER_TYPE_MAX');
    const time = await server.request('GET', `/channels/${GENERAL}/messages/pins?before=yesterday`, { auth: BOT });
    assert.equal(time.status, 400);
    assert.equal(time.body.errors.before._errors[0].code, 'DATE_TIME_TYPE_PARSE');

    // Fill the channel to its bound through the store, then one more pin over HTTP.
    for (let i = 0; i < 250; i += 1) {
      const id = (1400000000000000000n + BigInt(i)).toString();
      await server.slashd.store.interactions.pinMessage(GENERAL, id, '2026-01-01T00:00:00.000Z', 250);
    }
    const full = await server.request('PUT', `/channels/${GENERAL}/messages/pins/${HELLO_MESSAGE}`, { auth: BOT });
    assert.deepEqual(
      [full.status, full.body.code, full.body.message],
      [400, 30003, 'Maximum number of pins reached (250)'],
    );
    for (let i = 0; i < 250; i += 1) {
      await server.slashd.store.interactions.unpinMessage(GENERAL, (1400000000000000000n + BigInt(i)).toString());
    }
  });

  test('discord.py: message.pin(), channel.pins(), message.unpin()', async () => {
    const result = await runDiscordPy('discord_pins.py', [server.api, DEMO_BOT_TOKEN, GENERAL]);
    assert.deepEqual(result.pinned, [[result.sent, 'pin me, discord.py', true]]);
    assert.deepEqual(result.after_unpin, []);
  });
});
