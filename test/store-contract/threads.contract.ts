/**
 * The ThreadStore and DmChannelStore contracts (`Store.threads`, `Store.dms`): a thread created through the
 * API is a row of its own that every guild read holds among its channels (with its members' ids),
 * on this store and on another opened on the same database; a DM channel is one per bot and user.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Channel } from '../../src/core/world/types.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB, CHANNEL_1, GUILD_1, GUILD_2, smallWorld } from './fixtures.js';

const THREAD = '1500000000000000001';
const OTHER_THREAD = '1500000000000000002';
const JOINED = '2026-02-01T00:00:00.000Z';
const LATER = '2026-02-02T00:00:00.000Z';

function thread(id: string, type: 11 | 12 = 12, archived = false): Channel {
  return {
    id,
    type,
    name: `thread-${id}`,
    nsfw: false,
    parent_id: CHANNEL_1,
    permission_overwrites: [],
    thread: {
      owner_id: ALICE,
      archived,
      locked: false,
      auto_archive_duration: 1440,
      archive_timestamp: JOINED,
      create_timestamp: JOINED,
      invitable: true,
      rate_limit_per_user: 0,
    },
  };
}

export function describeThreadsContract(name: string, make: MakeStores): void {
  describe(`${name}: threads and DM channels`, () => {
    const t = freshDatabasePerTest(make);

    it('a created thread is among its guild’s channels, with its members, on every store; a second create of its id is refused', async () => {
      const world = t.stores.world;
      const threadStore = t.stores.threads;
      await world.replaceWorld(smallWorld());
      await world.getGuild(GUILD_1); // read (and maybe cached) before the write
      assert.equal(
        await threadStore.createThread(GUILD_1, thread(THREAD), [{ user_id: ALICE, join_timestamp: JOINED }]),
        'created',
      );
      assert.equal(await threadStore.createThread(GUILD_1, thread(THREAD, 11), []), 'exists');
      assert.equal(await threadStore.createThread('1300000000000000999', thread(OTHER_THREAD), []), 'no-guild');
      const other = await t.db.connect();
      for (const store of [t.stores, other]) {
        const read = (await store.members.getGuildWithMembers(GUILD_1, []))?.channels.find((c) => c.id === THREAD);
        assert.equal(read?.type, 12, 'the first create stands');
        assert.deepEqual(read?.thread_member_ids, [ALICE]);
        assert.deepEqual(read?.thread, thread(THREAD).thread);
        assert.equal(
          (await store.members.findGuildByChannelWithMembers(THREAD, []))?.id,
          GUILD_1,
          'found by the thread id',
        );
        assert.equal(
          (await store.world.getGuild(GUILD_2))?.channels.some((c) => c.id === THREAD),
          false,
          'no other guild holds it',
        );
      }
      await other.close();
    });

    it('members join and leave one row at a time, listed by join time; a thread that is not stored takes none', async () => {
      const world = t.stores.world;
      const threadStore = t.stores.threads;
      await world.replaceWorld(smallWorld());
      await threadStore.createThread(GUILD_1, thread(THREAD), [{ user_id: BOB, join_timestamp: LATER }]);
      await world.getGuild(GUILD_1);
      assert.equal(
        await threadStore.addThreadMember(GUILD_1, THREAD, { user_id: APP_A, join_timestamp: JOINED }),
        true,
      );
      assert.equal(
        await threadStore.addThreadMember(GUILD_1, THREAD, { user_id: APP_A, join_timestamp: LATER }),
        false,
      );
      assert.equal(
        await threadStore.addThreadMember(GUILD_1, OTHER_THREAD, { user_id: ALICE, join_timestamp: JOINED }),
        null,
      );
      assert.equal(
        await threadStore.addThreadMember(GUILD_2, THREAD, { user_id: ALICE, join_timestamp: JOINED }),
        null,
      );
      assert.deepEqual(await threadStore.listThreadMembers(GUILD_1, THREAD), [
        { user_id: APP_A, join_timestamp: JOINED },
        { user_id: BOB, join_timestamp: LATER },
      ]);
      const read = async () =>
        (await world.getGuild(GUILD_1))?.channels.find((c) => c.id === THREAD)?.thread_member_ids;
      assert.deepEqual(await read(), [APP_A, BOB]);
      assert.equal(await threadStore.removeThreadMember(GUILD_1, THREAD, BOB), true);
      assert.equal(await threadStore.removeThreadMember(GUILD_1, THREAD, BOB), false);
      assert.deepEqual(await read(), [APP_A]);
    });

    it('an update rewrites the thread and keeps its members; a delete takes both; a guild write neither copies nor drops it', async () => {
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const threadStore = t.stores.threads;
      await world.replaceWorld(smallWorld());
      await threadStore.createThread(GUILD_1, thread(THREAD), [{ user_id: ALICE, join_timestamp: JOINED }]);
      assert.equal(await threadStore.updateThread(GUILD_1, { ...thread(THREAD, 12, true), name: 'renamed' }), true);
      assert.equal(await threadStore.updateThread(GUILD_2, thread(THREAD)), false, 'only in its own guild');
      const guild = await world.getGuild(GUILD_1);
      const updated = guild?.channels.find((c) => c.id === THREAD);
      assert.equal(updated?.name, 'renamed');
      assert.equal(updated?.thread?.archived, true);
      assert.deepEqual(updated?.thread_member_ids, [ALICE]);
      // A guild written back as it was read (with the thread among its channels) keeps one copy.
      await world.putGuild(guild!);
      assert.equal((await world.getGuild(GUILD_1))?.channels.filter((c) => c.id === THREAD).length, 1);
      assert.equal(await threadStore.deleteThread(GUILD_1, THREAD), true);
      assert.equal(await threadStore.deleteThread(GUILD_1, THREAD), false);
      assert.equal(
        (await world.getGuild(GUILD_1))?.channels.some((c) => c.id === THREAD),
        false,
        'gone for good',
      );
      assert.deepEqual(await threadStore.listThreadMembers(GUILD_1, THREAD), []);
      const byId = await memberStore.findGuildByChannelWithMembers(THREAD, []);
      assert.equal(byId?.channels.some((c) => c.id === THREAD) ?? false, false, 'no guild holds it by its id');
    });

    it('a cap of active threads: archived ones do not count, racing creates and unarchives never pass it', async () => {
      const threadStore = t.stores.threads;
      await t.stores.world.replaceWorld(smallWorld());
      const id = (n: number) => `15000000000000001${String(n).padStart(2, '0')}`;
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, n) => threadStore.createThread(GUILD_1, thread(id(n)), [], 3)),
      );
      assert.equal(racing.filter((outcome) => outcome === 'created').length, 3, racing.join(' '));
      assert.equal(racing.filter((outcome) => outcome === 'full').length, 3, racing.join(' '));
      const stored = racing.flatMap((outcome, n) => (outcome === 'created' ? [id(n)] : []));
      assert.equal(await threadStore.createThread(GUILD_1, thread(id(10), 12, true), [], 3), 'created', 'archived');
      assert.equal(await threadStore.createThread(GUILD_1, thread(stored[0]!), [], 3), 'exists', 'its id first');
      assert.equal(await threadStore.createThread(GUILD_2, thread(id(11)), [], 3), 'created', 'another guild');
      assert.equal(await threadStore.updateThread(GUILD_1, thread(stored[0]!), 3), true, 'an active one rewritten');
      assert.equal(await threadStore.updateThread(GUILD_1, thread(id(10)), 3), 'full', 'an unarchive past the cap');
      assert.equal(await threadStore.updateThread(GUILD_1, thread(id(12)), 3), false, 'no such thread');
      assert.equal(await threadStore.updateThread(GUILD_1, thread(stored[1]!, 12, true)), true, 'archived');
      const unarchives = await Promise.all([
        threadStore.updateThread(GUILD_1, thread(id(10)), 3),
        threadStore.updateThread(GUILD_1, thread(stored[1]!), 3),
      ]);
      assert.deepEqual([...unarchives].sort(), [true, 'full'].sort(), 'one of two racing unarchives');
      const guild = await t.stores.world.getGuild(GUILD_1);
      const active = guild?.channels.filter((c) => c.thread && !c.thread.archived) ?? [];
      assert.equal(active.length, 3);
    });

    it('a deleted guild takes its threads', async () => {
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const threadStore = t.stores.threads;
      await world.replaceWorld(smallWorld());
      await threadStore.createThread(GUILD_1, thread(THREAD), [{ user_id: ALICE, join_timestamp: JOINED }]);
      await world.deleteGuild(GUILD_1);
      assert.equal(await memberStore.findGuildByChannelWithMembers(THREAD, []), null);
      assert.deepEqual(await threadStore.listThreadMembers(GUILD_1, THREAD), []);
    });

    it('a channel dropped by a structure change takes its stored threads, their members and messages', async () => {
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const structureStore = t.stores.guildStructure;
      const threadStore = t.stores.threads;
      await world.replaceWorld(smallWorld());
      await threadStore.createThread(GUILD_1, thread(THREAD), [{ user_id: ALICE, join_timestamp: JOINED }]);
      await structureStore.changeGuildStructure(GUILD_1, (guild) => ({
        structure: {
          roles: guild.roles,
          channels: guild.channels.filter((c) => c.id !== CHANNEL_1 && c.id !== THREAD),
        },
        result: null,
      }));
      const after = await memberStore.getGuildWithMembers(GUILD_1, []);
      assert.deepEqual(
        after?.channels.filter((c) => c.id === CHANNEL_1 || c.id === THREAD),
        [],
        'neither the channel nor its thread',
      );
      assert.equal(await memberStore.findGuildByChannelWithMembers(THREAD, []), null);
      assert.deepEqual(await threadStore.listThreadMembers(GUILD_1, THREAD), []);
    });

    it('a DM channel is one per bot and user: a second open returns the first, on every store', async () => {
      const world = t.stores.world;
      const dmStore = t.stores.dms;
      await world.replaceWorld(smallWorld());
      const first = await dmStore.openDmChannel(APP_A, ALICE, '1600000000000000001');
      assert.deepEqual(first, { id: '1600000000000000001', application_id: APP_A, user_id: ALICE });
      const other = await t.db.connect();
      assert.deepEqual(await other.dms.openDmChannel(APP_A, ALICE, '1600000000000000002'), first);
      const [racedA, racedB] = await Promise.all([
        dmStore.openDmChannel(APP_B, ALICE, '1600000000000000003'),
        other.dms.openDmChannel(APP_B, ALICE, '1600000000000000004'),
      ]);
      assert.deepEqual(racedA, racedB, 'two racing opens share one channel');
      await dmStore.openDmChannel(APP_A, BOB, '1600000000000000005');
      assert.deepEqual(await other.dms.getDmChannel(first.id), first);
      assert.equal(await dmStore.getDmChannel(CHANNEL_1), null, 'a guild channel is no DM');
      assert.deepEqual(
        (await dmStore.listDmChannelsOfUser(ALICE)).map((c) => c.application_id),
        [APP_A, APP_B],
      );
      await world.deleteApplication(APP_A);
      assert.equal(await dmStore.getDmChannel(first.id), null, 'an application goes with its DM channels');
      await other.close();
    });
  });
}
