/**
 * `POST /channels/{id}/typing`: a bot (discord.js `sendTyping()`, discord.py `async with
 * channel.typing()`) or a user starts typing; 204, and bots with GUILD_MESSAGE_TYPING receive
 * TYPING_START with the typist's member, while a session without that intent does not. Refusals are
 * those of sending: unknown channel 10003, no VIEW_CHANNEL 50001, no SEND_MESSAGES 50013, a category
 * 50008.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from 'discord.js';
import { Events, GatewayIntentBits, type TextChannel, type Typing } from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { restBot, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  GENERAL,
  SECRET,
  ALICE_ID,
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';

const CATEGORY = '1345183757107200010';

type Raw = RawDispatch;

describe('typing: POST /channels/{id}/typing and TYPING_START', () => {
  let server: TestServer;
  let typist: Client;
  let watcher: Client;
  let deaf: Client;
  const typings = new Inbox<Typing>((t) => `${t.user.id} in ${t.channel.id}`);
  const watcherRaw = new Inbox<Raw>((p) => String(p.t));
  const deafRaw = new Inbox<Raw>((p) => String(p.t));

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    watcher = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessageTyping],
      watcherRaw,
      (client) => client.on(Events.TypingStart, (typing) => typings.push(typing)),
    );
    deaf = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      deafRaw,
    );
    typist = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
  });
  after(async () => {
    await Promise.all([typist?.destroy(), watcher?.destroy(), deaf?.destroy()]);
    await server?.close();
  });

  test("discord.js sendTyping(): the other bot's typingStart names the bot, its member and the channel", async () => {
    const channel = (await typist.channels.fetch(GENERAL, { force: true })) as TextChannel;
    await channel.sendTyping();
    const typing = await typings.find((t) => t.user.id === DEMO_APP_ID, 'typingStart of the demo bot');
    assert.equal(typing.channel.id, GENERAL);
    assert.equal(typing.guild?.id, TEST_GUILD_ID);
    assert.equal(typing.member?.id, DEMO_APP_ID);
    assert.ok(typing.startedTimestamp > 0);
    const packet = await watcherRaw.find((p) => p.t === 'TYPING_START', 'TYPING_START');
    assert.equal(packet.d.guild_id, TEST_GUILD_ID);
    assert.equal(typeof packet.d.timestamp, 'number');
    assert.ok(packet.d.timestamp < 10_000_000_000, 'v10 sends unix seconds');
    assert.equal(packet.d.member.user.id, DEMO_APP_ID);

    // A session without GUILD_MESSAGE_TYPING hears the message that follows, and no typing before it.
    const sent = await channel.send('after typing');
    await deafRaw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id, 'MESSAGE_CREATE');
    assert.deepEqual(
      deafRaw.all().filter((p) => p.t === 'TYPING_START'),
      [],
    );
  });

  test('a user types with their own token: 204, and the bot hears it with the user and member', async () => {
    const response = await server.request('POST', `/channels/${GENERAL}/typing`, { auth: ALICE_TOKEN });
    assert.equal(response.status, 204, response.text);
    assert.equal(response.text, '');
    const typing = await typings.find((t) => t.user.id === ALICE_ID, 'typingStart of alice');
    assert.equal(typing.member?.user.username, 'alice');
  });

  test('refusals are those of sending a message', async () => {
    const cases: [string, string, number, number][] = [
      ['1', BOT, 404, 10003],
      [SECRET, BOT, 403, 50001],
      [ANNOUNCEMENTS, BOT, 403, 50013],
      [CATEGORY, BOT, 400, 50008],
    ];
    for (const [channelId, auth, status, code] of cases) {
      const response = await server.request('POST', `/channels/${channelId}/typing`, { auth });
      assert.equal(response.status, status, `${channelId}: ${response.text}`);
      assert.equal(response.body.code, code, `${channelId}: ${response.text}`);
    }
    assert.equal((await server.request('POST', `/channels/${GENERAL}/typing`)).status, 401);
  });

  test('discord.py: async with channel.typing() around a send; a channel it may not send in is 403 50013', async () => {
    const since = typings.all().length;
    const result = await runDiscordPy('discord_typing.py', [server.api, DEMO_BOT_TOKEN, GENERAL, ANNOUNCEMENTS]);
    assert.equal(result.sent, 'typed by discord.py');
    assert.deepEqual(result.refused, [403, 50013]);
    await typings.find((t) => typings.all().indexOf(t) >= since && t.user.id === DEMO_APP_ID, 'typing of discord.py');
  });
});
