/**
 * Polls over real HTTP and the gateway, on SQLite and PostgreSQL (issue 37): a `poll` on a new
 * message (its rules at their 50035 paths, SEND_POLLS, never edited: 520003), rendered on every
 * read and in MESSAGE_CREATE (OpenAPI's MessageResponse); users' votes (`PUT`/`DELETE
 * …/answers/@me`) with the multiselect rules, told as MESSAGE_POLL_VOTE_ADD/REMOVE under
 * GUILD_MESSAGE_POLLS only; the voters paged (PollAnswerDetailsResponse); the author ending a poll
 * (others 50005); a hidden channel's poll neither read nor voted in; and the end by the node's
 * clock, found by two nodes at once, posting exactly one poll result message (type 46).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { WorldEvents } from '../../events/world-events.js';
import { unsignedPaths } from '../attachments/rules/signed-urls.js';
import { MessageRenderer } from '../messages/renderer.js';
import { PollsService } from './service.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertErrorBody, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  GENERAL,
  NSFW_LOUNGE,
  OTHER_BOT_TOKEN,
  SECRET,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const SEND_POLLS = 1n << 49n;
const HOUR_MS = 3_600_000;

/** The gateway world with SEND_POLLS for everyone, but in the NSFW lounge. */
function pollsWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const everyone = guild.roles.find((r) => r.id === TEST_GUILD_ID)!;
  everyone.permissions = (BigInt(everyone.permissions) | SEND_POLLS).toString();
  const lounge = guild.channels.find((c) => c.id === NSFW_LOUNGE)!;
  lounge.permission_overwrites = [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: SEND_POLLS.toString() }];
  return world;
}

const POLL = {
  question: { text: 'Lunch?' },
  answers: [
    { poll_media: { text: 'Pizza', emoji: { name: '🍕' } } },
    { poll_media: { text: 'Soup' } },
    { poll_media: { text: 'Salad', emoji: { id: '1345183757107200901', name: 'greens' } } },
  ],
  duration: 2,
};

/** The `errors` tree's codes by dotted path. */
function codesOf(errors: Json, prefix = ''): [string, string][] {
  return Object.entries(errors).flatMap(([key, value]) =>
    key === '_errors'
      ? (value as { code: string }[]).map((e): [string, string] => [prefix, e.code])
      : codesOf(value as Json, prefix ? `${prefix}.${key}` : key),
  );
}

