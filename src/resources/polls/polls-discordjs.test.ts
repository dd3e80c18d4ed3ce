/**
 * A discord.js bot's polls as its users write them (issue 37): `channel.send({ poll })` read back
 * as `message.poll`; users voting through the client's API raise `messagePollVoteAdd` and
 * `messagePollVoteRemove` on the bot (GuildMessagePolls); `answer.fetchVoters()` and
 * `answer.voters.fetch()`; `message.poll.end()` finalizes the results, updates the message and
 * posts the poll result message (`MessageType.PollResult`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  Events,
  GatewayIntentBits,
  MessageType,
  type Message,
  type PartialMessage,
  type PollAnswer,
  type PartialPollAnswer,
  type TextChannel,
} from 'discord.js';
import type { World } from '../../core/world/types.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_ID,
  BOB_TOKEN,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const SEND_POLLS = 1n << 49n;
const HOUR_MS = 3_600_000;

/** The gateway world with SEND_POLLS for everyone. */
function pollsWorld(): World {
  const world = gatewayWorld();
  const everyone = world.guilds.find((g) => g.id === TEST_GUILD_ID)!.roles.find((r) => r.id === TEST_GUILD_ID)!;
  everyone.permissions = (BigInt(everyone.permissions) | SEND_POLLS).toString();
  return world;
}

interface Vote {
  kind: 'add' | 'remove';
  messageId: string;
  answerId: number;
  userId: string;
  voteCount: number;
}

describe('discord.js: polls sent, voted in, listed and ended', () => {
  // The node's clock is the real one at the start (discord.js refuses to end a poll its own clock says is over).
  const clock = Date.now();
  let server: TestServer;
  let bot: Client;
  let channel: TextChannel;
  const votes = new Inbox<Vote>((v) => `${v.kind} ${v.answerId} by ${v.userId}`);
  const created = new Inbox<Message>((m) => `${m.id} type ${m.type}`);
  const updated = new Inbox<Message | PartialMessage>((m) => m.id);

  function told(kind: Vote['kind']) {
    return (answer: PollAnswer | PartialPollAnswer, userId: string) =>
      votes.push({ kind, messageId: answer.poll.messageId, answerId: answer.id, userId, voteCount: answer.voteCount });
  }

  before(async () => {
    server = await startServer({ world: pollsWorld(), now: () => clock });
    bot = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.GuildMessagePolls],
      rest: { api: `${server.url}/api` },
    });
    bot.on(Events.MessagePollVoteAdd, told('add'));
    bot.on(Events.MessagePollVoteRemove, told('remove'));
    bot.on(Events.MessageCreate, (message) => created.push(message));
    bot.on(Events.MessageUpdate, (_old, message) => updated.push(message));
    const ready = new Inbox<string>();
    bot.once(Events.ClientReady, () => ready.push('ready'));
    await bot.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
  });
  after(async () => {
    await bot?.destroy();
    await server?.close();
  });

  function vote(message: Message, answerIds: number[], auth: string) {
    return server.request('PUT', `/channels/${GENERAL}/polls/${message.id}/answers/@me`, {
      auth,
      body: { answer_ids: answerIds },
    });
  }

  test('channel.send({ poll }) reads back as message.poll; users’ votes reach the bot; voters; end()', async () => {
    const message = await channel.send({
      poll: {
        question: { text: 'Best editor?' },
        answers: [{ text: 'vim', emoji: '🦄' }, { text: 'emacs' }, { text: 'nano' }],
        duration: 2,
        allowMultiselect: true,
      },
    });
    const poll = message.poll!;
    assert.equal(poll.question.text, 'Best editor?');
    assert.deepEqual(
      [...poll.answers.values()].map((a) => [a.id, a.text, a.emoji?.name ?? null]),
      [
        [1, 'vim', '🦄'],
        [2, 'emacs', null],
        [3, 'nano', null],
      ],
    );
    assert.equal(poll.allowMultiselect, true);
    assert.equal(poll.layoutType, 1);
    assert.equal(poll.expiresTimestamp, clock + 2 * HOUR_MS);
    assert.equal(poll.resultsFinalized, false);

    assert.equal((await vote(message, [1, 2], BOB_TOKEN)).status, 204);
    const bobs = await votes.findMany(2, (v) => v.kind === 'add' && v.userId === BOB_ID, 'Bob’s two votes');
    assert.deepEqual(bobs.map((v) => [v.messageId, v.answerId]).sort(), [
      [message.id, 1],
      [message.id, 2],
    ]);
    assert.equal((await vote(message, [1], CAROL_TOKEN)).status, 204);
    await votes.find((v) => v.kind === 'add' && v.userId === CAROL_ID, 'Carol’s vote');
    assert.equal(poll.answers.get(1)!.voteCount, 2);
    assert.equal((await vote(message, [2], BOB_TOKEN)).status, 204);
    const removed = await votes.find((v) => v.kind === 'remove' && v.userId === BOB_ID, 'Bob takes one back');
    assert.deepEqual([removed.answerId, removed.voteCount], [1, 1]);

    const voters = await poll.answers.get(1)!.fetchVoters();
    assert.deepEqual([...voters.keys()], [CAROL_ID]);
    const secondAnswer = await poll.answers.get(2)!.voters.fetch({ limit: 1 });
    assert.deepEqual([...secondAnswer.keys()], [BOB_ID]);

    const fetched = await channel.messages.fetch({ message: message.id, force: true });
    assert.deepEqual(
      [...fetched.poll!.answers.values()].map((a) => a.voteCount),
      [1, 1, 0],
    );

    const ended = await message.poll!.end();
    assert.equal(ended.poll?.resultsFinalized, true);
    const update = await updated.find((m) => m.id === message.id && m.poll?.resultsFinalized === true, 'the update');
    assert.equal(update.poll?.answers.get(1)?.voteCount, 1);
    const result = await created.find((m) => m.type === MessageType.PollResult, 'the poll result message');
    assert.equal(result.author.id, DEMO_APP_ID);
    assert.equal(result.reference?.messageId, message.id);
    const fields = Object.fromEntries(result.embeds[0]!.fields.map((f) => [f.name, f.value]));
    assert.equal(result.embeds[0]!.data.type, 'poll_result');
    assert.deepEqual(
      [fields.poll_question_text, fields.total_votes, fields.victor_answer_id],
      ['Best editor?', '2', undefined],
    );
    const late = await vote(message, [3], CAROL_TOKEN);
    assert.deepEqual([late.status, late.body.code], [400, 520001]);
  });

  test('a poll of a user is theirs to end: the bot is refused 50005 by discord.js', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: CAROL_TOKEN,
      body: { poll: { question: { text: 'Tea?' }, answers: [{ poll_media: { text: 'Yes' } }] } },
    });
    assert.equal(sent.status, 200, sent.text);
    const message = await channel.messages.fetch({ message: sent.body.id, force: true });
    await assert.rejects(message.poll!.end(), v10Error(403, 50005));
  });
});
