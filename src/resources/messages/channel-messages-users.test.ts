/**
 * Users' own messages (issue 24 item 7): a user posts, edits and deletes with their own token, with
 * mentions and replies; bots with GUILD_MESSAGES receive MESSAGE_CREATE (the content only with
 * MESSAGE_CONTENT or when mentioned), so a discord.js prefix-command bot (`messageCreate`, then
 * `message.reply`) is tested as it runs: alice types "!ping", the bot answers "pong" as a reply, and
 * alice reads the answer pointing at her message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { GENERAL, SECRET } from '../../../test/helpers/world.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOB_TOKEN,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  MODERATOR_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
} from '../../../test/helpers/world.js';

type Raw = { t: string | null; d: any };
type Json = Record<string, any>;

async function gatewayBot(server: TestServer, token: string, intents: GatewayIntentBits[]): Promise<Client> {
  const client = new Client({ intents, rest: { api: `${server.url}/api` } });
  const ready = new Inbox<string>();
  client.once(Events.ClientReady, () => ready.push('ready'));
  await client.login(token);
  await ready.find(() => true, 'ready');
  return client;
}

describe("users' own messages, and bots that read them", () => {
  let server: TestServer;
  let pingBot: Client;
  let blindBot: Client;
  const pingRaw = new Inbox<Raw>((p) => String(p.t));
  const blindRaw = new Inbox<Raw>((p) => String(p.t));

  before(async () => {
    server = withSchemaChecks(await startServer({ world: gatewayWorld() }));
    // Other App may read content (GATEWAY_MESSAGE_CONTENT): the prefix-command bot.
    pingBot = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${server.url}/api` },
    });
    pingBot.on(Events.Raw, (packet: Raw) => pingRaw.push(packet));
    pingBot.on(Events.MessageCreate, (message: Message) => {
      if (message.author.bot || message.content !== '!ping') return;
      // A failed reply shows as the reply the test waits for never coming.
      message.reply('pong').catch((error: unknown) => pingRaw.push({ t: 'REPLY_FAILED', d: String(error) }));
    });
    const ready = new Inbox<string>();
    pingBot.once(Events.ClientReady, () => ready.push('ready'));
    await pingBot.login(OTHER_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    // The demo app has no MESSAGE_CONTENT: it reads content only where it is mentioned.
    blindBot = await gatewayBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    blindBot.on(Events.Raw, (packet: Raw) => blindRaw.push(packet));
  });
  after(async () => {
    await Promise.all([pingBot?.destroy(), blindBot?.destroy()]);
    await server?.close();
  });

  async function post(token: string, body: unknown, channelId = GENERAL) {
    return server.request('POST', `/channels/${channelId}/messages`, { auth: token, body });
  }

  test('alice types "!ping"; the discord.js messageCreate bot replies "pong"; alice reads the reply to hers', async () => {
    const sent = await post(ALICE_TOKEN, { content: '!ping' });
    assert.equal(sent.status, 200, sent.text);
    assertMatchesSchema('MessageResponse', sent.body);
    assert.equal(sent.body.author.id, ALICE_ID);
    assert.equal(sent.body.author.bot, undefined);
    assert.equal(sent.body.type, 0);

    const created = await pingRaw.find(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.message_reference?.message_id === sent.body.id,
      "the bot's reply",
    );
    const replyId = created.d.id as string;
    const page = await server.request('GET', `/channels/${GENERAL}/messages?limit=5`, { auth: ALICE_TOKEN });
    assert.equal(page.status, 200, page.text);
    const reply = (page.body as Json[]).find((m) => m.id === replyId)!;
    assert.ok(reply, 'alice reads the reply in the channel');
    assertMatchesSchema('MessageResponse', reply);
    assert.equal(reply.content, 'pong');
    assert.equal(reply.author.id, OTHER_APP_ID);
    assert.equal(reply.author.bot, true);
    assert.equal(reply.type, 19, 'a reply');
    assert.deepEqual(reply.message_reference, {
      type: 0,
      message_id: sent.body.id,
      channel_id: GENERAL,
      guild_id: sent.body.guild_id ?? created.d.guild_id,
    });
    assert.equal(reply.referenced_message.id, sent.body.id);
    assert.equal(reply.referenced_message.content, '!ping');
    assert.deepEqual(
      reply.mentions.map((u: Json) => u.id),
      [ALICE_ID],
      'a reply mentions the author it answers',
    );
    assert.equal(created.d.referenced_message.id, sent.body.id, 'MESSAGE_CREATE carries the replied-to message');
  });

  test('a bot without MESSAGE_CONTENT gets MESSAGE_CREATE without content, unless the message mentions it', async () => {
    const plain = (await post(CAROL_TOKEN, { content: 'nothing for bots' })).body;
    const mention = (await post(CAROL_TOKEN, { content: `hey <@${DEMO_APP_ID}> and <@${ALICE_ID}>` })).body;
    const seenPlain = await blindRaw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === plain.id, 'plain');
    assert.equal(seenPlain.d.content, '');
    assert.equal(seenPlain.d.author.id, CAROL_ID);
    assert.equal(seenPlain.d.member.roles !== undefined, true, 'with the author member');
    const seenMention = await blindRaw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === mention.id, 'mention');
    assert.equal(seenMention.d.content, mention.content);
    assert.deepEqual(
      seenMention.d.mentions.map((u: Json) => [u.id, u.bot ?? false]),
      [
        [DEMO_APP_ID, true],
        [ALICE_ID, false],
      ],
    );
    const withContent = await pingRaw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === plain.id, 'plain, content');
    assert.equal(withContent.d.content, 'nothing for bots');
  });

  test('mentions: users, roles and @everyone as allowed_mentions and MENTION_EVERYONE let them', async () => {
    const everything = (await post(ALICE_TOKEN, { content: `<@${CAROL_ID}> <@&${MODERATOR_ROLE}> @everyone <@1>` }))
      .body;
    assert.deepEqual(
      everything.mentions.map((u: Json) => u.id),
      [CAROL_ID],
      'only members',
    );
    assert.deepEqual(everything.mention_roles, [MODERATOR_ROLE]);
    assert.equal(everything.mention_everyone, true, 'alice is an administrator');
    const carols = (await post(CAROL_TOKEN, { content: '@everyone look' })).body;
    assert.equal(carols.mention_everyone, false, 'carol lacks MENTION_EVERYONE');
    const muted = (await post(ALICE_TOKEN, { content: `<@${CAROL_ID}>`, allowed_mentions: { parse: [] } })).body;
    assert.deepEqual(muted.mentions, []);
    const listed = (
      await post(ALICE_TOKEN, { content: `<@${CAROL_ID}> <@${DEMO_APP_ID}>`, allowed_mentions: { users: [CAROL_ID] } })
    ).body;
    assert.deepEqual(
      listed.mentions.map((u: Json) => u.id),
      [CAROL_ID],
    );
  });

  test('replies: an unknown message is 50035 REPLIES_UNKNOWN_MESSAGE unless fail_if_not_exists is false', async () => {
    const unknown = await post(ALICE_TOKEN, { content: 'reply', message_reference: { message_id: '1' } });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.errors.message_reference._errors[0].code, 'REPLIES_UNKNOWN_MESSAGE');
    const lenient = await post(ALICE_TOKEN, {
      content: 'reply',
      message_reference: { message_id: '1', fail_if_not_exists: false },
    });
    assert.equal(lenient.status, 200, lenient.text);
    assert.equal(lenient.body.type, 0);
    assert.equal(lenient.body.message_reference, undefined);
    const forward = await post(ALICE_TOKEN, { content: 'x', message_reference: { type: 1, message_id: '1' } });
    assert.ok(forward.body.errors.message_reference.type._errors.length > 0, forward.text);
    const target = (await post(CAROL_TOKEN, { content: 'quiet please' })).body;
    const noPing = await post(ALICE_TOKEN, {
      content: 'ok',
      message_reference: { message_id: target.id },
      allowed_mentions: { parse: [], replied_user: false },
    });
    assert.equal(noPing.body.type, 19);
    assert.deepEqual(noPing.body.mentions, [], 'replied_user: false mentions nobody');
  });

  test('edit and delete: the author only (50005 for another user); each told to bots', async () => {
    const sent = (await post(CAROL_TOKEN, { content: 'tpyo' })).body;
    const path = `/channels/${GENERAL}/messages/${sent.id}`;
    const edited = await server.request('PATCH', path, { auth: CAROL_TOKEN, body: { content: `typo <@${ALICE_ID}>` } });
    assert.equal(edited.status, 200, edited.text);
    assertMatchesSchema('MessageResponse', edited.body);
    assert.equal(edited.body.content, `typo <@${ALICE_ID}>`);
    assert.ok(edited.body.edited_timestamp);
    assert.deepEqual(
      edited.body.mentions.map((u: Json) => u.id),
      [ALICE_ID],
    );
    const update = await pingRaw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === sent.id, 'MESSAGE_UPDATE');
    assert.equal(update.d.content, `typo <@${ALICE_ID}>`);
    const others = await server.request('PATCH', path, { auth: BOB_TOKEN, body: { content: 'bob was here' } });
    assert.deepEqual([others.status, others.body.code], [403, 50005]);
    const bot = await server.request('PATCH', path, { auth: `Bot ${OTHER_BOT_TOKEN}`, body: { content: 'x' } });
    assert.deepEqual([bot.status, bot.body.code], [403, 50005]);
    assert.equal((await server.request('DELETE', path, { auth: CAROL_TOKEN })).status, 204);
    await pingRaw.find((p) => p.t === 'MESSAGE_DELETE' && p.d.id === sent.id, 'MESSAGE_DELETE');
    assert.equal((await server.request('GET', path, { auth: ALICE_TOKEN })).status, 404);
  });

  test('refusals: no VIEW_CHANNEL 50001, no SEND_MESSAGES 50013, empty 50006, ephemeral flag 50035', async () => {
    const cases: [string, unknown, number, number][] = [
      [SECRET, { content: 'x' }, 403, 50001],
      [ANNOUNCEMENTS, { content: 'x' }, 403, 50013],
      [GENERAL, {}, 400, 50006],
      [GENERAL, { content: 'x', flags: 64 }, 400, 50035],
    ];
    for (const [channelId, body, status, code] of cases) {
      const response = await post(CAROL_TOKEN, body, channelId);
      assert.deepEqual([response.status, response.body.code], [status, code], `${channelId}: ${response.text}`);
    }
  });
});
