/**
 * Channel webhooks over HTTP, on SQLite and PostgreSQL: a bot with MANAGE_WEBHOOKS creates (the
 * token answered once), lists, reads, edits and deletes its own; without the permission, in a
 * channel it cannot see, or as another app, it is refused as v10 refuses it; bad names and avatars
 * are 50035 at their paths; the 16th of a channel is 30007. With the token (no Authorization) the
 * webhook is read, edited, executed (204, or the message with `wait=true`, into a thread with
 * `thread_id`), and its messages read, edited and deleted; a wrong token is 50027, an unknown
 * webhook 10015. An interaction's follow-up on the same path shape still reaches its interaction.
 * Deleting the channel deletes its webhooks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { changeWorldGuild, grantBotBits, installBot } from '../../../test/helpers/guild-admin.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  HIDDEN,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECRET,
  TEST_GUILD_ID,
  THREAD,
} from '../../../test/helpers/world.js';
import { MAX_WEBHOOKS_PER_CHANNEL } from './rules.js';

type Json = any;

/** A forum channel the test adds: a webhook's message there starts a post. */
const FORUM = '1345183757107200030';

const OTHER = `Bot ${OTHER_BOT_TOKEN}`;
/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const AVATAR = `data:image/png;base64,${PNG_1X1}`;

function errorsOf(response: { status: number; body: Json; text: string }): Json {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.code, 50035, response.text);
  return response.body.errors;
}

