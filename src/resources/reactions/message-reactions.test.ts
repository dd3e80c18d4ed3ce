/**
 * Reactions on messages: discord.js `message.react()`, `reactions.cache`, `users.fetch()`,
 * `users.remove(user)` and `reactions.removeAll()`; discord.py `add_reaction()`; a user reacting
 * to a message of the world file; another discord.js bot with GuildMessageReactions told by
 * `messageReactionAdd`; and the refusals: no ADD_REACTIONS 50013, removing another's without
 * MANAGE_MESSAGES 50013, an unknown message 10008, a custom emoji the guild lacks 10014, bad
 * queries 50035, a message at its 20 emojis 30010.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  type MessageReaction,
  type PartialMessageReaction,
  type PartialUser,
  type TextChannel,
  type User,
} from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';

const ADD_REACTIONS = 1n << 6n;
const MANAGE_MESSAGES = 1n << 13n;
const THUMBS = '👍';
const reactionPath = (message: string, emoji: string, rest = '') =>
  `/channels/${GENERAL}/messages/${message}/reactions/${encodeURIComponent(emoji)}${rest}`;

type Raw = { t: string | null; d: any };
type Added = { emoji: string | null; userId: string; messageId: string };

/** The gateway world, with the demo bot allowed to add reactions and manage messages. */
function reactionsWorld(): World {
  const world = gatewayWorld();
  const install = world.guilds[0]!.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | ADD_REACTIONS | MANAGE_MESSAGES).toString();
  return world;
}

