/**
 * The PollStore contract: a poll open until its end; a voter's votes replaced in one change that
 * says what it added and removed, refused once the poll is over (ended, or past its end by the
 * caller's clock); the tally as one reader sees it; voters by id (as snowflakes) and paged; the
 * end claimed by one caller of many (two connections, as two nodes); the due polls by their end;
 * and a poll deleted with its votes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PollStore } from '../../src/resources/polls/store.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { ALICE, BOB, CHANNEL_1, CHANNEL_2 } from './fixtures.js';

const POLL_1 = '1900000000000000001';
const POLL_2 = '1900000000000000002';
/** A user whose id is shorter than ALICE's: first by snowflake, last as text. */
const SHORT_ID_USER = '900000000000000001';
const HOUR_MS = 3_600_000;

export function describePollStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: PollStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): PollStore => t.stores.polls;
    const ends = START_MS + HOUR_MS;

    it('votes are replaced, each change saying what it added and removed; the tally is the reader’s', async () => {
      await store().createPoll(CHANNEL_1, POLL_1, ends);
      assert.deepEqual(await store().getPoll(CHANNEL_1, POLL_1), { expiresAt: ends, endedAt: null });
      assert.equal(await store().getPoll(CHANNEL_2, POLL_1), null);
      assert.deepEqual(await store().setVotes(CHANNEL_1, POLL_1, ALICE, [1, 3], START_MS), {
        kind: 'changed',
        added: [1, 3],
        removed: [],
      });
      assert.deepEqual(await store().setVotes(CHANNEL_1, POLL_1, ALICE, [3, 2], START_MS), {
        kind: 'changed',
        added: [2],
        removed: [1],
      });
      await store().setVotes(CHANNEL_1, POLL_1, BOB, [3], START_MS);
      assert.deepEqual(await store().tally(CHANNEL_1, POLL_1, BOB), {
        endedAt: null,
        counts: [
          { answerId: 2, count: 1, me: false },
          { answerId: 3, count: 2, me: true },
        ],
      });
      assert.deepEqual(await store().setVotes(CHANNEL_1, POLL_1, ALICE, [], START_MS), {
        kind: 'changed',
        added: [],
        removed: [2, 3],
      });
      assert.deepEqual((await store().tally(CHANNEL_1, POLL_1, ALICE))?.counts, [{ answerId: 3, count: 1, me: false }]);
      assert.deepEqual(await store().setVotes(CHANNEL_2, POLL_1, ALICE, [1], START_MS), { kind: 'unknown' });
      assert.equal(await store().tally(CHANNEL_2, POLL_1, ALICE), null);
    });

    it('voters by id as snowflakes, paged', async () => {
      await store().createPoll(CHANNEL_1, POLL_1, ends);
      for (const user of [BOB, ALICE, SHORT_ID_USER]) await store().setVotes(CHANNEL_1, POLL_1, user, [1], START_MS);
      await store().setVotes(CHANNEL_1, POLL_1, BOB, [1, 2], START_MS);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 1, 25), [SHORT_ID_USER, ALICE, BOB]);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 1, 1, SHORT_ID_USER), [ALICE]);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 1, 25, ALICE), [BOB]);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 2, 25), [BOB]);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 3, 25), []);
    });

    it('a poll past its end or ended takes no vote; one of two connections ends it', async () => {
      await store().createPoll(CHANNEL_1, POLL_1, ends);
      await store().createPoll(CHANNEL_1, POLL_2, ends + HOUR_MS);
      assert.deepEqual(await store().setVotes(CHANNEL_1, POLL_1, ALICE, [1], ends), { kind: 'ended' });
      assert.deepEqual(await store().duePolls(ends - 1, 10), []);
      assert.deepEqual(await store().duePolls(ends, 10), [{ channelId: CHANNEL_1, messageId: POLL_1 }]);
      const other = await t.db.connect();
      const claims = await Promise.all([
        store().endPoll(CHANNEL_1, POLL_1, ends),
        other.polls.endPoll(CHANNEL_1, POLL_1, ends),
        store().endPoll(CHANNEL_1, POLL_1, ends + 1),
      ]);
      assert.equal(claims.filter(Boolean).length, 1, 'one claim wins');
      assert.equal((await other.polls.getPoll(CHANNEL_1, POLL_1))?.endedAt !== null, true);
      assert.deepEqual(await store().duePolls(ends + HOUR_MS, 10), [{ channelId: CHANNEL_1, messageId: POLL_2 }]);
      // Ended early: no vote either, though its end is to come.
      assert.equal(await store().endPoll(CHANNEL_1, POLL_2, START_MS), true);
      assert.deepEqual(await store().setVotes(CHANNEL_1, POLL_2, ALICE, [1], START_MS), { kind: 'ended' });
      assert.deepEqual(await store().duePolls(ends + 2 * HOUR_MS, 10), []);
    });

    it('the due polls come earliest first, bounded; a poll deleted goes with its votes', async () => {
      await store().createPoll(CHANNEL_2, POLL_2, ends + 5);
      await store().createPoll(CHANNEL_1, POLL_1, ends);
      await store().setVotes(CHANNEL_1, POLL_1, ALICE, [1], START_MS);
      assert.deepEqual(await store().duePolls(ends + 10, 1), [{ channelId: CHANNEL_1, messageId: POLL_1 }]);
      await store().deletePoll(CHANNEL_1, POLL_1);
      assert.equal(await store().getPoll(CHANNEL_1, POLL_1), null);
      assert.deepEqual(await store().listVoters(CHANNEL_1, POLL_1, 1, 25), []);
      assert.deepEqual(await store().duePolls(ends + 10, 10), [{ channelId: CHANNEL_2, messageId: POLL_2 }]);
    });
  });
}
