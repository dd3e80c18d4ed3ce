/**
 * The GuildMemberStore contract (`Store.members`): a guild's members are rows of their own, a
 * read names the members it needs, and a member write is seen at once by every read, on this
 * store and on another opened on the same database, whatever either had read before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Guild, Member } from '../../src/core/world/types.js';
import { BannedUserError } from '../../src/resources/members/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, BOB, CHANNEL_1, CHANNEL_2, guild, GUILD_1, GUILD_2, smallWorld, user } from './fixtures.js';

const CAROL = '1200000000000000003';
const UNKNOWN = '1200000000000000999';

function member(userId: string, nick: string | null = null): Member {
  return { user_id: userId, roles: [], nick, joined_at: '2026-01-02T00:00:00.000Z' };
}

/** A guild's document, members aside. */
function withoutMembers({ members: _members, ...rest }: Guild): Omit<Guild, 'members'> {
  return rest;
}

export function describeGuildMembersContract(name: string, make: MakeStores): void {
  describe(`${name}: guild members as rows`, () => {
    const t = freshDatabasePerTest(make);

    /** GUILD_1 with Alice, Bob and Carol, in that order. */
    async function threeMembers(): Promise<void> {
      const world = smallWorld();
      world.users.push(user(CAROL, 'carol-token'));
      world.guilds[0]!.members.push(member(BOB, 'bob'), member(CAROL, 'carol'));
      await t.stores.world.replaceWorld(world);
    }

    it('a guild read with named members holds only those that exist, in the guild’s order', async () => {
      await threeMembers();
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const whole = await world.getGuild(GUILD_1);
      assert.deepEqual(
        whole?.members.map((m) => m.user_id),
        [ALICE, BOB, CAROL],
      );
      const named = await memberStore.getGuildWithMembers(GUILD_1, [CAROL, UNKNOWN, ALICE, CAROL]);
      assert.deepEqual(
        named?.members.map((m) => m.user_id),
        [ALICE, CAROL],
        'the guild’s order, unknown ids left out, each once',
      );
      assert.deepEqual(withoutMembers(named), withoutMembers(whole), 'the rest of the guild as a whole read has it');
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, []))?.members, []);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'bob')]);
      assert.equal(await memberStore.getGuildWithMembers('1300000000000000999', [ALICE]), null);
      const byChannel = await memberStore.findGuildByChannelWithMembers(CHANNEL_1, [BOB]);
      assert.equal(byChannel?.id, GUILD_1);
      assert.deepEqual(byChannel?.members, [member(BOB, 'bob')]);
      assert.deepEqual(
        (await memberStore.findGuildByChannelWithMembers(CHANNEL_2, [BOB]))?.members,
        [],
        'not in GUILD_2',
      );
      assert.equal(await memberStore.findGuildByChannelWithMembers('1400000000000000999', [ALICE]), null);
    });

    it('a member write is seen at once by every read of this store and of another, the other members unchanged', async () => {
      await threeMembers();
      const other = await t.db.connect();
      // Every kind of read is made first, so that whatever a store keeps of them is stale after the write.
      for (const store of [t.stores, other]) {
        await store.world.getGuild(GUILD_1);
        await store.members.getGuildWithMembers(GUILD_1, [BOB]);
        await store.members.getGuildWithMembers(GUILD_1, [CAROL]);
        await store.members.getGuildWithMembers(GUILD_1, [BOB, CAROL]);
        await store.members.findGuildByChannelWithMembers(CHANNEL_1, [BOB]);
      }
      assert.equal(await t.stores.members.putGuildMember(GUILD_1, member(BOB, 'robert')), true);
      for (const store of [t.stores, other]) {
        assert.deepEqual((await store.members.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'robert')]);
        assert.deepEqual((await store.members.getGuildWithMembers(GUILD_1, [BOB, CAROL]))?.members, [
          member(BOB, 'robert'),
          member(CAROL, 'carol'),
        ]);
        assert.deepEqual((await store.members.getGuildWithMembers(GUILD_1, [CAROL]))?.members, [
          member(CAROL, 'carol'),
        ]);
        assert.deepEqual((await store.members.findGuildByChannelWithMembers(CHANNEL_1, [BOB]))?.members, [
          member(BOB, 'robert'),
        ]);
        assert.deepEqual(
          (await store.world.getGuild(GUILD_1))?.members.map((m) => m.nick),
          [null, 'robert', 'carol'],
          'replaced where it stood',
        );
      }
      assert.equal(await other.members.deleteGuildMember(GUILD_1, CAROL), true);
      for (const store of [t.stores, other]) {
        assert.deepEqual((await store.members.getGuildWithMembers(GUILD_1, [CAROL]))?.members, []);
        assert.deepEqual(
          (await store.world.getGuild(GUILD_1))?.members.map((m) => m.user_id),
          [ALICE, BOB],
        );
      }
    });

    it('a new member goes last, a member put again keeps its place; a guild written whole sets the rows', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const world = t.stores.world;
      const memberStore = t.stores.members;
      await world.putUser(user(CAROL, 'carol-token'));
      assert.equal(await memberStore.putGuildMember(GUILD_1, member(CAROL)), true);
      assert.equal(await memberStore.putGuildMember(GUILD_1, member(BOB)), true);
      assert.equal(await memberStore.putGuildMember(GUILD_1, member(CAROL, 'again')), true);
      assert.deepEqual(
        (await world.getGuild(GUILD_1))?.members.map((m) => [m.user_id, m.nick]),
        [
          [ALICE, null],
          [CAROL, 'again'],
          [BOB, null],
        ],
      );
      const rewritten = { ...guild(GUILD_1, [CHANNEL_1]), members: [member(BOB, 'first'), member(ALICE)] };
      await world.putGuild(rewritten);
      assert.deepEqual(await world.getGuild(GUILD_1), rewritten);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [CAROL]))?.members, [], 'Carol’s row is gone');
      assert.deepEqual(await memberStore.guildIdsOfMember(CAROL), []);
      const listed = (await world.listGuilds()).find((g) => g.id === GUILD_1);
      assert.deepEqual(listed, rewritten, 'listed and exported whole');
      assert.deepEqual(
        (await world.exportWorld()).guilds.find((g) => g.id === GUILD_1),
        rewritten,
      );
    });

    it('members go with their guild, and a world replaced whole replaces them', async () => {
      await threeMembers();
      const world = t.stores.world;
      const memberStore = t.stores.members;
      assert.equal(await world.deleteGuild(GUILD_1), true);
      assert.equal(await memberStore.putGuildMember(GUILD_1, member(BOB)), false, 'no guild, nothing written');
      assert.equal(await memberStore.getGuildWithMembers(GUILD_1, [BOB]), null);
      assert.deepEqual(await memberStore.guildIdsOfMember(BOB), []);
      assert.deepEqual(await memberStore.guildIdsOfMember(ALICE), [GUILD_2]);
      await world.replaceWorld(smallWorld());
      assert.deepEqual(
        (await world.getGuild(GUILD_1))?.members.map((m) => m.user_id),
        [ALICE],
      );
    });

    it('a snapshot holds the member rows: restored, a member added since is gone from every read', async () => {
      await threeMembers();
      const world = t.stores.world;
      const memberStore = t.stores.members;
      await t.stores.snapshots.saveSnapshot('7');
      await memberStore.putGuildMember(GUILD_1, member(BOB, 'after the snapshot'));
      await memberStore.deleteGuildMember(GUILD_1, CAROL);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB, CAROL]))?.members, [
        member(BOB, 'after the snapshot'),
      ]);
      assert.equal(await t.stores.snapshots.restoreSnapshot('7'), true);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB, CAROL]))?.members, [
        member(BOB, 'bob'),
        member(CAROL, 'carol'),
      ]);
      assert.deepEqual(
        (await world.getGuild(GUILD_1))?.members.map((m) => m.user_id),
        [ALICE, BOB, CAROL],
      );
    });

    it('a ban removes the member in the same write, keeps the user out, and is listed in id order', async () => {
      await threeMembers();
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const ban = { guild_id: GUILD_1, user_id: BOB, reason: 'spam' };
      assert.deepEqual(await memberStore.banGuildMember(ban), { removed: member(BOB, 'bob') });
      assert.deepEqual(await memberStore.getGuildBan(GUILD_1, BOB), ban);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [], 'no longer a member');
      assert.deepEqual(await memberStore.guildIdsOfMember(BOB), []);
      await assert.rejects(memberStore.putGuildMember(GUILD_1, member(BOB)), BannedUserError, 'not re-addable');
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [], 'nothing written');
      assert.equal(await memberStore.putGuildMember(GUILD_2, member(BOB)), true, 'other guilds take the user');

      const again = { ...ban, reason: null };
      assert.deepEqual(
        await memberStore.banGuildMember(again),
        { removed: null },
        'a user who is no member is banned too',
      );
      assert.deepEqual(await memberStore.getGuildBan(GUILD_1, BOB), again, 'the reason replaced');
      assert.deepEqual(await memberStore.banGuildMember({ ...ban, guild_id: '1300000000000000999' }), null);
      assert.equal(await memberStore.getGuildBan(GUILD_2, BOB), null);

      const ids = ['1200000000000000010', '120000000000000009', UNKNOWN, CAROL];
      for (const id of ids) await memberStore.banGuildMember({ guild_id: GUILD_1, user_id: id, reason: null });
      const listed = async (before: string | null, after: string | null, limit: number) =>
        (await memberStore.listGuildBans(GUILD_1, { before, after, limit })).map((b) => b.user_id);
      const ascending = ['120000000000000009', BOB, CAROL, '1200000000000000010', UNKNOWN];
      assert.deepEqual(await listed(null, null, 100), ascending, 'numeric order of ids');
      assert.deepEqual(await listed(null, BOB, 2), [CAROL, '1200000000000000010']);
      assert.deepEqual(await listed('1200000000000000010', null, 2), [BOB, CAROL], 'the last before, ascending');
      assert.deepEqual(await memberStore.listGuildBans(GUILD_2, { before: null, after: null, limit: 10 }), []);

      assert.equal(await memberStore.deleteGuildBan(GUILD_1, BOB), true);
      assert.equal(await memberStore.deleteGuildBan(GUILD_1, BOB), false);
      assert.equal(await memberStore.putGuildMember(GUILD_1, member(BOB)), true, 'unbanned: may join again');
      assert.equal(await world.deleteGuild(GUILD_1), true);
      assert.equal(await memberStore.getGuildBan(GUILD_1, CAROL), null, 'bans go with their guild');
    });

    it('a guild of 1,000 members: one member read and written without the others changing', async () => {
      const world = smallWorld();
      const ids = Array.from({ length: 1000 }, (_, i) => `12100000000000${String(i).padStart(5, '0')}`);
      world.users.push(...ids.map((id) => user(id, `token-${id}`)));
      world.guilds[0]!.members.push(...ids.map((id) => member(id)));
      await t.stores.world.replaceWorld(world);
      const target = ids[500]!;
      assert.equal(await t.stores.members.putGuildMember(GUILD_1, member(target, 'changed')), true);
      assert.deepEqual((await t.stores.members.getGuildWithMembers(GUILD_1, [target]))?.members, [
        member(target, 'changed'),
      ]);
      const whole = await t.stores.world.getGuild(GUILD_1);
      assert.equal(whole?.members.length, 1001);
      assert.equal(whole?.members[501]?.nick, 'changed', 'in its place');
      assert.equal(whole?.members.filter((m) => m.nick !== null).length, 1, 'no other member changed');
    });
  });
}