function describePolls(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: polls`, () => {
    let clock = Date.now();
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => String(p.t));

    before(async () => {
      server = await startServer({ ...options(), world: pollsWorld(), now: () => clock });
      watcher = await watchingBot(
        server,
        OTHER_BOT_TOKEN,
        [
          GatewayIntentBits.Guilds,
          GatewayIntentBits.GuildMessages,
          GatewayIntentBits.MessageContent,
          GatewayIntentBits.GuildMessagePolls,
        ],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    async function send(body: Json, auth = BOT, channel = GENERAL): Promise<Json> {
      const sent = await server.request('POST', `/channels/${channel}/messages`, { auth, body });
      assert.equal(sent.status, 200, sent.text);
      return sent.body;
    }
    async function read(id: string, auth = BOT): Promise<Json> {
      const got = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth });
      assert.equal(got.status, 200, got.text);
      assertMatchesSchema('MessageResponse', got.body);
      return got.body;
    }
    function vote(id: string, answerIds: unknown[], auth: string) {
      return server.request('PUT', `/channels/${GENERAL}/polls/${id}/answers/@me`, {
        auth,
        body: { answer_ids: answerIds },
      });
    }

    test('a poll refused at its 50035 paths stores nothing; SEND_POLLS is needed', async () => {
      const cases: [Json, [string, string][]][] = [
        [{ answers: POLL.answers }, [['poll.question', 'BASE_TYPE_REQUIRED']]],
        [{ ...POLL, question: { text: '' } }, [['poll.question.text', 'BASE_TYPE_BAD_LENGTH']]],
        [{ ...POLL, question: { text: 'q'.repeat(301) } }, [['poll.question.text', 'BASE_TYPE_BAD_LENGTH']]],
        [{ ...POLL, answers: [] }, [['poll.answers', 'BASE_TYPE_MIN_LENGTH']]],
        [
          { ...POLL, answers: Array.from({ length: 11 }, (_, i) => ({ poll_media: { text: `a${i}` } })) },
          [['poll.answers', 'BASE_TYPE_MAX_LENGTH']],
        ],
        [
          { ...POLL, answers: [{ poll_media: { text: 'x'.repeat(56) } }, { poll_media: {} }] },
          [
            ['poll.answers.0.poll_media.text', 'BASE_TYPE_BAD_LENGTH'],
            ['poll.answers.1.poll_media.text', 'BASE_TYPE_REQUIRED'],
          ],
        ],
        [
          { ...POLL, answers: [{ poll_media: { text: 'a', emoji: {} } }] },
          [['poll.answers.0.poll_media.emoji.name', 'BASE_TYPE_REQUIRED']],
        ],
        [{ ...POLL, duration: 0 }, [['poll.duration', 'NUMBER_TYPE_MIN']]],
        [{ ...POLL, duration: 769 }, [['poll.duration', 'NUMBER_TYPE_MAX']]],
        [{ ...POLL, layout_type: 2 }, [['poll.layout_type', 'BASE_TYPE_CHOICES']]],
        [{ ...POLL, allow_multiselect: 'yes' }, [['poll.allow_multiselect', 'BOOLEAN_TYPE_CONVERT']]],
      ];
      const before = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: BOT });
      for (const [poll, expected] of cases) {
        const refused = await server.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { poll } });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 50035);
        assertErrorBody(refused.status, refused.body);
        assert.deepEqual(codesOf(refused.body.errors), expected, JSON.stringify(poll));
      }
      const afterwards = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: BOT });
      assert.equal(afterwards.body.length, before.body.length);
      const noPermission = await server.request('POST', `/channels/${NSFW_LOUNGE}/messages`, {
        auth: CAROL_TOKEN,
        body: { poll: POLL },
      });
      assert.deepEqual([noPermission.status, noPermission.body.code], [403, 50013]);
      await send({ content: 'no poll, no SEND_POLLS needed' }, CAROL_TOKEN, NSFW_LOUNGE);
    });

    test('a poll is rendered on create, read, list and MESSAGE_CREATE; an edit cannot touch it (520003)', async () => {
      assertMatchesSchema('PollCreateRequest', POLL);
      const sent = await send({ content: 'vote!', poll: POLL });
      assertMatchesSchema('MessageResponse', sent);
      assert.deepEqual(sent.poll, {
        question: { text: 'Lunch?' },
        answers: [
          { answer_id: 1, poll_media: { text: 'Pizza', emoji: { id: null, name: '🍕' } } },
          { answer_id: 2, poll_media: { text: 'Soup' } },
          {
            answer_id: 3,
            poll_media: { text: 'Salad', emoji: { id: '1345183757107200901', name: 'greens', animated: false } },
          },
        ],
        expiry: new Date(clock + 2 * HOUR_MS).toISOString(),
        allow_multiselect: false,
        layout_type: 1,
        results: { is_finalized: false, answer_counts: [] },
      });
      assert.deepEqual((await read(sent.id, ALICE_TOKEN)).poll, sent.poll);
      const listed = await server.request('GET', `/channels/${GENERAL}/messages?limit=5`, { auth: BOT });
      assert.deepEqual(listed.body.find((m: Json) => m.id === sent.id).poll, sent.poll);
      const created = await raw.find((p) => p.t === 'MESSAGE_CREATE' && p.d.id === sent.id, 'MESSAGE_CREATE');
      assert.deepEqual(created.d.poll, sent.poll);

      const edit = await server.request('PATCH', `/channels/${GENERAL}/messages/${sent.id}`, {
        auth: BOT,
        body: { poll: POLL },
      });
      assert.deepEqual([edit.status, edit.body.code, edit.body.message], [400, 520003, 'Cannot edit a poll message']);
      const text = await server.request('PATCH', `/channels/${GENERAL}/messages/${sent.id}`, {
        auth: BOT,
        body: { content: 'vote now!' },
      });
      assert.equal(text.status, 200, text.text);
      assert.deepEqual(text.body.poll.answers, sent.poll.answers);
    });

    test('users vote, change and take back their votes; bots are told under GUILD_MESSAGE_POLLS', async () => {
      const poll = await send({ poll: POLL });
      const voted = await vote(poll.id, ['1'], BOB_TOKEN);
      assert.equal(voted.status, 204, voted.text);
      const added = await raw.find((p) => p.t === 'MESSAGE_POLL_VOTE_ADD' && p.d.message_id === poll.id, 'vote add');
      assert.deepEqual(added.d, {
        user_id: BOB_ID,
        channel_id: GENERAL,
        message_id: poll.id,
        guild_id: TEST_GUILD_ID,
        answer_id: 1,
      });
      assert.deepEqual((await read(poll.id, BOB_TOKEN)).poll.results, {
        is_finalized: false,
        answer_counts: [{ id: 1, count: 1, me_voted: true }],
      });
      assert.deepEqual((await read(poll.id, CAROL_TOKEN)).poll.results.answer_counts, [
        { id: 1, count: 1, me_voted: false },
      ]);

      assert.equal((await vote(poll.id, [2], BOB_TOKEN)).status, 204);
      const removed = await raw.find(
        (p) => p.t === 'MESSAGE_POLL_VOTE_REMOVE' && p.d.message_id === poll.id,
        'vote remove',
      );
      assert.equal(removed.d.answer_id, 1);
      await raw.find((p) => p.t === 'MESSAGE_POLL_VOTE_ADD' && p.d.message_id === poll.id && p.d.answer_id === 2, '2');
      assert.deepEqual((await read(poll.id, BOB_TOKEN)).poll.results.answer_counts, [
        { id: 2, count: 1, me_voted: true },
      ]);

      // One answer only: two are refused, as are an unknown answer and a body without answer_ids.
      const two = await vote(poll.id, [1, 2], CAROL_TOKEN);
      assert.deepEqual(codesOf(two.body.errors), [['answer_ids', 'BASE_TYPE_MAX_LENGTH']]);
      const unknown = await vote(poll.id, [7], CAROL_TOKEN);
      assert.deepEqual(codesOf(unknown.body.errors), [['answer_ids.0', 'BASE_TYPE_CHOICES']]);
      const none = await server.request('PUT', `/channels/${GENERAL}/polls/${poll.id}/answers/@me`, {
        auth: CAROL_TOKEN,
        body: {},
      });
      assert.deepEqual(codesOf(none.body.errors), [['answer_ids', 'BASE_TYPE_REQUIRED']]);
      const bot = await vote(poll.id, [1], BOT);
      assert.deepEqual([bot.status, bot.body.code], [403, 20001]);
      const notPoll = await send({ content: 'no poll here' });
      assert.equal((await vote(notPoll.id, [1], BOB_TOKEN)).body.code, 10008);

      const back = await server.request('DELETE', `/channels/${GENERAL}/polls/${poll.id}/answers/@me`, {
        auth: BOB_TOKEN,
      });
      assert.equal(back.status, 204, back.text);
      await raw.find(
        (p) => p.t === 'MESSAGE_POLL_VOTE_REMOVE' && p.d.message_id === poll.id && p.d.answer_id === 2,
        'taken back',
      );
      assert.deepEqual((await read(poll.id, BOB_TOKEN)).poll.results.answer_counts, []);
    });

    test('multiselect: several answers at once, each once; an empty list takes them back', async () => {
      const poll = await send({ poll: { ...POLL, allow_multiselect: true } });
      assert.equal((await vote(poll.id, [1, 3], CAROL_TOKEN)).status, 204);
      await raw.findMany(
        2,
        (p) => p.t === 'MESSAGE_POLL_VOTE_ADD' && p.d.message_id === poll.id && p.d.user_id === CAROL_ID,
        'two votes',
      );
      const twice = await vote(poll.id, [1, 1], CAROL_TOKEN);
      assert.deepEqual(codesOf(twice.body.errors), [['answer_ids.1', 'LIST_TYPE_DUPLICATE_VALUE']]);
      assert.equal((await vote(poll.id, [1, 2, 3], ALICE_TOKEN)).status, 204);
      assert.deepEqual((await read(poll.id, CAROL_TOKEN)).poll.results.answer_counts, [
        { id: 1, count: 2, me_voted: true },
        { id: 2, count: 1, me_voted: false },
        { id: 3, count: 2, me_voted: true },
      ]);
      assert.equal((await vote(poll.id, [], CAROL_TOKEN)).status, 204);
      assert.deepEqual(
        (await read(poll.id, CAROL_TOKEN)).poll.results.answer_counts.map((c: Json) => c.count),
        [1, 1, 1],
      );
    });

    test('an answer’s voters, by id, paged with after and limit', async () => {
      const poll = await send({ poll: POLL });
      for (const auth of [CAROL_TOKEN, ALICE_TOKEN, BOB_TOKEN])
        assert.equal((await vote(poll.id, [1], auth)).status, 204);
      const path = `/channels/${GENERAL}/polls/${poll.id}/answers/1`;
      const first = await server.request('GET', `${path}?limit=2`, { auth: BOT });
      assert.equal(first.status, 200, first.text);
      assertMatchesSchema('PollAnswerDetailsResponse', first.body);
      assert.deepEqual(
        first.body.users.map((u: Json) => u.id),
        [ALICE_ID, BOB_ID],
      );
      const rest = await server.request('GET', `${path}?after=${BOB_ID}`, { auth: CAROL_TOKEN });
      assert.deepEqual(
        rest.body.users.map((u: Json) => [u.id, u.username]),
        [[CAROL_ID, 'carol']],
      );
      const empty = await server.request('GET', `/channels/${GENERAL}/polls/${poll.id}/answers/2`, { auth: BOT });
      assert.deepEqual(empty.body, { users: [] });
      const limit = await server.request('GET', `${path}?limit=101`, { auth: BOT });
      assert.deepEqual(codesOf(limit.body.errors), [['limit', 'NUMBER_TYPE_MAX']]);
      const answer = await server.request('GET', `/channels/${GENERAL}/polls/${poll.id}/answers/4`, { auth: BOT });
      assert.deepEqual(codesOf(answer.body.errors), [['answer_id', 'BASE_TYPE_CHOICES']]);
    });

    test('a poll in a channel the user cannot view is neither read nor voted in', async () => {
      const hidden = await send({ poll: POLL }, ALICE_TOKEN, SECRET);
      const voted = await server.request('PUT', `/channels/${SECRET}/polls/${hidden.id}/answers/@me`, {
        auth: CAROL_TOKEN,
        body: { answer_ids: [1] },
      });
      assert.deepEqual([voted.status, voted.body.code], [403, 50001]);
      const voters = await server.request('GET', `/channels/${SECRET}/polls/${hidden.id}/answers/1`, {
        auth: BOT,
      });
      assert.deepEqual([voters.status, voters.body.code], [403, 50001]);
      // Through another channel's path the message is unknown.
      const elsewhere = await vote(hidden.id, [1], CAROL_TOKEN);
      assert.deepEqual([elsewhere.status, elsewhere.body.code], [404, 10008]);
      const own = await server.request('PUT', `/channels/${SECRET}/polls/${hidden.id}/answers/@me`, {
        auth: ALICE_TOKEN,
        body: { answer_ids: [2] },
      });
      assert.equal(own.status, 204, own.text);
      // The watcher cannot view the channel: no vote of it reaches it.
      assert.equal(
        raw.all().some((p) => p.d?.message_id === hidden.id),
        false,
      );
    });

    test('the author ends a poll (others 50005): results finalized, one result message (type 46)', async () => {
      const poll = await send({ poll: POLL });
      await vote(poll.id, [1], BOB_TOKEN);
      await vote(poll.id, [1], CAROL_TOKEN);
      await vote(poll.id, [2], ALICE_TOKEN);
      const expire = `/channels/${GENERAL}/polls/${poll.id}/expire`;
      const other = await server.request('POST', expire, { auth: BOB_TOKEN });
      assert.deepEqual([other.status, other.body.code], [403, 50005]);
      const ended = await server.request('POST', expire, { auth: BOT });
      assert.equal(ended.status, 200, ended.text);
      assertMatchesSchema('MessageResponse', ended.body);
      assert.deepEqual(ended.body.poll.results, {
        is_finalized: true,
        answer_counts: [
          { id: 1, count: 2, me_voted: false },
          { id: 2, count: 1, me_voted: false },
        ],
      });
      const update = await raw.find((p) => p.t === 'MESSAGE_UPDATE' && p.d.id === poll.id, 'MESSAGE_UPDATE');
      assert.equal(update.d.poll.results.is_finalized, true);
      const result = await raw.find(
        (p) => p.t === 'MESSAGE_CREATE' && p.d.type === 46 && p.d.message_reference?.message_id === poll.id,
        'the poll result message',
      );
      assertMatchesSchema('MessageResponse', result.d);
      assert.equal(result.d.author.id, DEMO_APP_ID);
      assert.deepEqual(result.d.embeds, [
        {
          type: 'poll_result',
          fields: [
            { name: 'poll_question_text', value: 'Lunch?', inline: false },
            { name: 'victor_answer_votes', value: '2', inline: false },
            { name: 'total_votes', value: '3', inline: false },
            { name: 'victor_answer_id', value: '1', inline: false },
            { name: 'victor_answer_text', value: 'Pizza', inline: false },
            { name: 'victor_answer_emoji_name', value: '🍕', inline: false },
          ],
        },
      ]);
      assert.deepEqual((await read(result.d.id)).embeds, result.d.embeds);
      const again = await server.request('POST', expire, { auth: BOT });
      assert.deepEqual([again.status, again.body.code], [400, 520001]);
      for (const refusal of [other, again]) assertErrorBody(refusal.status, refusal.body);
      const late = await vote(poll.id, [2], CAROL_TOKEN);
      assert.deepEqual([late.status, late.body.code, late.body.message], [400, 520001, 'Poll expired']);
      const plain = await send({ content: 'not a poll' });
      const notPoll = await server.request('POST', `/channels/${GENERAL}/polls/${plain.id}/expire`, { auth: BOT });
      assert.deepEqual([notPoll.status, notPoll.body.code], [400, 520006]);
    });

    test('at its end by the node’s clock, two nodes finding it due post one result message', async () => {
      const poll = await send({ poll: { ...POLL, duration: 1 } });
      await vote(poll.id, [3], BOB_TOKEN);
      const second = await startServer({
        ...options(),
        db: options().db ?? server.dbPath,
        world: pollsWorld(),
        now: () => clock,
      });
      try {
        clock += HOUR_MS - 1;
        assert.equal((await vote(poll.id, [2], CAROL_TOKEN)).status, 204, 'open until its expiry');
        clock += 1;
        const tries = await Promise.all(
          [server, second, server, second].map((node, i) =>
            node.request('PUT', `/channels/${GENERAL}/polls/${poll.id}/answers/@me`, {
              auth: [ALICE_TOKEN, CAROL_TOKEN][i % 2]!,
              body: { answer_ids: [1] },
            }),
          ),
        );
        assert.deepEqual(
          tries.map((t) => t.body.code),
          [520001, 520001, 520001, 520001],
        );
        const listed = await second.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: BOT });
        const results = (listed.body as Json[]).filter(
          (m) => m.type === 46 && m.message_reference?.message_id === poll.id,
        );
        assert.equal(results.length, 1, 'one poll result message');
        const fields = Object.fromEntries(results[0]!.embeds[0].fields.map((f: Json) => [f.name, f.value]));
        assert.equal(fields.total_votes, '2');
        assert.equal(fields.victor_answer_votes, '1');
        assert.equal(fields.victor_answer_id, undefined, 'a tie names no victor');
        assert.equal((await read(poll.id, BOB_TOKEN)).poll.results.is_finalized, true);
      } finally {
        await second.close();
      }
    });

    test('the sweep ends what the clock says is due, once, and drops a poll whose message never came', async () => {
      const { store, bus, ids } = server.slashd;
      const urls = { urlOf: async () => unsignedPaths };
      // A sweep of its own over the node's store and bus, as every node runs one.
      const sweep = new PollsService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        polls: store.polls,
        dms: { find: async () => null },
        renderer: new MessageRenderer(store, urls),
        events: new WorldEvents(store, bus, store.interactions, urls),
        ids,
        now: () => clock,
      });
      // The earlier tests' polls (2 hours long) end first.
      clock += 2 * HOUR_MS;
      assert.ok((await sweep.endDuePolls()) > 0);
      const poll = await send({ poll: { ...POLL, duration: 3 } });
      await vote(poll.id, [2], CAROL_TOKEN);
      const orphan = '1345183757107299001';
      await store.polls.createPoll(GENERAL, orphan, clock + HOUR_MS);
      clock += 3 * HOUR_MS - 1;
      // Due now: only the orphan (an hour long), which goes with no message posted.
      assert.equal(await sweep.endDuePolls(), 0);
      assert.equal(await store.polls.getPoll(GENERAL, orphan), null);
      assert.equal((await read(poll.id)).poll.results.is_finalized, false);
      clock += 1;
      assert.deepEqual(await Promise.all([sweep.endDuePolls(), sweep.endDuePolls()]).then((n) => n.sort()), [0, 1]);
      assert.equal(await sweep.endDuePolls(), 0);
      const result = await raw.find(
        (p) => p.t === 'MESSAGE_CREATE' && p.d.type === 46 && p.d.message_reference?.message_id === poll.id,
        'the swept poll’s result',
      );
      const fields = Object.fromEntries(result.d.embeds[0].fields.map((f: Json) => [f.name, f.value]));
      assert.deepEqual([fields.victor_answer_id, fields.victor_answer_text], ['2', 'Soup']);
      assert.equal((await read(poll.id)).poll.results.is_finalized, true);
    });
  });
}

describePolls(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_polls');
describePolls(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
