/**
 * Slowmode (issue 36 item 3): a discord.js bot sets `rate_limit_per_user` on a channel as its users
 * do (`channel.setRateLimitPerUser`, `threads.create({ rateLimitPerUser })`); a user's second
 * message within it answers 429 with code 20016, `retry_after` and a Retry-After header, and
 * nothing is sent; bots and members with MANAGE_MESSAGES or MANAGE_CHANNELS are not held; a thread
 * has its own slowmode; creating a thread takes its own interval of the parent's. The clock is the
 * server's injected one: the interval ends when the test moves it, never by waiting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChannelType, GatewayIntentBits, type Client, type TextChannel } from 'discord.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { changeWorldGuild, grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_TOKEN,
  CAROL_TOKEN,
  DAVE_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const MANAGE_CHANNELS = 1n << 4n;
const MANAGE_MESSAGES = 1n << 13n;
const CREATE_PUBLIC_THREADS = 1n << 35n;
const SEND_MESSAGES_IN_THREADS = 1n << 38n;
const DAVE_TOKEN = 'dave-user-token';

describe('slowmode, set by a discord.js bot, holds users', () => {
  let server: TestServer;
  let bot: Client;
  let general: TextChannel;
  let clock = Date.parse('2026-03-01T12:00:00.000Z');

  before(async () => {
    server = await startServer({ now: () => clock });
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      MANAGE_CHANNELS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS,
    );
    await changeWorldGuild(server, TEST_GUILD_ID, (guild) => ({
      ...guild,
      // Everyone may start and post in threads; moderators manage messages; dave manages #general.
      roles: guild.roles.map((role) =>
        role.id === TEST_GUILD_ID
          ? {
              ...role,
              permissions: String(BigInt(role.permissions) | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS),
            }
          : role.id === MODERATOR_ROLE
            ? { ...role, permissions: String(BigInt(role.permissions) | MANAGE_MESSAGES) }
            : role,
      ),
      channels: guild.channels.map((channel) =>
        channel.id === GENERAL
          ? {
              ...channel,
              permission_overwrites: [{ id: DAVE_ID, type: 1, allow: String(MANAGE_CHANNELS), deny: '0' }],
            }
          : channel,
      ),
    }));
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], new Inbox<RawDispatch>());
    general = (await bot.channels.fetch(GENERAL)) as TextChannel;
    general = await general.setRateLimitPerUser(10);
    assert.equal(general.rateLimitPerUser, 10);
  });
  after(async () => {
    await bot?.destroy();
    await server?.close();
  });

  const post = (token: string, content: string, channelId = GENERAL) =>
    server.request('POST', `/channels/${channelId}/messages`, { auth: token, body: { content } });
  const texts = async (channelId: string) =>
    (
      (await server.request('GET', `/channels/${channelId}/messages?limit=50`, { auth: CAROL_TOKEN })).body as {
        content: string;
      }[]
    ).map((m) => m.content);

  test("a user's second message within the interval: 429 20016 with retry_after, nothing sent; after it, sent", async () => {
    assert.equal((await post(CAROL_TOKEN, 'first')).status, 200);
    clock += 2_500;
    const held = await post(CAROL_TOKEN, 'too soon');
    assert.equal(held.status, 429, held.text);
    assert.equal(held.body.code, 20016);
    assert.equal(held.body.message, 'Slowmode rate limit');
    assert.equal(held.body.retry_after, 7.5);
    assert.equal(held.headers.get('retry-after'), '8');
    assert.ok(!(await texts(GENERAL)).includes('too soon'), 'nothing was sent');
    clock += 7_500;
    const later = await post(CAROL_TOKEN, 'in time');
    assert.equal(later.status, 200, later.text);
    assert.equal((await post(CAROL_TOKEN, 'again too soon')).body.code, 20016);
  });

  test('not held: the bot, a moderator with MANAGE_MESSAGES, a member with MANAGE_CHANNELS in the channel', async () => {
    await general.send('bot one');
    await general.send('bot two');
    for (const token of [BOB_TOKEN, DAVE_TOKEN]) {
      assert.equal((await post(token, 'one')).status, 200);
      const second = await post(token, 'two');
      assert.equal(second.status, 200, second.text);
    }
    assert.deepEqual((await texts(GENERAL)).slice(0, 2), ['two', 'one']);
  });

  test("a thread has its own slowmode; creating a thread takes its own interval of the parent's", async () => {
    clock += 60_000;
    const thread = await general.threads.create({ name: 'slow thread', rateLimitPerUser: 3 });
    assert.equal(thread.rateLimitPerUser, 3);
    assert.equal(thread.type, ChannelType.PublicThread);
    // Carol's message in #general does not hold her in the thread, nor the reverse.
    assert.equal((await post(CAROL_TOKEN, 'parent')).status, 200);
    assert.equal((await post(CAROL_TOKEN, 'in thread', thread.id)).status, 200);
    const held = await post(CAROL_TOKEN, 'in thread again', thread.id);
    assert.equal(held.status, 429, held.text);
    assert.equal(held.body.retry_after, 3, "the thread's own interval, not the parent's 10 s");
    clock += 3_000;
    assert.equal((await post(CAROL_TOKEN, 'in thread again', thread.id)).status, 200);

    const start = (name: string) =>
      server.request('POST', `/channels/${GENERAL}/threads`, { auth: CAROL_TOKEN, body: { name, type: 11 } });
    const first = await start('carol one');
    assert.equal(first.status, 201, first.text);
    const second = await start('carol two');
    assert.equal(second.status, 429, second.text);
    assert.equal(second.body.code, 20016);
    assert.ok(second.body.retry_after > 0 && second.body.retry_after <= 10);
    clock += 10_000;
    assert.equal((await start('carol two')).status, 201);
  });
});
