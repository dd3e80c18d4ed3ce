/**
 * The InviteStore contract (`Store.invites`): an invite is read only while live (not expired at
 * the time asked, not used up), a guild holds at most its bound of live invites (expired ones make
 * room), a code is taken once, an accept adds the member and counts the use in one write (a member
 * or a banned user uses nothing; the last use deletes the invite), and a channel deleted takes its
 * invites with it, on this store and another opened on the same database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredInvite } from '../../src/resources/invites/rules.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { ALICE, BOB, CHANNEL_1, CHANNEL_1B, GUILD_1, GUILD_2, CHANNEL_2, smallWorld } from './fixtures.js';

const HOUR_MS = 3_600_000;

function invite(code: string, overrides: Partial<StoredInvite> = {}): StoredInvite {
  return {
    code,
    guild_id: GUILD_1,
    channel_id: CHANNEL_1,
    inviter_id: ALICE,
    max_age: 3600,
    max_uses: 0,
    uses: 0,
    temporary: false,
    created_at: new Date(START_MS).toISOString(),
    expires_at_ms: START_MS + HOUR_MS,
    target_type: null,
    target_user_id: null,
    target_application_id: null,
    ...overrides,
  };
}

function member(userId: string) {
  return { user_id: userId, roles: [], nick: null, joined_at: new Date(START_MS).toISOString() };
}

export function describeInvitesContract(name: string, make: MakeStores): void {
  describe(`${name}: invites`, () => {
    const t = freshDatabasePerTest(make);

    it('an invite is read while live, listed by channel and guild, and gone once expired', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const invites = t.stores.invites;
      assert.equal(await invites.createInvite(invite('aaaa1111'), START_MS, 10), 'created');
      assert.equal(
        await invites.createInvite(invite('bbbb2222', { channel_id: CHANNEL_1B, expires_at_ms: null }), START_MS, 10),
        'created',
      );
      assert.equal(
        await invites.createInvite(invite('aaaa1111', { guild_id: GUILD_2, channel_id: CHANNEL_2 }), START_MS, 10),
        'code-taken',
      );
      const other = await t.db.connect();
      for (const store of [t.stores, other]) {
        assert.deepEqual(await store.invites.getInvite('aaaa1111', START_MS), invite('aaaa1111'));
        assert.deepEqual(
          (await store.invites.listChannelInvites(CHANNEL_1, START_MS)).map((i) => i.code),
          ['aaaa1111'],
        );
        assert.deepEqual(
          (await store.invites.listGuildInvites(GUILD_1, START_MS)).map((i) => i.code),
          ['aaaa1111', 'bbbb2222'],
        );
        assert.deepEqual(await store.invites.listGuildInvites(GUILD_2, START_MS), []);
        const later = START_MS + HOUR_MS;
        assert.equal(await store.invites.getInvite('aaaa1111', later), null, 'expired at its time');
        assert.deepEqual(
          (await store.invites.listGuildInvites(GUILD_1, later)).map((i) => i.code),
          ['bbbb2222'],
        );
      }
    });

    it('a guild holds at most its bound of live invites; expired ones make room', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const invites = t.stores.invites;
      assert.equal(await invites.createInvite(invite('bound001'), START_MS, 2), 'created');
      assert.equal(
        await invites.createInvite(invite('bound002', { expires_at_ms: START_MS + 1000 }), START_MS, 2),
        'created',
      );
      assert.equal(await invites.createInvite(invite('bound003'), START_MS, 2), 'full');
      assert.equal(await invites.getInvite('bound003', START_MS), null, 'nothing written');
      assert.equal(
        await invites.createInvite(invite('bound003', { guild_id: GUILD_2, channel_id: CHANNEL_2 }), START_MS, 2),
        'created',
        'another guild has its own bound',
      );
      assert.equal(
        await invites.createInvite(invite('bound004'), START_MS + 1000, 2),
        'created',
        'the expired one made room',
      );
    });

    it('accept: the member added and the use counted; a member or a banned user uses nothing; the last use deletes it', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const invites = t.stores.invites;
      await invites.createInvite(invite('join0001', { max_uses: 1 }), START_MS, 10);
      assert.deepEqual(await invites.acceptInvite('join0001', member(ALICE), START_MS), {
        kind: 'member',
        invite: invite('join0001', { max_uses: 1 }),
      });
      const joined = await invites.acceptInvite('join0001', member(BOB), START_MS);
      assert.deepEqual(joined, { kind: 'joined', invite: invite('join0001', { max_uses: 1, uses: 1 }), usedUp: true });
      const other = await t.db.connect();
      for (const store of [t.stores, other]) {
        assert.equal(await store.invites.getInvite('join0001', START_MS), null, 'used up: gone');
        const guild = await store.members.getGuildWithMembers(GUILD_1, [BOB]);
        assert.deepEqual(
          guild?.members.map((m) => m.user_id),
          [BOB],
        );
      }
      assert.deepEqual(await invites.acceptInvite('join0001', member(BOB), START_MS), { kind: 'unknown' });

      await invites.createInvite(
        invite('join0002', { guild_id: GUILD_2, channel_id: CHANNEL_2, max_uses: 5 }),
        START_MS,
        10,
      );
      await t.stores.members.banGuildMember({ guild_id: GUILD_2, user_id: BOB, reason: null });
      const banned = await invites.acceptInvite('join0002', member(BOB), START_MS);
      assert.equal(banned.kind, 'banned');
      assert.equal((await invites.getInvite('join0002', START_MS))?.uses, 0);
      assert.deepEqual((await t.stores.members.getGuildWithMembers(GUILD_2, [BOB]))?.members, []);
      assert.deepEqual(
        await invites.acceptInvite('join0002', member(BOB), START_MS + HOUR_MS),
        { kind: 'unknown' },
        'expired',
      );
    });

    it('addMember adds a user once (never rewriting a member), not a banned one; removeMembers removes in one write', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const invites = t.stores.invites;
      assert.equal(await invites.addMember(GUILD_1, member(BOB)), 'added');
      assert.equal(await invites.addMember(GUILD_1, { ...member(BOB), nick: 'rewritten' }), 'member');
      assert.equal((await t.stores.members.getGuildWithMembers(GUILD_1, [BOB]))?.members[0]?.nick, null);
      assert.equal(await invites.addMember('1300000000000000999', member(BOB)), 'no-guild');
      await t.stores.members.banGuildMember({ guild_id: GUILD_2, user_id: BOB, reason: null });
      assert.equal(await invites.addMember(GUILD_2, member(BOB)), 'banned');
      assert.deepEqual(await invites.removeMembers(GUILD_1, [BOB, '1200000000000000999']), [BOB]);
      const other = await t.db.connect();
      for (const store of [t.stores, other]) {
        assert.deepEqual(
          (await store.members.getGuildWithMembers(GUILD_1, [ALICE, BOB]))?.members.map((m) => m.user_id),
          [ALICE],
        );
      }
    });

    it('delete answers the invite once; a channel deleted takes its invites', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const invites = t.stores.invites;
      await invites.createInvite(invite('del00001'), START_MS, 10);
      await invites.createInvite(invite('del00002', { channel_id: CHANNEL_1B }), START_MS, 10);
      assert.equal((await invites.deleteInvite('del00001'))?.code, 'del00001');
      assert.equal(await invites.deleteInvite('del00001'), null);
      await t.stores.guildStructure.changeGuildStructure(GUILD_1, (guild) => ({
        structure: { roles: guild.roles, channels: guild.channels.filter((c) => c.id !== CHANNEL_1B) },
        result: null,
      }));
      assert.equal(await invites.getInvite('del00002', START_MS), null);
    });
  });
}