describe('reactions: …/messages/{id}/reactions, MESSAGE_REACTION_* under GuildMessageReactions', () => {
  let server: TestServer;
  let bot: Client;
  let watcher: Client;
  const raw = new Inbox<Raw>((p) => String(p.t));
  const added = new Inbox<Added>((a) => a.messageId);

  before(async () => {
    server = await startServer({ world: reactionsWorld() });
    watcher = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessageReactions],
      partials: [Partials.Message, Partials.Reaction, Partials.User],
      rest: { api: `${server.url}/api` },
    });
    watcher.on(Events.Raw, (packet: Raw) => raw.push(packet));
    watcher.on(
      Events.MessageReactionAdd,
      (reaction: MessageReaction | PartialMessageReaction, user: User | PartialUser) => {
        added.push({ emoji: reaction.emoji.name, userId: user.id, messageId: reaction.message.id });
      },
    );
    const ready = new Inbox<string>();
    watcher.once(Events.ClientReady, () => ready.push('ready'));
    await watcher.login(OTHER_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    // The reacting bot is logged in (react() reads its own user) and has no reactions intent.
    bot = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    const botReady = new Inbox<string>();
    bot.once(Events.ClientReady, () => botReady.push('ready'));
    await bot.login(DEMO_BOT_TOKEN);
    await botReady.find(() => true, 'the bot ready');
  });
  after(async () => {
    await Promise.all([bot?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  test('discord.js: react(), the users listed, a user joins, users.remove(user), removeAll(); the other bot is told', async () => {
    const channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
    const sent = await channel.send('react to me, discord.js');
    const reaction = await sent.react(THUMBS);
    assert.equal(reaction.emoji.name, THUMBS);
    assert.equal(reaction.me, true);

    const told = await added.find((a) => a.messageId === sent.id, 'messageReactionAdd');
    assert.deepEqual(told, { emoji: THUMBS, userId: DEMO_APP_ID, messageId: sent.id });
    const packet = await raw.find((p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.message_id === sent.id, 'raw add');
    assert.equal(packet.d.guild_id, TEST_GUILD_ID);
    assert.equal(packet.d.message_author_id, DEMO_APP_ID);
    assert.equal(packet.d.member.user.id, DEMO_APP_ID);
    assert.deepEqual(packet.d.emoji, { id: null, name: THUMBS });

    // Bob lacks ADD_REACTIONS, but may join an emoji that is on the message already.
    const bob = await server.request('PUT', reactionPath(sent.id, THUMBS, '/@me'), { auth: BOB_TOKEN });
    assert.equal(bob.status, 204, bob.text);
    const users = await reaction.users.fetch();
    assert.deepEqual(
      [...users.keys()],
      [DEMO_APP_ID, BOB_ID].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    const fetched = await channel.messages.fetch({ message: sent.id, force: true });
    const cached = fetched.reactions.cache.get(THUMBS);
    assert.deepEqual([cached?.count, cached?.me], [2, true]);

    await reaction.users.remove(BOB_ID);
    const removed = await raw.find((p) => p.t === 'MESSAGE_REACTION_REMOVE' && p.d.user_id === BOB_ID, 'remove');
    assert.equal(removed.d.message_id, sent.id);
    assert.deepEqual([...(await reaction.users.fetch()).keys()], [DEMO_APP_ID]);

    await sent.react('🎉');
    await sent.reactions.removeAll();
    const all = await raw.find((p) => p.t === 'MESSAGE_REACTION_REMOVE_ALL' && p.d.message_id === sent.id, 'all');
    assert.deepEqual(all.d, { channel_id: GENERAL, message_id: sent.id, guild_id: TEST_GUILD_ID });
    // v10 leaves `reactions` out of a message that has none (the bot, without the reactions intent,
    // is not told to empty its cache, so the wire is read).
    const after = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: BOT });
    assert.equal(after.status, 200, after.text);
    assert.equal('reactions' in after.body, false);
  });

  test('a user reacts to a message of the world file; all of one emoji goes at once', async () => {
    const put = await server.request('PUT', reactionPath(HELLO_MESSAGE, '❤️', '/@me'), { auth: ALICE_TOKEN });
    assert.equal(put.status, 204, put.text);
    const listed = await server.request('GET', reactionPath(HELLO_MESSAGE, '❤️'), { auth: BOT });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.map((u: any) => u.id),
      [ALICE_ID],
    );
    const own = await server.request('DELETE', reactionPath(HELLO_MESSAGE, '❤️', '/@me'), { auth: ALICE_TOKEN });
    assert.equal(own.status, 204);
    await server.request('PUT', reactionPath(HELLO_MESSAGE, '❤️', '/@me'), { auth: ALICE_TOKEN });
    const gone = await server.request('DELETE', reactionPath(HELLO_MESSAGE, '❤️'), { auth: BOT });
    assert.equal(gone.status, 204, gone.text);
    const event = await raw.find((p) => p.t === 'MESSAGE_REACTION_REMOVE_EMOJI', 'remove emoji');
    assert.deepEqual(event.d.emoji, { id: null, name: '❤️' });
    assert.deepEqual((await server.request('GET', reactionPath(HELLO_MESSAGE, '❤️'), { auth: BOT })).body, []);
  });

  test('paging: limit and after (a user id)', async () => {
    for (const auth of [ALICE_TOKEN, BOB_TOKEN, BOT]) {
      // Alice reacts first so that Bob and the bot only join her emoji.
      assert.equal((await server.request('PUT', reactionPath(HELLO_MESSAGE, '🔥', '/@me'), { auth })).status, 204);
    }
    const first = await server.request('GET', `${reactionPath(HELLO_MESSAGE, '🔥')}?limit=2`, { auth: BOT });
    // By id: the bot's (an application id) is the smallest.
    assert.deepEqual(
      first.body.map((u: any) => u.id),
      [DEMO_APP_ID, ALICE_ID],
    );
    const rest = await server.request('GET', `${reactionPath(HELLO_MESSAGE, '🔥')}?after=${ALICE_ID}`, { auth: BOT });
    assert.deepEqual(
      rest.body.map((u: any) => u.id),
      [BOB_ID],
    );
    await server.request('DELETE', `/channels/${GENERAL}/messages/${HELLO_MESSAGE}/reactions`, { auth: BOT });
  });

  test('refusals: ADD_REACTIONS, MANAGE_MESSAGES, unknown message, unknown emoji, bad queries, 20 emojis', async () => {
    await server.request('DELETE', `/channels/${GENERAL}/messages/${HELLO_MESSAGE}/reactions`, { auth: BOT });
    const bob = await server.request('PUT', reactionPath(HELLO_MESSAGE, '🎈', '/@me'), { auth: BOB_TOKEN });
    assert.deepEqual([bob.status, bob.body.code, bob.body.message], [403, 50013, 'Missing Permissions']);
    await server.request('PUT', reactionPath(HELLO_MESSAGE, '🎈', '/@me'), { auth: ALICE_TOKEN });
    const others = await server.request('DELETE', reactionPath(HELLO_MESSAGE, '🎈', `/${ALICE_ID}`), {
      auth: BOB_TOKEN,
    });
    assert.deepEqual([others.status, others.body.code], [403, 50013]);
    const all = await server.request('DELETE', `/channels/${GENERAL}/messages/${HELLO_MESSAGE}/reactions`, {
      auth: BOB_TOKEN,
    });
    assert.deepEqual([all.status, all.body.code], [403, 50013]);
    const unknown = await server.request('PUT', reactionPath('1345183757107299999', THUMBS, '/@me'), { auth: BOT });
    assert.deepEqual([unknown.status, unknown.body.code, unknown.body.message], [404, 10008, 'Unknown Message']);
    for (const emoji of ['blob:1345183757107200999', 'not an emoji']) {
      const custom = await server.request('PUT', reactionPath(HELLO_MESSAGE, emoji, '/@me'), { auth: BOT });
      assert.deepEqual([custom.status, custom.body.code, custom.body.message], [400, 10014, 'Unknown Emoji']);
    }
    const limit = await server.request('GET', `${reactionPath(HELLO_MESSAGE, '🎈')}?limit=101`, { auth: BOT });
    assert.equal(limit.status, 400);
    assert.equal(limit.body.errors.limit._errors[0].code, 'NUMBER_TYPE_MAX');
    const afterId = await server.request('GET', `${reactionPath(HELLO_MESSAGE, '🎈')}?after=bob`, { auth: BOT });
    assert.equal(afterId.status, 400);
    assert.equal(afterId.body.errors.after._errors[0].code, 'NUMBER_TYPE_COERCE');

    const emojis = [
      '😀',
      '😁',
      '😂',
      '🤣',
      '😃',
      '😄',
      '😅',
      '😆',
      '😉',
      '😊',
      '😋',
      '😎',
      '😍',
      '😘',
      '🥰',
      '😗',
      '😙',
      '🥲',
      '😚',
    ];
    for (const emoji of emojis) {
      const put = await server.request('PUT', reactionPath(HELLO_MESSAGE, emoji, '/@me'), { auth: BOT });
      assert.equal(put.status, 204, `${emoji}: ${put.text}`);
    }
    const full = await server.request('PUT', reactionPath(HELLO_MESSAGE, '🙂', '/@me'), { auth: BOT });
    assert.deepEqual(
      [full.status, full.body.code, full.body.message],
      [400, 30010, 'Maximum number of reactions reached (20)'],
    );
    await server.request('DELETE', `/channels/${GENERAL}/messages/${HELLO_MESSAGE}/reactions`, { auth: BOT });
  });

  test('one unicode emoji is a bounded grapheme of emoji parts: 40-60 combining marks are 10014 (issue 35 item 9)', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'marks' },
    });
    assert.equal(sent.status, 200, sent.text);
    for (const marks of [1, 40, 60]) {
      for (const mark of ['\u0301', '\u20d0']) {
        const emoji = THUMBS + mark.repeat(marks);
        const refused = await server.request('PUT', reactionPath(sent.body.id, emoji, '/@me'), { auth: BOT });
        assert.equal(refused.status, 400, `${marks} marks: ${refused.text}`);
        assert.equal(refused.body.code, 10014);
      }
    }
    for (const control of ['\u0000', 'a', '\u200b']) {
      const refused = await server.request('PUT', reactionPath(sent.body.id, THUMBS + control, '/@me'), { auth: BOT });
      assert.equal(refused.status, 400, refused.text);
    }
    // Long sequences Unicode recommends still are one emoji: a kiss with two skin tones, a subdivision flag.
    for (const emoji of ['👩🏻‍❤️‍💋‍👨🏼', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '🚶🏽‍♂️‍➡️', '1️⃣', '🇫🇷']) {
      const added = await server.request('PUT', reactionPath(sent.body.id, emoji, '/@me'), { auth: BOT });
      assert.equal(added.status, 204, `${emoji}: ${added.text}`);
    }
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: BOT });
    assert.equal(read.body.reactions.length, 5);
  });

  test('discord.py: message.add_reaction(), fetch_message().reactions, reaction.users(), remove_reaction()', async () => {
    const result = await runDiscordPy('discord_reactions.py', [server.api, DEMO_BOT_TOKEN, GENERAL]);
    assert.deepEqual(result.reactions, [[THUMBS, 1, true]]);
    assert.deepEqual(result.users, [DEMO_APP_ID]);
    assert.equal(result.after_remove, 0);
  });
});