for (const store of ['SQLite', 'PostgreSQL'] as const) {
  describe(`channel webhooks over HTTP (${store})`, () => {
    let server: TestServer;
    const schema = freshSchemaName('r7_webhooks');

    before(async () => {
      const options: ServerOptions =
        store === 'PostgreSQL' ? { db: postgresConnectionString, config: { dbSchema: schema } } : {};
      server = await startServer(options);
      await changeWorldGuild(server, TEST_GUILD_ID, (guild) => ({
        ...guild,
        channels: [
          ...guild.channels,
          {
            id: HIDDEN,
            type: 0,
            name: 'hidden-from-bots',
            permission_overwrites: [
              { id: DEMO_APP_ID, type: 1, allow: '0', deny: String(PermissionFlagsBits.ViewChannel) },
            ],
          },
          { id: SECRET, type: 0, name: 'full' },
          { id: FORUM, type: 15, name: 'releases' },
        ] as never,
      }));
    });
    after(async () => {
      await server?.close();
      if (store === 'PostgreSQL') await dropSchema(schema);
    });

    const create = (body: unknown, channel = GENERAL, auth = BOT) =>
      server.request('POST', `/channels/${channel}/webhooks`, { auth, body });

    test('without MANAGE_WEBHOOKS: 50013 on every bot route, nothing made', async () => {
      const refused = await create({ name: 'Deploys' });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      const listed = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: BOT });
      assert.equal(listed.body.code, 50013, listed.text);
      const guildListed = await server.request('GET', `/guilds/${TEST_GUILD_ID}/webhooks`, { auth: BOT });
      assert.equal(guildListed.body.code, 50013, guildListed.text);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
      const none = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: BOT });
      assert.deepEqual(none.body, [], none.text);
    });

    test('bad names and avatars: 50035 at their paths, nothing made', async () => {
      assert.equal(errorsOf(await create({}))?.name?._errors?.[0]?.code, 'BASE_TYPE_REQUIRED');
      assert.equal(errorsOf(await create({ name: '' })).name._errors[0].code, 'BASE_TYPE_BAD_LENGTH');
      assert.equal(errorsOf(await create({ name: 'x'.repeat(81) })).name._errors[0].code, 'BASE_TYPE_BAD_LENGTH');
      assert.equal(errorsOf(await create({ name: 'My Clyde' })).name._errors[0].code, 'WEBHOOK_INVALID_USERNAME');
      assert.equal(errorsOf(await create({ name: 'DISCORD news' })).name._errors[0].code, 'WEBHOOK_INVALID_USERNAME');
      const notImage = `data:image/png;base64,${Buffer.from('hello, not a png').toString('base64')}`;
      assert.equal(errorsOf(await create({ name: 'ok', avatar: notImage })).avatar._errors[0].code, 'IMAGE_INVALID');
      assert.equal(
        errorsOf(await create({ name: 'ok', avatar: 'https://x/y.png' })).avatar._errors[0].code,
        'IMAGE_INVALID',
      );
      assert.equal(errorsOf(await create({ name: 'ok', avatar: 12 })).avatar._errors[0].code, 'IMAGE_INVALID');
      const none = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: BOT });
      assert.deepEqual(none.body, []);
    });

    test('a hidden channel is 50001; a thread or a category cannot hold one', async () => {
      const hidden = await create({ name: 'Deploys' }, HIDDEN);
      assert.equal(hidden.status, 403, hidden.text);
      assert.equal(hidden.body.code, 50001);
      const inThread = await create({ name: 'Deploys' }, THREAD);
      assert.equal(inThread.body.code, 50024, inThread.text);
    });

    let webhook: Json;
    test('create: the webhook with its token and URL; the avatar served at its hash', async () => {
      const created = await create({ name: 'Deploys', avatar: AVATAR });
      assert.equal(created.status, 200, created.text);
      webhook = created.body;
      assert.equal(webhook.type, 1);
      assert.equal(webhook.channel_id, GENERAL);
      assert.equal(webhook.guild_id, TEST_GUILD_ID);
      assert.equal(webhook.application_id, DEMO_APP_ID);
      assert.equal(webhook.user.id, DEMO_APP_ID);
      assert.match(webhook.token, /^[A-Za-z0-9_-]{68}$/);
      assert.equal(webhook.url, `${server.url}/api/webhooks/${webhook.id}/${webhook.token}`);
      assert.match(webhook.avatar, /^[0-9a-f]{32}$/);
      const image = await fetch(`${server.url}/avatars/${webhook.id}/${webhook.avatar}.png`);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), Buffer.from(PNG_1X1, 'base64'));
      assert.equal((await fetch(`${server.url}/avatars/${webhook.id}/${'0'.repeat(32)}.png`)).status, 404);
    });

    test('reads: by the bot without the token, by the token without its creator', async () => {
      const listed = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: BOT });
      assert.deepEqual(
        listed.body.map((w: Json) => w.id),
        [webhook.id],
      );
      assert.equal(listed.body[0].token, undefined, 'the token is answered on create only');
      const inGuild = await server.request('GET', `/guilds/${TEST_GUILD_ID}/webhooks`, { auth: BOT });
      assert.deepEqual(
        inGuild.body.map((w: Json) => w.id),
        [webhook.id],
      );
      const one = await server.request('GET', `/webhooks/${webhook.id}`, { auth: BOT });
      assert.equal(one.body.name, 'Deploys', one.text);
      const byToken = await server.request('GET', `/webhooks/${webhook.id}/${webhook.token}`, { auth: null });
      assert.equal(byToken.status, 200, byToken.text);
      assert.equal(byToken.body.name, 'Deploys');
      assert.equal(byToken.body.user, undefined);
    });

    test('another app: cannot see, edit or delete it, and holds no token of it', async () => {
      await installBot(server, TEST_GUILD_ID, OTHER_APP_ID, PermissionFlagsBits.Administrator);
      const listed = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: OTHER });
      assert.deepEqual(listed.body, [], listed.text);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const tried = await server.request(method, `/webhooks/${webhook.id}`, {
          auth: OTHER,
          ...(method === 'PATCH' ? { body: { name: 'mine now' } } : {}),
        });
        assert.equal(tried.status, 404, `${method}: ${tried.text}`);
        assert.equal(tried.body.code, 10015);
      }
    });

    test('a wrong token is 50027, an unknown webhook 10015, on every token route', async () => {
      const wrong = `/webhooks/${webhook.id}/${'x'.repeat(68)}`;
      for (const [method, path] of [
        ['GET', wrong],
        ['PATCH', wrong],
        ['DELETE', wrong],
        ['POST', wrong],
        ['GET', `${wrong}/messages/1`],
      ] as const) {
        const body = method === 'GET' || method === 'DELETE' ? {} : { body: { content: 'x', name: 'x' } };
        const tried = await server.request(method, path, { auth: null, ...body });
        assert.equal(tried.status, 401, `${method} ${path}: ${tried.text}`);
        assert.equal(tried.body.code, 50027);
      }
      // A large body behind a wrong token is refused before it is read.
      const large = await server.request('PATCH', wrong, {
        auth: null,
        body: { avatar: `data:image/png;base64,${'A'.repeat(8 * 1024 * 1024)}` },
      });
      assert.equal(large.body.code, 50027, large.text);
      const unknown = await server.request('POST', `/webhooks/1399999999999999999/${webhook.token}`, {
        auth: null,
        body: { content: 'x' },
      });
      assert.equal(unknown.status, 404, unknown.text);
      assert.equal(unknown.body.code, 10015);
    });

    let sent: Json;
    test('execute: 204 without wait; the message with wait=true, written by the webhook', async () => {
      const path = `/webhooks/${webhook.id}/${webhook.token}`;
      const quiet = await server.request('POST', path, { auth: null, body: { content: 'deploy started' } });
      assert.equal(quiet.status, 204, quiet.text);
      const waited = await server.request('POST', `${path}?wait=true`, {
        auth: null,
        body: {
          content: 'deploy done @everyone',
          username: 'CI',
          embeds: [{ title: 'v1.2.3' }],
          allowed_mentions: { parse: ['everyone'] },
        },
      });
      assert.equal(waited.status, 200, waited.text);
      sent = waited.body;
      assert.equal(sent.webhook_id, webhook.id);
      assert.equal(sent.application_id, DEMO_APP_ID);
      const { id, username, avatar, discriminator, bot } = sent.author;
      assert.deepEqual(
        { id, username, avatar, discriminator, bot },
        { id: webhook.id, username: 'CI', avatar: webhook.avatar, discriminator: '0000', bot: true },
      );
      assert.equal(sent.mention_everyone, true);
      assert.equal(sent.embeds[0].title, 'v1.2.3');
      const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
      assert.equal(read.body.webhook_id, webhook.id, read.text);
      const badName = await server.request('POST', path, { auth: null, body: { content: 'x', username: 'clyde' } });
      assert.equal(errorsOf(badName).username._errors[0].code, 'WEBHOOK_INVALID_USERNAME');
      const empty = await server.request('POST', path, { auth: null, body: {} });
      assert.equal(empty.status, 400, empty.text);
    });

    test('thread_id: into a thread of the channel; any other channel is 10003', async () => {
      const path = `/webhooks/${webhook.id}/${webhook.token}`;
      const inThread = await server.request('POST', `${path}?wait=true&thread_id=${THREAD}`, {
        auth: null,
        body: { content: 'in the thread' },
      });
      assert.equal(inThread.status, 200, inThread.text);
      assert.equal(inThread.body.channel_id, THREAD);
      const elsewhere = await server.request('POST', `${path}?thread_id=${SECRET}`, {
        auth: null,
        body: { content: 'not a thread of it' },
      });
      assert.equal(elsewhere.status, 404, elsewhere.text);
      assert.equal(elsewhere.body.code, 10003);
      const got = await server.request('GET', `${path}/messages/${inThread.body.id}?thread_id=${THREAD}`, {
        auth: null,
      });
      assert.equal(got.body.content, 'in the thread', got.text);
    });

    test('a forum: thread_name starts a post (its starter has the thread’s id); neither name nor thread is 220001', async () => {
      const made = await create({ name: 'Forum poster' }, FORUM);
      assert.equal(made.status, 200, made.text);
      const path = `/webhooks/${made.body.id}/${made.body.token}`;
      const nameless = await server.request('POST', path, { auth: null, body: { content: 'where?' } });
      assert.equal(nameless.status, 400, nameless.text);
      assert.equal(nameless.body.code, 220001);
      const badBody = await server.request('POST', path, { auth: null, body: { thread_name: 'v3', embeds: 'x' } });
      assert.equal(badBody.status, 400, badBody.text);
      const started = await server.request('POST', `${path}?wait=true`, {
        auth: null,
        body: { thread_name: 'Release v3', content: 'notes for v3' },
      });
      assert.equal(started.status, 200, started.text);
      const threadId = started.body.channel_id;
      assert.equal(started.body.id, threadId, 'the starter message has the thread’s id');
      const thread = await server.request('GET', `/channels/${threadId}`, { auth: BOT });
      assert.equal(thread.status, 200, thread.text);
      assert.deepEqual([thread.body.type, thread.body.name, thread.body.parent_id], [11, 'Release v3', FORUM]);
      assert.equal(thread.body.owner_id, made.body.id);
      const active = await server.request('GET', `/guilds/${TEST_GUILD_ID}/threads/active`, { auth: BOT });
      assert.deepEqual(
        active.body.threads.filter((t: Json) => t.parent_id === FORUM).map((t: Json) => t.id),
        [threadId],
        'the refused body started no post',
      );
      const reply = await server.request('POST', `${path}?wait=true&thread_id=${threadId}`, {
        auth: null,
        body: { content: 'a follow-up in the post' },
      });
      assert.equal(reply.body.channel_id, threadId, reply.text);
      await server.request('DELETE', `/webhooks/${made.body.id}`, { auth: BOT });
    });

    test('its messages: read, edited and deleted with the token; another’s is 10008', async () => {
      const path = `/webhooks/${webhook.id}/${webhook.token}/messages`;
      const got = await server.request('GET', `${path}/${sent.id}`, { auth: null });
      assert.equal(got.status, 200, got.text);
      assert.equal(got.body.content, 'deploy done @everyone');
      const edited = await server.request('PATCH', `${path}/${sent.id}`, { auth: null, body: { content: 'edited' } });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.content, 'edited');
      assert.notEqual(edited.body.edited_timestamp, null);
      const bot = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: 'mine' },
      });
      const notItsOwn = await server.request('PATCH', `${path}/${bot.body.id}`, { auth: null, body: { content: 'x' } });
      assert.equal(notItsOwn.status, 404, notItsOwn.text);
      assert.equal(notItsOwn.body.code, 10008);
      const deleted = await server.request('DELETE', `${path}/${sent.id}`, { auth: null });
      assert.equal(deleted.status, 204, deleted.text);
      const gone = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
      assert.equal(gone.body.code, 10008);
    });

    test('edit: by the bot (name, avatar removed) and by the token (name); bad values are 50035', async () => {
      const byBot = await server.request('PATCH', `/webhooks/${webhook.id}`, {
        auth: BOT,
        body: { name: 'Releases', avatar: null },
      });
      assert.equal(byBot.status, 200, byBot.text);
      assert.equal(byBot.body.name, 'Releases');
      assert.equal(byBot.body.avatar, null);
      const byToken = await server.request('PATCH', `/webhooks/${webhook.id}/${webhook.token}`, {
        auth: null,
        body: { name: 'Nightly' },
      });
      assert.equal(byToken.body.name, 'Nightly', byToken.text);
      const bad = await server.request('PATCH', `/webhooks/${webhook.id}`, { auth: BOT, body: { name: 'discord' } });
      assert.equal(errorsOf(bad).name._errors[0].code, 'WEBHOOK_INVALID_USERNAME');
    });

    test(`the ${MAX_WEBHOOKS_PER_CHANNEL + 1}th webhook of a channel is 30007`, async () => {
      for (let i = 0; i < MAX_WEBHOOKS_PER_CHANNEL; i++) {
        const made = await create({ name: `hook ${i}` }, SECRET);
        assert.equal(made.status, 200, made.text);
      }
      const refused = await create({ name: 'one more' }, SECRET);
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 30007);
      const listed = await server.request('GET', `/channels/${SECRET}/webhooks`, { auth: BOT });
      assert.equal(listed.body.length, MAX_WEBHOOKS_PER_CHANNEL);
    });

    test('delete by the token, then by the bot; deleting the channel deletes its webhooks', async () => {
      const deleted = await server.request('DELETE', `/webhooks/${webhook.id}/${webhook.token}`, { auth: null });
      assert.equal(deleted.status, 204, deleted.text);
      const gone = await server.request('GET', `/webhooks/${webhook.id}/${webhook.token}`, { auth: null });
      assert.equal(gone.body.code, 10015);
      const another = await create({ name: 'Short lived' });
      const byBot = await server.request('DELETE', `/webhooks/${another.body.id}`, { auth: BOT });
      assert.equal(byBot.status, 204, byBot.text);
      const full = await server.request('GET', `/channels/${SECRET}/webhooks`, { auth: BOT });
      const first = full.body[0];
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageChannels);
      const channelGone = await server.request('DELETE', `/channels/${SECRET}`, { auth: BOT });
      assert.equal(channelGone.status, 200, channelGone.text);
      const after = await server.request('GET', `/guilds/${TEST_GUILD_ID}/webhooks`, { auth: BOT });
      assert.deepEqual(after.body, [], after.text);
      const byId = await server.request('GET', `/webhooks/${first.id}`, { auth: BOT });
      assert.equal(byId.body.code, 10015);
    });
  });
}
