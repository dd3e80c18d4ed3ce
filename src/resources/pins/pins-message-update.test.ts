/**
 * Pinning and unpinning tell MESSAGE_UPDATE with the message's new `pinned` (issue 36 item 5), as
 * v10 does beside CHANNEL_PINS_UPDATE: a discord.js bot on a real gateway connection sees
 * `messageUpdate` go from unpinned to pinned and back (what discord-logs' `messagePinned` reads),
 * for a message of the world file too, and a bot without GUILD_MESSAGES is told the pins alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Events,
  GatewayIntentBits,
  type Client,
  type Message,
  type PartialMessage,
  type TextChannel,
} from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, HELLO_MESSAGE, OTHER_BOT_TOKEN } from '../../../test/helpers/world.js';

const PIN_MESSAGES = 1n << 51n;

/** The gateway world, with the demo bot allowed to pin. */
function pinsWorld(): World {
  const world = gatewayWorld();
  const install = world.guilds[0]!.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | PIN_MESSAGES).toString();
  return world;
}

type Update = { id: string; before: boolean | null; after: boolean };

describe('pins: MESSAGE_UPDATE with pinned on pin and unpin', () => {
  let server: TestServer;
  let pinner: Client;
  let watcher: Client;
  let pinsOnly: Client;
  const raw = new Inbox<RawDispatch>((p) => String(p.t));
  const pinsOnlyRaw = new Inbox<RawDispatch>((p) => String(p.t));
  const updates = new Inbox<Update>((u) => `${u.id} ${u.before} -> ${u.after}`);

  before(async () => {
    server = await startServer({ world: pinsWorld() });
    watcher = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      raw,
      (client) =>
        client.on(Events.MessageUpdate, (old: Message | PartialMessage, next: Message | PartialMessage) =>
          updates.push({ id: next.id, before: old.partial ? null : old.pinned, after: next.pinned === true }),
        ),
    );
    pinsOnly = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.Guilds], pinsOnlyRaw);
    pinner = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], new Inbox<RawDispatch>());
  });
  after(async () => {
    await Promise.all([pinner?.destroy(), watcher?.destroy(), pinsOnly?.destroy()]);
    await server?.close();
  });

  test('discord.js messageUpdate: pinned false -> true on pin(), true -> false on unpin()', async () => {
    const channel = (await pinner.channels.fetch(GENERAL, { force: true })) as TextChannel;
    const sent = await channel.send('pin me and tell everyone');
    // The watcher caches the message from MESSAGE_CREATE, as discord-logs relies on.
    await raw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id, 'MESSAGE_CREATE');
    await sent.pin();
    const pinned = await updates.find((u) => u.id === sent.id && u.after, 'messageUpdate pinned');
    assert.deepEqual(pinned, { id: sent.id, before: false, after: true });
    const event = await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === sent.id && p.d.pinned, 'raw');
    assert.equal(event.d.content, 'pin me and tell everyone', 'the whole message, as v10 sends it');
    assert.equal(event.d.edited_timestamp, null, 'a pin is no edit');
    await sent.unpin();
    const unpinned = await updates.find((u) => u.id === sent.id && !u.after, 'messageUpdate unpinned');
    assert.deepEqual(unpinned, { id: sent.id, before: true, after: false });
  });

  test('a world-file message pinned: MESSAGE_UPDATE with pinned true', async () => {
    const channel = (await pinner.channels.fetch(GENERAL, { force: true })) as TextChannel;
    await (await channel.messages.fetch(HELLO_MESSAGE)).pin();
    const event = await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === HELLO_MESSAGE, 'MESSAGE_UPDATE');
    assert.equal(event.d.pinned, true);
    await channel.messages.unpin(HELLO_MESSAGE);
    await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === HELLO_MESSAGE && !p.d.pinned, 'unpinned');
  });

  test('without GUILD_MESSAGES a bot is told CHANNEL_PINS_UPDATE and no MESSAGE_UPDATE', async () => {
    // Each pin's MESSAGE_UPDATE is published before its request answers, so by the last
    // CHANNEL_PINS_UPDATE every MESSAGE_UPDATE of the tests above would have come.
    await pinsOnlyRaw.findMany(4, (p) => p.t === 'CHANNEL_PINS_UPDATE', 'CHANNEL_PINS_UPDATE');
    assert.deepEqual(
      pinsOnlyRaw.all().filter((p) => p.t === 'MESSAGE_UPDATE'),
      [],
    );
  });
});
