/**
 * The ReactionStore contract: one reaction per user per emoji per message, bounded in emojis per
 * message, users listed by id (as snowflakes) and paged, counts in the order emojis were first
 * added, and a message's reactions gone with it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReactionStore } from '../../src/store/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, BOB, CHANNEL_1, CHANNEL_2, message } from './fixtures.js';

const MESSAGE_1 = '1900000000000000001';
const MESSAGE_2 = '1900000000000000002';
const WORLD_MESSAGE = '1900000000000000500';
/** A user whose id is shorter than ALICE's: first by snowflake, last as text. */
const SHORT_ID_USER = '900000000000000001';
const THUMBS = '👍';
const CUSTOM = 'blob:1500000000000000001';

export function describeReactionStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: ReactionStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): ReactionStore => t.stores.reactions;

    it('a reactor who may not add emojis joins one on the message, is refused a new one, and keeps their own', async () => {
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, BOB, 1000, 20), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1001, 20, false), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1002, 20, false), 'already');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, CUSTOM, ALICE, 1003, 20, false), 'forbidden');
      assert.deepEqual(await store().countReactions(CHANNEL_1, MESSAGE_1, ALICE), [
        { emoji: THUMBS, count: 2, me: true },
      ]);
    });

    it('one reaction per user per emoji; users listed by id and paged; counts in the order emojis came', async () => {
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, BOB, 1000, 20), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, BOB, 1001, 20), 'already');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1002, 20), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, SHORT_ID_USER, 1003, 20), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, CUSTOM, ALICE, 1004, 20), 'added');
      // The same emoji elsewhere is counted apart.
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_2, THUMBS, ALICE, 1005, 20), 'added');
      assert.equal(await store().addReaction(CHANNEL_2, MESSAGE_1, THUMBS, ALICE, 1006, 20), 'added');

      assert.deepEqual(await store().listReactionUsers(CHANNEL_1, MESSAGE_1, THUMBS, 25), [SHORT_ID_USER, ALICE, BOB]);
      assert.deepEqual(await store().listReactionUsers(CHANNEL_1, MESSAGE_1, THUMBS, 1, SHORT_ID_USER), [ALICE]);
      assert.deepEqual(await store().listReactionUsers(CHANNEL_1, MESSAGE_1, THUMBS, 25, ALICE), [BOB]);
      assert.deepEqual(await store().listReactionUsers(CHANNEL_1, MESSAGE_1, '🎉', 25), []);
      assert.deepEqual(await store().countReactions(CHANNEL_1, MESSAGE_1, BOB), [
        { emoji: THUMBS, count: 3, me: true },
        { emoji: CUSTOM, count: 1, me: false },
      ]);
      assert.deepEqual(await store().countReactions(CHANNEL_1, MESSAGE_2, BOB), [
        { emoji: THUMBS, count: 1, me: false },
      ]);
    });

    it('removes one user’s, one emoji’s, and all; each says whether anything was there', async () => {
      const reactions = [
        [THUMBS, ALICE],
        [THUMBS, BOB],
        [CUSTOM, ALICE],
        ['🎉', BOB],
      ] as const;
      for (const [at, [emoji, user]] of reactions.entries()) {
        await store().addReaction(CHANNEL_1, WORLD_MESSAGE, emoji, user, at, 20);
      }
      await store().addReaction(CHANNEL_1, MESSAGE_2, THUMBS, ALICE, 1, 20);
      assert.equal(await store().removeReaction(CHANNEL_1, WORLD_MESSAGE, THUMBS, BOB), true);
      assert.equal(await store().removeReaction(CHANNEL_1, WORLD_MESSAGE, THUMBS, BOB), false);
      assert.deepEqual(await store().listReactionUsers(CHANNEL_1, WORLD_MESSAGE, THUMBS, 25), [ALICE]);
      assert.equal(await store().removeEmojiReactions(CHANNEL_1, WORLD_MESSAGE, CUSTOM), true);
      assert.equal(await store().removeEmojiReactions(CHANNEL_1, WORLD_MESSAGE, CUSTOM), false);
      assert.deepEqual(
        (await store().countReactions(CHANNEL_1, WORLD_MESSAGE, ALICE)).map((c) => c.emoji),
        [THUMBS, '🎉'],
      );
      assert.equal(await store().removeAllReactions(CHANNEL_1, WORLD_MESSAGE), true);
      assert.equal(await store().removeAllReactions(CHANNEL_1, WORLD_MESSAGE), false);
      assert.deepEqual(await store().countReactions(CHANNEL_1, WORLD_MESSAGE, ALICE), []);
      assert.equal((await store().countReactions(CHANNEL_1, MESSAGE_2, ALICE)).length, 1, 'another message keeps its');
    });

    it('a message holds at most so many emojis; more users of one it holds are always welcome', async () => {
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1, 2), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, CUSTOM, ALICE, 2, 2), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, '🎉', ALICE, 3, 2), 'full');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_1, CUSTOM, BOB, 4, 2), 'added');
      assert.equal(await store().addReaction(CHANNEL_1, MESSAGE_2, '🎉', ALICE, 5, 2), 'added');
    });

    it('two racing new emojis on two connections cannot both take the last place of a message', async () => {
      const other = await t.db.connect();
      const outcomes = await Promise.all([
        store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1, 1),
        other.reactions.addReaction(CHANNEL_1, MESSAGE_1, '🎉', BOB, 1, 1),
      ]);
      await other.close();
      assert.deepEqual([...outcomes].sort(), ['added', 'full']);
      assert.equal((await store().countReactions(CHANNEL_1, MESSAGE_1, ALICE)).length, 1);
    });

    it('deleting a message deletes its reactions in the same step', async () => {
      await t.stores.interactions.putMessage(message(CHANNEL_1, MESSAGE_1, 'hello'));
      await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1, 20);
      assert.equal(await t.stores.interactions.deleteMessage(CHANNEL_1, MESSAGE_1), true);
      assert.deepEqual(await store().countReactions(CHANNEL_1, MESSAGE_1, ALICE), []);
    });

    it('a bulk delete deletes the messages’ reactions with them', async () => {
      await t.stores.interactions.putMessage(message(CHANNEL_1, MESSAGE_1, 'one'));
      await t.stores.interactions.putMessage(message(CHANNEL_1, MESSAGE_2, 'two'));
      await store().addReaction(CHANNEL_1, MESSAGE_1, THUMBS, ALICE, 1, 20);
      await store().addReaction(CHANNEL_1, MESSAGE_2, THUMBS, ALICE, 1, 20);
      assert.deepEqual(await t.stores.interactions.deleteMessages(CHANNEL_1, [MESSAGE_1]), [MESSAGE_1]);
      assert.deepEqual(await store().countReactions(CHANNEL_1, MESSAGE_1, ALICE), []);
      assert.equal((await store().countReactions(CHANNEL_1, MESSAGE_2, ALICE)).length, 1);
    });
  });
}
