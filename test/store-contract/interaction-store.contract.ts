/**
 * The InteractionStore contract: interactions keyed by application id and updated by
 * compare-and-set; messages inserted, never upserted; Activities keyed by application id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InteractionStore } from '../../src/store/store.js';
import { MAX_TRANSCRIPT_ENTRIES, statusOf } from '../../src/resources/interactions/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import {
  activityInstance,
  ALICE,
  APP_A,
  APP_B,
  BOB,
  CHANNEL_1,
  CHANNEL_2,
  interaction,
  message,
  smallWorld,
} from './fixtures.js';

const INTERACTION = '1800000000000000001';
const MESSAGE_1 = '1900000000000000001';
const MESSAGE_2 = '1900000000000000002';
const MESSAGE_10 = '19000000000000000010';
/** Ids of world-file messages (the store holds only what the API made of them). */
const SEEDED_1 = '1900000000000000501';
const SEEDED_2 = '1900000000000000502';

export function describeInteractionStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: InteractionStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): InteractionStore => t.stores.interactions;

    it('an interaction is read back by its application, and by its invoking user only', async () => {
      const record = interaction(APP_A, INTERACTION, ALICE);
      await store().putInteraction(record);
      assert.deepEqual(await store().getInteraction(APP_A, INTERACTION), record);
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'pending');
      assert.deepEqual(await store().findUserInteractionStatus(ALICE, INTERACTION), statusOf(record));
      assert.equal(await store().findUserInteractionStatus(BOB, INTERACTION), null);
      assert.equal(await store().getInteraction(APP_B, INTERACTION), null, 'another application reads nothing');
      assert.equal(await store().getInteractionState(APP_B, INTERACTION), null);
      assert.equal(await store().getInteraction(APP_A, '1800000000000000999'), null);
    });

    it('an interaction id is never taken twice by one application', async () => {
      await store().putInteraction(interaction(APP_A, INTERACTION, ALICE));
      await assert.rejects(store().putInteraction(interaction(APP_A, INTERACTION, BOB)));
      assert.equal((await store().getInteraction(APP_A, INTERACTION))?.user_id, ALICE, 'the first one stays');
    });

    it('updates are a compare-and-set on the state', async () => {
      await store().putInteraction(interaction(APP_A, INTERACTION));
      const response = { type: 5 as const, data: { flags: 64 } };
      assert.equal(
        await store().updateInteraction(APP_A, INTERACTION, ['pending'], { state: 'acknowledged', response }),
        true,
      );
      const updated = await store().getInteraction(APP_A, INTERACTION);
      assert.equal(updated?.state, 'acknowledged');
      assert.deepEqual(updated?.response, response);
      assert.equal(updated?.token, `token-of-${INTERACTION}`, 'fields the patch leaves out are kept');
      assert.equal(await store().updateInteraction(APP_A, INTERACTION, ['pending'], { state: 'failed' }), false);
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'acknowledged');
      assert.equal(
        await store().updateInteraction(APP_A, INTERACTION, ['pending', 'acknowledged'], { state: 'responded' }),
        true,
      );
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'responded');
      assert.equal(await store().updateInteraction(APP_B, INTERACTION, ['responded'], { state: 'failed' }), false);
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'responded', 'not by another application');
      assert.equal(
        await store().updateInteraction(APP_A, '1800000000000000999', ['pending'], { state: 'failed' }),
        false,
      );
    });

    it('of two racing updates from one state, on two connections, exactly one wins, with its message', async () => {
      const other = await t.db.connect();
      await store().putInteraction(interaction(APP_A, INTERACTION));
      const outcomes = await Promise.all([
        store().updateInteraction(
          APP_A,
          INTERACTION,
          ['pending'],
          { state: 'responded' },
          message(CHANNEL_1, MESSAGE_1, 'a'),
        ),
        other.interactions.updateInteraction(
          APP_A,
          INTERACTION,
          ['pending'],
          { state: 'failed' },
          message(CHANNEL_1, MESSAGE_2, 'b'),
        ),
      ]);
      assert.deepEqual(
        outcomes.filter((won) => won),
        [true],
      );
      const winner = outcomes[0] ? { state: 'responded', id: MESSAGE_1 } : { state: 'failed', id: MESSAGE_2 };
      const loser = outcomes[0] ? MESSAGE_2 : MESSAGE_1;
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), winner.state);
      assert.notEqual(await store().getMessage(CHANNEL_1, winner.id), null, 'the winner’s message is written');
      assert.equal(await store().getMessage(CHANNEL_1, loser), null, 'the loser’s message is not');
    });

    it('a status read follows every change, on the connection that made it and on another one (another node)', async () => {
      const other = await t.db.connect();
      const record = interaction(APP_A, INTERACTION, ALICE);
      await store().putInteraction(record);
      assert.equal((await store().findUserInteractionStatus(ALICE, INTERACTION))?.state, 'pending');
      assert.equal((await other.interactions.findUserInteractionStatus(ALICE, INTERACTION))?.state, 'pending');
      const response = { type: 4 as const, data: { content: 'pong' } };
      assert.equal(
        await other.interactions.updateInteraction(APP_A, INTERACTION, ['pending'], { state: 'responded', response }),
        true,
      );
      assert.deepEqual(
        await store().findUserInteractionStatus(ALICE, INTERACTION),
        { ...statusOf(record), state: 'responded', response },
        "the other connection's answer is read here",
      );
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'responded');
      const failure = { state: 'failed' as const, failure_reason: 'timeout' as const, failure_detail: 'no answer' };
      assert.equal(await store().updateInteraction(APP_A, INTERACTION, ['responded'], failure), true);
      assert.deepEqual(await other.interactions.findUserInteractionStatus(ALICE, INTERACTION), {
        ...statusOf(record),
        ...failure,
        response,
      });
      assert.deepEqual(await store().findUserInteractionStatus(ALICE, INTERACTION), {
        ...statusOf(record),
        ...failure,
        response,
      });
      assert.equal(await other.interactions.findUserInteractionStatus(BOB, INTERACTION), null);
      assert.equal(await store().findUserInteractionStatus(BOB, INTERACTION), null);
      assert.equal(await store().updateInteraction(APP_A, INTERACTION, ['pending'], { state: 'responded' }), false);
      assert.equal(
        (await store().findUserInteractionStatus(ALICE, INTERACTION))?.state,
        'failed',
        'a lost update is not read',
      );
    });

    it("a user's interactions are listed newest first (ids ordered as numbers), bounded", async () => {
      const ids = ['1800000000000000002', '1800000000000000010', '18000000000000000001', '1800000000000000003'];
      for (const id of ids) await store().putInteraction(interaction(APP_A, id, ALICE));
      await store().putInteraction(interaction(APP_B, '1800000000000000004', ALICE));
      await store().putInteraction(interaction(APP_A, '1800000000000000005', BOB));
      const listed = await store().listUserInteractions(ALICE, 3);
      assert.deepEqual(
        listed.map((r) => r.id),
        ['18000000000000000001', '1800000000000000010', '1800000000000000004'],
      );
      assert.deepEqual(
        (await store().listUserInteractions(BOB, 10)).map((r) => r.id),
        ['1800000000000000005'],
        "never another user's",
      );
    });

    it('a modal is claimed by one submission only, also when two race on two connections', async () => {
      const modal = { type: 9, data: { custom_id: 'form', title: 'Form', components: [] } };
      await store().putInteraction({ ...interaction(APP_A, INTERACTION), state: 'responded', response: modal });
      await store().putInteraction(interaction(APP_A, '1800000000000000002'));
      assert.equal(
        await store().claimModal(APP_A, '1800000000000000002', '1800000000000000100'),
        false,
        'not answered with a modal',
      );
      assert.equal(await store().claimModal(APP_B, INTERACTION, '1800000000000000100'), false, 'not by another app');
      const other = await t.db.connect();
      const outcomes = await Promise.all([
        store().claimModal(APP_A, INTERACTION, '1800000000000000101'),
        other.interactions.claimModal(APP_A, INTERACTION, '1800000000000000102'),
      ]);
      assert.deepEqual(
        outcomes.filter((won) => won),
        [true],
      );
      const claimed = await store().getInteraction(APP_A, INTERACTION);
      assert.equal(claimed?.modal_submission_id, outcomes[0] ? '1800000000000000101' : '1800000000000000102');
      assert.equal(await store().claimModal(APP_A, INTERACTION, '1800000000000000103'), false, 'submitted once');
    });

    it('an update whose message cannot be written does not happen', async () => {
      await store().putInteraction(interaction(APP_A, INTERACTION));
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'already here'));
      await assert.rejects(
        store().updateInteraction(
          APP_A,
          INTERACTION,
          ['pending'],
          { state: 'responded' },
          message(CHANNEL_1, MESSAGE_1, 'x'),
        ),
      );
      assert.equal(await store().getInteractionState(APP_A, INTERACTION), 'pending');
      assert.equal((await store().getMessage(CHANNEL_1, MESSAGE_1))?.content, 'already here');
    });

    it('a new message whose id exists fails instead of overwriting it; an edit of a gone message is refused', async () => {
      const first = message(CHANNEL_1, MESSAGE_1, 'first');
      await store().putMessage(first);
      await assert.rejects(store().putMessage({ ...first, content: 'impostor' }));
      assert.deepEqual(await store().getMessage(CHANNEL_1, MESSAGE_1), first);
      assert.equal(await store().editMessage({ ...first, content: 'edited' }), true);
      assert.equal((await store().getMessage(CHANNEL_1, MESSAGE_1))?.content, 'edited');
      assert.equal(await store().getMessage(CHANNEL_2, MESSAGE_1), null, 'messages are found in their channel');
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_1), true);
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_1), false);
      assert.equal(await store().editMessage({ ...first, content: 'again' }), false);
      assert.equal(await store().getMessage(CHANNEL_1, MESSAGE_1), null);
    });

    it('a bulk delete removes the channel’s messages of those ids at once, never an ephemeral one', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'one'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_2, 'two'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_10, 'only alice sees it', ALICE));
      await store().putMessage(message(CHANNEL_2, '1900000000000000003', 'elsewhere'));
      const ids = [MESSAGE_1, MESSAGE_2, MESSAGE_10, '1900000000000000003', '1900000000000000999'];
      const deleted = await store().deleteMessages(CHANNEL_1, ids);
      assert.deepEqual([...deleted].sort(), [MESSAGE_1, MESSAGE_2]);
      assert.equal(await store().getMessage(CHANNEL_1, MESSAGE_1), null);
      assert.equal(await store().getMessage(CHANNEL_1, MESSAGE_2), null);
      assert.equal((await store().getMessage(CHANNEL_1, MESSAGE_10))?.content, 'only alice sees it');
      assert.equal((await store().getMessage(CHANNEL_2, '1900000000000000003'))?.content, 'elsewhere');
      assert.deepEqual(await store().deleteMessages(CHANNEL_1, [MESSAGE_1, MESSAGE_2]), [], 'gone stays gone');
      assert.deepEqual(await store().deleteMessages(CHANNEL_1, []), []);
    });

    it('a channel’s messages newest first, up to the limit, ephemeral ones only for their user', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'oldest'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_10, 'newest', BOB));
      await store().putMessage(message(CHANNEL_1, MESSAGE_2, 'middle', ALICE));
      await store().putMessage(message(CHANNEL_2, '1900000000000000003', 'elsewhere'));
      const contents = async (viewer: string, limit: number) =>
        (await store().listChannelMessages(CHANNEL_1, viewer, limit)).map((m) => m.content);
      assert.deepEqual(await contents(ALICE, 50), ['middle', 'oldest']);
      assert.deepEqual(await contents(BOB, 50), ['newest', 'oldest']);
      assert.deepEqual(await contents(BOB, 1), ['newest']);
      assert.deepEqual(await contents('1200000000000000999', 50), ['oldest']);
    });

    it('a range of a channel’s messages: before and after are exclusive; after alone gives the oldest after it', async () => {
      const ids = ['1900000000000000001', '1900000000000000002', '1900000000000000003', '19000000000000000010'];
      for (const id of ids) await store().putMessage(message(CHANNEL_1, id, id));
      const page = async (limit: number, range: { before?: string; after?: string }) =>
        (await store().listChannelMessages(CHANNEL_1, ALICE, limit, range)).map((m) => m.id);
      assert.deepEqual(await page(50, { before: ids[3]! }), [ids[2], ids[1], ids[0]], 'ids ordered as numbers');
      assert.deepEqual(await page(1, { before: ids[2]! }), [ids[1]]);
      assert.deepEqual(await page(2, { after: ids[0]! }), [ids[2], ids[1]], 'the oldest two after, newest first');
      assert.deepEqual(await page(50, { after: ids[0]!, before: ids[3]! }), [ids[2], ids[1]]);
      assert.deepEqual(await page(50, { after: ids[3]! }), []);
      assert.deepEqual(await page(50, {}), [...ids].reverse());
    });

    it('a world-file message: the first edit copies it, later ones rewrite the copy; a deletion is recorded once', async () => {
      assert.deepEqual(await store().changedWorldMessages(CHANNEL_1, [SEEDED_1, SEEDED_2]), []);
      assert.equal(await store().editWorldMessage(message(CHANNEL_1, SEEDED_1, 'first edit')), true);
      assert.equal(await store().editWorldMessage(message(CHANNEL_1, SEEDED_1, 'second edit')), true);
      assert.equal((await store().getMessage(CHANNEL_1, SEEDED_1))?.content, 'second edit');
      assert.deepEqual(await store().changedWorldMessages(CHANNEL_1, [SEEDED_1, SEEDED_2]), [SEEDED_1]);
      assert.deepEqual(await store().changedWorldMessages(CHANNEL_2, [SEEDED_1]), [], 'per channel');

      await store().pinMessage(CHANNEL_1, SEEDED_2, '2025-03-01T00:00:00.000Z', 250);
      assert.equal(await store().deleteMessage(CHANNEL_1, SEEDED_2, true), true, 'never copied, still deleted');
      assert.equal(await store().deleteMessage(CHANNEL_1, SEEDED_2, true), false, 'deleted once');
      assert.deepEqual(await store().pinnedAmong(CHANNEL_1, [SEEDED_2]), [], 'its pin went with it');
      assert.equal(await store().editWorldMessage(message(CHANNEL_1, SEEDED_2, 'too late')), false);
      assert.equal(await store().getMessage(CHANNEL_1, SEEDED_2), null);

      assert.equal(await store().deleteMessage(CHANNEL_1, SEEDED_1, true), true);
      assert.equal(await store().getMessage(CHANNEL_1, SEEDED_1), null, 'the copy went too');
      assert.deepEqual((await store().changedWorldMessages(CHANNEL_1, [SEEDED_1, SEEDED_2])).sort(), [
        SEEDED_1,
        SEEDED_2,
      ]);
    });

    it('a bulk delete records the world-file messages among its ids deleted, with the stored ones, at once', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'stored'));
      await store().editWorldMessage(message(CHANNEL_1, SEEDED_1, 'copied'));
      const gone = await store().deleteMessages(CHANNEL_1, [MESSAGE_1, SEEDED_1, SEEDED_2], [SEEDED_1, SEEDED_2]);
      assert.deepEqual(gone.sort(), [MESSAGE_1, SEEDED_1, SEEDED_2]);
      assert.deepEqual(await store().deleteMessages(CHANNEL_1, [SEEDED_1, SEEDED_2], [SEEDED_1, SEEDED_2]), []);
      assert.equal(await store().getMessage(CHANNEL_1, SEEDED_1), null);
    });

    it('replacing the world forgets what the API made of its messages: copies and deletions', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'stored'));
      await store().editWorldMessage(message(CHANNEL_1, SEEDED_1, 'copied'));
      await store().deleteMessage(CHANNEL_1, SEEDED_2, true);
      await t.stores.world.replaceWorld(smallWorld());
      assert.deepEqual(await store().changedWorldMessages(CHANNEL_1, [SEEDED_1, SEEDED_2]), []);
      assert.equal(await store().getMessage(CHANNEL_1, SEEDED_1), null, 'the copy is gone');
      assert.equal((await store().getMessage(CHANNEL_1, MESSAGE_1))?.content, 'stored', 'other messages stay');
    });

    it('a crosspost marks the original and adds its copies at once; a second finds the flag, a gone one writes nothing', async () => {
      const CROSSPOSTED = 1;
      const original = message(CHANNEL_1, MESSAGE_1, 'news');
      await store().putMessage(original);
      const copies = [message(CHANNEL_2, MESSAGE_2, 'news'), message(CHANNEL_2, MESSAGE_10, 'news')];
      const published = { ...original, flags: original.flags | CROSSPOSTED };
      assert.equal(await store().crosspostMessage(published, copies, CROSSPOSTED), 'done');
      assert.equal((await store().getMessage(CHANNEL_1, MESSAGE_1))?.flags, published.flags);
      assert.deepEqual(
        (await store().listChannelMessages(CHANNEL_2, ALICE, 10)).map((m) => m.id),
        [MESSAGE_10, MESSAGE_2],
      );
      assert.equal((await store().channelCounters([CHANNEL_2])).get(CHANNEL_2)?.message_count, 2);
      const again = [message(CHANNEL_2, '1900000000000000003', 'twice')];
      assert.equal(await store().crosspostMessage(published, again, CROSSPOSTED), 'already');
      assert.equal(await store().getMessage(CHANNEL_2, '1900000000000000003'), null, 'refused: no copy');
      const gone = message(CHANNEL_1, '1900000000000000004', 'never stored');
      assert.equal(await store().crosspostMessage(gone, again, CROSSPOSTED), 'gone');
      assert.equal(await store().getMessage(CHANNEL_2, '1900000000000000003'), null);
    });

    it('message counters: a create counts up (newest id, ids ordered as numbers), a delete counts down and keeps the id', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_10, 'ten'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_2, 'two, older by number'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'only for alice', ALICE));
      await store().putMessage(message(CHANNEL_2, MESSAGE_1, 'elsewhere'));
      const counted = await store().channelCounters([CHANNEL_1, CHANNEL_2, '1700000000000000999']);
      assert.deepEqual(counted.get(CHANNEL_1), {
        last_message_id: MESSAGE_10,
        message_count: 2,
        total_message_sent: 2,
      });
      assert.deepEqual(counted.get(CHANNEL_2), { last_message_id: MESSAGE_1, message_count: 1, total_message_sent: 1 });
      assert.equal(counted.has('1700000000000000999'), false, 'a channel nothing was sent in has no entry');
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_10), true);
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_1), true, 'the ephemeral one, never counted');
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_10), false, 'gone already: counted once');
      assert.deepEqual((await store().channelCounters([CHANNEL_1])).get(CHANNEL_1), {
        last_message_id: MESSAGE_10,
        message_count: 1,
        total_message_sent: 2,
      });
      assert.deepEqual((await store().channelCounters([])).size, 0);
    });

    it('message counters: an answer’s message counts with its update, a bulk delete and world-file deletes count down', async () => {
      await store().putInteraction(interaction(APP_A, INTERACTION));
      await store().updateInteraction(
        APP_A,
        INTERACTION,
        ['pending'],
        { state: 'responded' },
        message(CHANNEL_1, MESSAGE_1, 'a'),
      );
      assert.equal(
        await store().updateInteraction(
          APP_A,
          INTERACTION,
          ['pending'],
          { state: 'failed' },
          message(CHANNEL_1, MESSAGE_2, 'b'),
        ),
        false,
      );
      assert.deepEqual((await store().channelCounters([CHANNEL_1])).get(CHANNEL_1), {
        last_message_id: MESSAGE_1,
        message_count: 1,
        total_message_sent: 1,
      });
      await store().putMessage(message(CHANNEL_1, MESSAGE_2, 'b'));
      // A world-file message's copy is no new message; deleting it counts the world-file message down.
      await store().editWorldMessage(message(CHANNEL_1, SEEDED_1, 'copied'));
      const gone = await store().deleteMessages(CHANNEL_1, [MESSAGE_1, MESSAGE_2, SEEDED_1], [SEEDED_1]);
      assert.equal(gone.length, 3);
      assert.equal(await store().deleteMessage(CHANNEL_1, SEEDED_2, true), true);
      assert.deepEqual((await store().channelCounters([CHANNEL_1])).get(CHANNEL_1), {
        last_message_id: MESSAGE_2,
        message_count: -2,
        total_message_sent: 2,
      });
      // The world replaced, its messages are the file's again: the store counts only the messages it holds.
      await store().putMessage(message(CHANNEL_1, MESSAGE_10, 'kept'));
      await t.stores.world.replaceWorld(smallWorld());
      assert.deepEqual((await store().channelCounters([CHANNEL_1])).get(CHANNEL_1), {
        last_message_id: MESSAGE_10,
        message_count: 1,
        total_message_sent: 3,
      });
    });

    it('message counters: a forum post’s starter message (the thread’s id) is its last message, never counted', async () => {
      await store().putMessage(message(CHANNEL_2, CHANNEL_2, 'the post'));
      assert.deepEqual((await store().channelCounters([CHANNEL_2])).get(CHANNEL_2), {
        last_message_id: CHANNEL_2,
        message_count: 0,
        total_message_sent: 0,
      });
      await store().deleteMessage(CHANNEL_2, CHANNEL_2);
      assert.equal((await store().channelCounters([CHANNEL_2])).get(CHANNEL_2)?.message_count, 0);
    });

    it('Activity instances are listed by their application only', async () => {
      const mine = [activityInstance(APP_A, '1910000000000000001'), activityInstance(APP_A, '1910000000000000002')];
      for (const instance of mine) await store().putActivityInstance(instance);
      await store().putActivityInstance(activityInstance(APP_B, '1910000000000000003'));
      assert.deepEqual(
        [...(await store().listActivityInstances(APP_A))].sort((a, b) => a.id.localeCompare(b.id)),
        mine,
      );
      assert.equal((await store().listActivityInstances(APP_B)).length, 1);
      assert.deepEqual(await store().listActivityInstances('1100000000000000999'), []);
    });

    it('a transcript keeps its steps in order, per application and interaction, up to its bound', async () => {
      const id = '1100000000000000500';
      await store().appendTranscript(APP_A, id, { at: 1, kind: 'delivery', detail: { outcome: 'ok' } });
      await store().appendTranscript(APP_A, id, { at: 2, kind: 'fault', detail: { kind: 'drop' } });
      await store().appendTranscript(APP_B, id, { at: 3, kind: 'delivery', detail: {} });
      assert.deepEqual(await store().listTranscript(APP_A, id), [
        { at: 1, kind: 'delivery', detail: { outcome: 'ok' } },
        { at: 2, kind: 'fault', detail: { kind: 'drop' } },
      ]);
      assert.equal((await store().listTranscript(APP_B, id)).length, 1, 'another application’s own');
      assert.deepEqual(await store().listTranscript(APP_A, '1100000000000000501'), []);
      for (let i = 0; i < MAX_TRANSCRIPT_ENTRIES + 5; i++) {
        await store().appendTranscript(APP_A, '1100000000000000502', { at: i, kind: 'step', detail: {} });
      }
      const bounded = await store().listTranscript(APP_A, '1100000000000000502');
      assert.equal(bounded.length, MAX_TRANSCRIPT_ENTRIES);
      assert.equal(bounded.at(-1)!.at, MAX_TRANSCRIPT_ENTRIES - 1, 'the first ones are kept');
    });

    it('pins: newest first, paged by time, bounded per channel, each pinned once, gone with its message', async () => {
      await store().putMessage(message(CHANNEL_1, MESSAGE_1, 'a'));
      await store().putMessage(message(CHANNEL_1, MESSAGE_2, 'b'));
      const WORLD_MESSAGE = '1700000000000000001';
      assert.equal(await store().pinMessage(CHANNEL_1, MESSAGE_1, '2026-01-01T00:00:01.000Z', 3), 'pinned');
      assert.equal(await store().pinMessage(CHANNEL_1, MESSAGE_1, '2026-01-01T00:00:09.000Z', 3), 'already');
      assert.equal(await store().pinMessage(CHANNEL_1, MESSAGE_2, '2026-01-01T00:00:02.000Z', 3), 'pinned');
      // A message the store does not hold (the world file's) is pinned by id all the same.
      assert.equal(await store().pinMessage(CHANNEL_1, WORLD_MESSAGE, '2026-01-01T00:00:02.000Z', 3), 'pinned');
      assert.equal(await store().pinMessage(CHANNEL_1, MESSAGE_10, '2026-01-01T00:00:03.000Z', 3), 'full');
      assert.equal(await store().pinMessage(CHANNEL_2, MESSAGE_10, '2026-01-01T00:00:03.000Z', 3), 'pinned');
      const all = await store().listPins(CHANNEL_1, 50);
      assert.deepEqual(all, [
        { messageId: MESSAGE_2, pinnedAt: '2026-01-01T00:00:02.000Z' },
        { messageId: WORLD_MESSAGE, pinnedAt: '2026-01-01T00:00:02.000Z' },
        { messageId: MESSAGE_1, pinnedAt: '2026-01-01T00:00:01.000Z' },
      ]);
      assert.deepEqual(
        (await store().listPins(CHANNEL_1, 50, '2026-01-01T00:00:02.000Z')).map((p) => p.messageId),
        [MESSAGE_1],
      );
      assert.deepEqual(
        (await store().listPins(CHANNEL_1, 1)).map((p) => p.messageId),
        [MESSAGE_2],
      );
      // Which messages are pinned, asked of a few ids (a channel's page): only those of that channel.
      assert.deepEqual(
        (await store().pinnedAmong(CHANNEL_1, [MESSAGE_1, MESSAGE_10, WORLD_MESSAGE])).sort(),
        [MESSAGE_1, WORLD_MESSAGE].sort(),
      );
      assert.deepEqual(await store().pinnedAmong(CHANNEL_2, [MESSAGE_1]), []);
      assert.deepEqual(await store().pinnedAmong(CHANNEL_1, []), []);
      assert.equal(await store().unpinMessage(CHANNEL_1, WORLD_MESSAGE), true);
      assert.equal(await store().unpinMessage(CHANNEL_1, WORLD_MESSAGE), false);
      assert.equal(await store().deleteMessage(CHANNEL_1, MESSAGE_2), true);
      assert.deepEqual(
        (await store().listPins(CHANNEL_1, 50)).map((p) => p.messageId),
        [MESSAGE_1],
      );
      assert.deepEqual(
        (await store().listPins(CHANNEL_2, 50)).map((p) => p.messageId),
        [MESSAGE_10],
      );
    });

    it('two racing pins on two connections cannot both take the last place of a channel', async () => {
      const other = await t.db.connect();
      const outcomes = await Promise.all([
        store().pinMessage(CHANNEL_1, MESSAGE_1, '2026-01-01T00:00:01.000Z', 1),
        other.interactions.pinMessage(CHANNEL_1, MESSAGE_2, '2026-01-01T00:00:01.000Z', 1),
      ]);
      await other.close();
      assert.deepEqual([...outcomes].sort(), ['full', 'pinned']);
      assert.equal((await store().listPins(CHANNEL_1, 50)).length, 1);
    });
  });
}
