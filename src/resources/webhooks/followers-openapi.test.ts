/**
 * The operations of issue 37's second half, over HTTP and against the public v10 OpenAPI document:
 * `POST /channels/{c}/followers` (ChannelFollowerResponse; the follower webhook read back as a
 * ChannelFollowerWebhookResponse with its source), `POST …/messages/{m}/crosspost`
 * (MessageResponse: CROSSPOSTED on the original, a copy with IS_CROSSPOST and the original's
 * `message_reference` in the following channel), `/slack` (SlackWebhook in, the string `ok` out)
 * and `/github` (GithubWebhook in, 204), each refusal an ErrorResponse with v10's code; on both stores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { ANNOUNCEMENT_MESSAGE, announcementWorld } from '../../../test/helpers/announcement-world.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, ANNOUNCEMENTS, BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

const FOLLOW = '/channels/{channel_id}/followers';
const CROSSPOST = '/channels/{channel_id}/messages/{message_id}/crosspost';
const SLACK = '/webhooks/{webhook_id}/{webhook_token}/slack';
const GITHUB = '/webhooks/{webhook_id}/{webhook_token}/github';

for (const store of ['sqlite', 'postgres'] as const) describeOperations(store);

function describeOperations(store: 'sqlite' | 'postgres'): void {
  describe(`followers, crossposts, /slack and /github against the OpenAPI document (${store})`, () => {
    let server: TestServer;
    let followerId: string;
    const schema = freshSchemaName('r8_followers');

    before(async () => {
      server = await injectServer(
        store === 'postgres'
          ? { world: announcementWorld(), db: postgresConnectionString, config: { dbSchema: schema } }
          : { world: announcementWorld() },
      );
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
    });
    after(async () => {
      await server?.close();
      if (store === 'postgres') await dropSchema(schema);
    });

    async function refused(method: string, path: string, status: number, code: number, body?: Json, auth = BOT) {
      const response = await server.request(method, path, { auth, body });
      assertErrorBody(response.status, response.body);
      assert.deepEqual([response.status, response.body.code], [status, code], response.text);
    }

    async function channelMessages(channelId: string): Promise<Json[]> {
      const read = await server.request('GET', `/channels/${channelId}/messages?limit=50`, { auth: BOT });
      assert.equal(read.status, 200, read.text);
      return read.body;
    }

    test('follow: the followed channel object; the webhook is type 2 with its source guild and channel', async () => {
      const body = { webhook_channel_id: GENERAL };
      assertMatchesOperation('POST', FOLLOW, 'request', body);
      const followed = await server.request('POST', `/channels/${ANNOUNCEMENTS}/followers`, { auth: BOT, body });
      assert.equal(followed.status, 200, followed.text);
      assertMatchesOperation('POST', FOLLOW, 200, followed.body);
      assert.equal(followed.body.channel_id, ANNOUNCEMENTS);
      followerId = followed.body.webhook_id;

      const hook = await server.request('GET', `/webhooks/${followerId}`, { auth: BOT });
      assert.equal(hook.status, 200, hook.text);
      assertMatchesOperation('GET', '/webhooks/{webhook_id}', 200, hook.body);
      assert.equal(hook.body.type, 2);
      assert.equal(hook.body.channel_id, GENERAL);
      assert.equal(hook.body.application_id, null);
      assert.deepEqual(hook.body.source_channel, { id: ANNOUNCEMENTS, name: 'announcements' });
      assert.equal(hook.body.source_guild.id, TEST_GUILD_ID);
      assert.equal(hook.body.name, `${hook.body.source_guild.name} #announcements`);
      const listed = await server.request('GET', `/channels/${GENERAL}/webhooks`, { auth: BOT });
      assert.deepEqual(
        listed.body.map((w: Json) => [w.id, w.type]),
        [[followerId, 2]],
      );
    });

    test('follow refusals: a channel that is no announcement channel 50024, a body without the id 50035', async () => {
      await refused('POST', `/channels/${GENERAL}/followers`, 400, 50024, { webhook_channel_id: ANNOUNCEMENTS });
      await refused('POST', `/channels/${ANNOUNCEMENTS}/followers`, 400, 50035, {});
      await refused('POST', `/channels/${ANNOUNCEMENTS}/followers`, 400, 50035, { webhook_channel_id: 'general' });
      await refused('POST', `/channels/${ANNOUNCEMENTS}/followers`, 404, 10003, {
        webhook_channel_id: '1399999999999999999',
      });
    });

    test('crosspost: the original marked CROSSPOSTED (MessageResponse), a copy in the follower’s channel', async () => {
      const posted = await server.request('POST', `/channels/${ANNOUNCEMENTS}/messages`, {
        auth: BOT,
        body: { content: 'Release 2.0 is out', embeds: [{ title: 'Changelog' }] },
      });
      assert.equal(posted.status, 200, posted.text);
      const path = `/channels/${ANNOUNCEMENTS}/messages/${posted.body.id}/crosspost`;
      const published = await server.request('POST', path, { auth: BOT });
      assert.equal(published.status, 200, published.text);
      assertMatchesOperation('POST', CROSSPOST, 200, published.body);
      assert.equal(published.body.flags & 1, 1, 'CROSSPOSTED');
      assert.equal(
        (await server.request('GET', `/channels/${ANNOUNCEMENTS}/messages/${posted.body.id}`, { auth: BOT })).body
          .flags & 1,
        1,
      );

      const copy = (await channelMessages(GENERAL)).find((m) => m.message_reference?.message_id === posted.body.id);
      assert.ok(copy, 'the copy is in #general');
      assert.equal(copy.content, 'Release 2.0 is out');
      assert.equal(copy.embeds[0].title, 'Changelog');
      assert.equal(copy.flags, 2, 'IS_CROSSPOST');
      assert.equal(copy.type, 0);
      assert.equal(copy.webhook_id, followerId);
      assert.equal(copy.author.id, followerId);
      assert.equal(copy.author.bot, true);
      assert.deepEqual(copy.message_reference, {
        type: 0,
        message_id: posted.body.id,
        channel_id: ANNOUNCEMENTS,
        guild_id: TEST_GUILD_ID,
      });
      assert.equal(copy.referenced_message, undefined, 'a crosspost is no reply');

      // An edit's flags keep CROSSPOSTED (only slashd sets it).
      const edited = await server.request('PATCH', `/channels/${ANNOUNCEMENTS}/messages/${posted.body.id}`, {
        auth: BOT,
        body: { content: 'Release 2.0 is out (edited)', flags: 4 },
      });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.flags, 1 | 4);
      await refused('POST', path, 400, 40033);
      // The copy itself is in a text channel: 50024; a copy cannot be crossposted again.
      await refused('POST', `/channels/${GENERAL}/messages/${copy.id}/crosspost`, 400, 50024);
      await refused('POST', `/channels/${ANNOUNCEMENTS}/messages/1399999999999999999/crosspost`, 404, 10008);
    });

    test('crosspost of another’s message needs MANAGE_MESSAGES (50013 without)', async () => {
      const alices = await server.request('POST', `/channels/${ANNOUNCEMENTS}/messages`, {
        auth: ALICE_TOKEN,
        body: { content: 'from alice' },
      });
      assert.equal(alices.status, 200, alices.text);
      const path = `/channels/${ANNOUNCEMENTS}/messages/${alices.body.id}/crosspost`;
      await refused('POST', path, 403, 50013);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageMessages);
      const published = await server.request('POST', path, { auth: BOT });
      assert.equal(published.status, 200, published.text);
      assert.equal(published.body.author.id, alices.body.author.id, 'still alice’s message');
      // A world-file message is published too: copied into the store, then marked there.
      const seeded = `/channels/${ANNOUNCEMENTS}/messages/${ANNOUNCEMENT_MESSAGE}`;
      const fromWorld = await server.request('POST', `${seeded}/crosspost`, { auth: BOT });
      assert.equal(fromWorld.status, 200, fromWorld.text);
      assert.deepEqual([fromWorld.body.content, fromWorld.body.flags], ['Welcome', 1]);
      assert.equal((await server.request('GET', seeded, { auth: BOT })).body.flags, 1);
      assert.ok((await channelMessages(GENERAL)).some((m) => m.message_reference?.message_id === ANNOUNCEMENT_MESSAGE));
      await refused('POST', `${seeded}/crosspost`, 400, 40033);
    });

    test('/slack: a SlackWebhook body posts text, username and attachments as embeds; answers ok', async () => {
      const made = await server.request('POST', `/channels/${GENERAL}/webhooks`, { auth: BOT, body: { name: 'CI' } });
      assert.equal(made.status, 200, made.text);
      const base = `/webhooks/${made.body.id}/${made.body.token}`;
      const body = {
        text: 'Build *passed*',
        username: 'Jenkins',
        icon_url: 'https://ci.example/icon.png',
        attachments: [
          {
            title: 'Build #42',
            title_link: 'https://ci.example/42',
            text: 'All green',
            color: '#36a64f',
            footer: 'ci',
            ts: 1700000000,
            fields: [{ name: 'Branch', value: 'main', inline: true }],
          },
        ],
      };
      assertMatchesOperation('POST', SLACK, 'request', body);
      const answered = await server.request('POST', `${base}/slack`, { body });
      assert.equal(answered.status, 200, answered.text);
      assert.equal(answered.text, 'ok');
      assertMatchesOperation('POST', SLACK, 200, answered.text);

      const message = (await channelMessages(GENERAL)).find((m) => m.content === 'Build *passed*');
      assert.ok(message, 'the Slack message is in #general');
      assert.equal(message.author.username, 'Jenkins');
      assert.match(message.author.avatar, /^[0-9a-f]{32}$/, 'the icon_url shown by its hash');
      assert.deepEqual(message.embeds, [
        {
          type: 'rich',
          title: 'Build #42',
          url: 'https://ci.example/42',
          description: 'All green',
          color: 0x36a64f,
          footer: { text: 'ci' },
          timestamp: '2023-11-14T22:13:20.000Z',
          fields: [{ name: 'Branch', value: 'main', inline: true }],
        },
      ]);

      const waited = await server.request('POST', `${base}/slack?wait=true`, { body: { text: 'with wait' } });
      assert.equal(waited.status, 200, waited.text);
      assert.equal(waited.body.content, 'with wait');
      assertMatchesOperation('POST', '/webhooks/{webhook_id}/{webhook_token}', 200, waited.body);
      const form = await server.request('POST', `${base}/slack`, {
        rawBody: `payload=${encodeURIComponent(JSON.stringify({ text: 'as a form' }))}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.deepEqual([form.status, form.text], [200, 'ok']);
      assert.ok((await channelMessages(GENERAL)).some((m) => m.content === 'as a form'));

      await refused('POST', `${base}/slack`, 400, 50035, { text: 'x', username: 'discord' }, null as never);
      await refused(
        'POST',
        `/webhooks/${made.body.id}/${'x'.repeat(68)}/slack`,
        401,
        50027,
        { text: 'x' },
        null as never,
      );
    });

    test('execute with a poll (wait=true): request and answer as the document has them; a bad poll is 50035 at its path', async () => {
      const made = await server.request('POST', `/channels/${GENERAL}/webhooks`, {
        auth: BOT,
        body: { name: 'Poller' },
      });
      const execute = '/webhooks/{webhook_id}/{webhook_token}';
      const body = {
        poll: {
          question: { text: 'Coffee?' },
          answers: [{ poll_media: { text: 'Yes' } }, { poll_media: { text: 'No' } }],
        },
        avatar_url: 'https://images.example/cup.png',
      };
      assertMatchesOperation('POST', execute, 'request', body);
      const sent = await server.request('POST', `/webhooks/${made.body.id}/${made.body.token}?wait=true`, { body });
      assert.equal(sent.status, 200, sent.text);
      assertMatchesOperation('POST', execute, 200, sent.body);
      assert.equal(sent.body.poll.question.text, 'Coffee?');
      assert.deepEqual(
        sent.body.poll.answers.map((a: Json) => a.answer_id),
        [1, 2],
      );
      const voted = await server.request('PUT', `/channels/${GENERAL}/polls/${sent.body.id}/answers/@me`, {
        auth: ALICE_TOKEN,
        body: { answer_ids: [2] },
      });
      assert.equal(voted.status, 204, voted.text);
      const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: ALICE_TOKEN });
      assert.deepEqual(read.body.poll.results.answer_counts, [{ id: 2, count: 1, me_voted: true }]);
      // The avatar_url's hash, and nothing served there.
      const avatar = await server.request('GET', `/avatars/${made.body.id}/${read.body.author.avatar}.png`);
      assert.equal(avatar.status, 404);
      const bad = await server.request('POST', `/webhooks/${made.body.id}/${made.body.token}`, {
        body: { poll: { question: { text: 'Empty?' }, answers: [] } },
      });
      assert.equal(bad.status, 400, bad.text);
      assertErrorBody(bad.status, bad.body);
      assert.ok(bad.body.errors?.poll?.answers, bad.text);
    });

    test('/github: a push posts one embed; an event not posted is 204 and sends nothing', async () => {
      const made = await server.request('POST', `/channels/${GENERAL}/webhooks`, { auth: BOT, body: { name: 'Repo' } });
      const base = `/webhooks/${made.body.id}/${made.body.token}`;
      const sender = {
        id: 1,
        login: 'octocat',
        html_url: 'https://github.com/octocat',
        avatar_url: 'https://a.example/o.png',
      };
      const push = {
        ref: 'refs/heads/main',
        compare: 'https://github.com/octo/app/compare/a...b',
        repository: { id: 7, name: 'app', full_name: 'octo/app', html_url: 'https://github.com/octo/app' },
        sender,
        commits: [
          {
            id: '0123456789abcdef0123456789abcdef01234567',
            url: 'https://github.com/octo/app/commit/0123456',
            message: 'Fix the build\n\nLonger text',
            author: { username: 'octocat', name: 'Octo Cat' },
          },
        ],
      };
      assertMatchesOperation('POST', GITHUB, 'request', push);
      const posted = await server.request('POST', `${base}/github`, {
        body: push,
        headers: { 'x-github-event': 'push' },
      });
      assert.equal(posted.status, 204, posted.text);
      assert.equal(posted.text, '');
      const message = (await channelMessages(GENERAL)).find((m) => m.webhook_id === made.body.id);
      assert.ok(message, 'the push is in #general');
      assert.equal(message.embeds.length, 1);
      const [embed] = message.embeds;
      assert.equal(embed.title, '[octo/app:main] 1 new commit');
      assert.equal(embed.url, push.compare);
      assert.equal(
        embed.description,
        '[`0123456`](https://github.com/octo/app/commit/0123456) Fix the build - octocat',
      );
      assert.deepEqual(embed.author, { name: 'octocat', icon_url: sender.avatar_url, url: sender.html_url });

      const issue = {
        action: 'opened',
        issue: {
          id: 3,
          number: 12,
          title: 'Crash on start',
          html_url: 'https://github.com/octo/app/issues/12',
          body: 'It crashes',
          user: sender,
        },
        repository: push.repository,
        sender,
      };
      const opened = await server.request('POST', `${base}/github`, {
        body: issue,
        headers: { 'x-github-event': 'issues' },
      });
      assert.equal(opened.status, 204, opened.text);
      const issueMessage = (await channelMessages(GENERAL)).find((m) => m.embeds[0]?.title?.includes('Issue opened'));
      assert.equal(issueMessage?.embeds[0].title, '[octo/app] Issue opened: #12 Crash on start');
      assert.equal(issueMessage?.embeds[0].description, 'It crashes');

      const before = (await channelMessages(GENERAL)).length;
      const ping = await server.request('POST', `${base}/github`, {
        body: { zen: 'Keep it simple', sender },
        headers: { 'x-github-event': 'ping' },
      });
      assert.equal(ping.status, 204, ping.text);
      assert.equal((await channelMessages(GENERAL)).length, before, 'ping posts nothing');
      await refused('POST', `/webhooks/${made.body.id}/${'x'.repeat(68)}/github`, 401, 50027, push, null as never);
    });
  });
}
