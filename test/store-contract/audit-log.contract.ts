/**
 * The AuditLogStore contract, and the member writes that carry their audit entry (part of
 * WorldStore): an entry commits with its action or not at all, reads filter by who acted and the
 * action and page by entry id, and entries older than 45 days go as new ones come.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditLogEvent, type AuditEntry, type AuditLogQuery } from '../../src/resources/audit-log/rules.js';
import { snowflakeAt } from '../../src/core/snowflake.js';
import type { Member } from '../../src/core/world/types.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB, GUILD_1, GUILD_2, smallWorld } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_GUILD = '1300000000000000999';

function entry(at: number, parts: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: snowflakeAt(START_MS + at),
    guild_id: GUILD_1,
    user_id: APP_A,
    target_id: BOB,
    action_type: AuditLogEvent.MemberUpdate,
    ...parts,
  };
}

function query(parts: Partial<AuditLogQuery> = {}): AuditLogQuery {
  return { userId: null, actionType: null, before: null, after: null, limit: 50, ...parts };
}

function member(userId: string, nick: string | null = null): Member {
  return { user_id: userId, roles: [], nick, joined_at: '2026-01-02T00:00:00.000Z' };
}

export function describeAuditLogContract(name: string, make: MakeStores): void {
  describe(`${name}: audit log`, () => {
    const t = freshDatabasePerTest(make);

    async function withBob(): Promise<void> {
      const world = smallWorld();
      world.guilds[0]!.members.push(member(BOB, 'bob'));
      await t.stores.world.replaceWorld(world);
    }

    it('lists a guild’s entries newest first, filtered by who acted and the action, paged by entry id', async () => {
      await withBob();
      const log = t.stores.auditLog;
      const kick = entry(1, { action_type: AuditLogEvent.MemberKick, reason: 'rude' });
      const byB = entry(2, { user_id: APP_B, options: { delete_member_days: '1' } });
      const update = entry(3, { changes: [{ key: 'nick', old_value: 'bob', new_value: 'robert' }] });
      for (const e of [kick, byB, update]) assert.equal(await log.appendAuditEntry(e), true);
      assert.equal(await log.appendAuditEntry(entry(4, { guild_id: GUILD_2 })), true);
      assert.equal(await log.appendAuditEntry(entry(5, { guild_id: UNKNOWN_GUILD })), false, 'no such guild');

      assert.deepEqual(
        await log.listAuditEntries(GUILD_1, query()),
        [update, byB, kick],
        'the whole entries, newest first',
      );
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ userId: APP_B })), [byB]);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ actionType: AuditLogEvent.MemberKick })), [kick]);
      assert.deepEqual(
        await log.listAuditEntries(GUILD_1, query({ userId: APP_A, actionType: AuditLogEvent.MemberUpdate })),
        [update],
      );
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ limit: 2 })), [update, byB]);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ before: update.id })), [byB, kick]);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ after: kick.id })), [byB, update], 'oldest first');
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ after: kick.id, limit: 1 })), [byB]);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query({ after: kick.id, before: update.id })), [byB]);
      assert.deepEqual(await log.listAuditEntries(UNKNOWN_GUILD, query()), []);

      const other = await t.db.connect();
      assert.deepEqual(await other.auditLog.listAuditEntries(GUILD_1, query({ limit: 1 })), [update], 'seen elsewhere');
      assert.equal(await t.stores.world.deleteGuild(GUILD_1), true);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query()), [], 'entries go with their guild');
      assert.equal((await log.listAuditEntries(GUILD_2, query())).length, 1);
    });

    it('keeps 45 days: a new entry drops its guild’s older ones, not another guild’s', async () => {
      await withBob();
      const log = t.stores.auditLog;
      const old = entry(0);
      const kept = entry(2 * DAY_MS);
      const elsewhere = entry(0, { guild_id: GUILD_2 });
      for (const e of [old, kept, elsewhere]) await log.appendAuditEntry(e);
      const late = entry(46 * DAY_MS);
      await log.appendAuditEntry(late);
      assert.deepEqual(await log.listAuditEntries(GUILD_1, query()), [late, kept]);
      assert.deepEqual(await log.listAuditEntries(GUILD_2, query()), [elsewhere]);
    });

    it('a bot’s nickname is set in its install with its entry; no member is written', async () => {
      await withBob();
      const memberStore = t.stores.members;
      const nickOf = async () =>
        (await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.installs.find((i) => i.application_id === APP_A)?.nick;
      assert.equal(await nickOf(), undefined, 'none yet (and the read is cached)');
      const named = entry(1, { target_id: APP_A, changes: [{ key: 'nick', new_value: 'Mod' }] });
      assert.equal(await memberStore.setBotNick(GUILD_1, APP_A, 'Mod', named), true);
      assert.equal(await nickOf(), 'Mod');
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'bob')]);
      assert.equal(await memberStore.setBotNick(GUILD_1, '1100000000000000999', 'x', entry(2)), false, 'not installed');
      assert.equal(await memberStore.setBotNick(UNKNOWN_GUILD, APP_A, 'x', entry(3)), false);
      assert.deepEqual(await t.stores.auditLog.listAuditEntries(GUILD_1, query()), [named]);
      assert.equal(await memberStore.setBotNick(GUILD_1, APP_A, null), true);
      assert.equal(await nickOf(), null, 'reset');
    });

    it('a member’s edit, removal, ban and unban commit with their entry, and nothing is written for none', async () => {
      await withBob();
      const world = t.stores.world;
      const memberStore = t.stores.members;
      const log = t.stores.auditLog;
      const listed = async () => (await log.listAuditEntries(GUILD_1, query({ after: '0' }))).map((e) => e.id);

      const other = await t.db.connect();
      // Read first on both stores: a cached read must not outlive the write.
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'bob')]);
      assert.deepEqual((await other.members.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'bob')]);
      const edit = entry(1);
      const roles = entry(2, { action_type: AuditLogEvent.MemberRoleUpdate });
      assert.equal(await memberStore.updateGuildMember(GUILD_1, member(BOB, 'robert'), [edit, roles]), true);
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'robert')]);
      assert.deepEqual((await other.members.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, 'robert')]);
      assert.deepEqual(
        (await world.getGuild(GUILD_1))?.members.map((m) => m.user_id),
        [ALICE, BOB],
        'in its place, the others untouched',
      );
      assert.equal(
        await memberStore.updateGuildMember(GUILD_1, member(ALICE, 'x')),
        true,
        'Alice is a member; no entry',
      );
      assert.equal(await memberStore.updateGuildMember(GUILD_1, member('1200000000000000999'), [entry(3)]), false);
      assert.deepEqual(
        (await memberStore.getGuildWithMembers(GUILD_1, ['1200000000000000999']))?.members,
        [],
        'an edit adds no one',
      );
      assert.equal(await memberStore.updateGuildMember(UNKNOWN_GUILD, member(BOB), [entry(4)]), false);
      assert.deepEqual(await listed(), [edit.id, roles.id]);

      const kick = entry(5, { action_type: AuditLogEvent.MemberKick });
      assert.equal(await memberStore.deleteGuildMember(GUILD_1, BOB, kick), true);
      assert.equal(await memberStore.deleteGuildMember(GUILD_1, BOB, entry(6)), false, 'gone already');
      assert.deepEqual((await memberStore.getGuildWithMembers(GUILD_1, [BOB]))?.members, []);
      assert.deepEqual((await other.members.getGuildWithMembers(GUILD_1, [BOB]))?.members, [], 'gone elsewhere too');

      const ban = entry(7, { action_type: AuditLogEvent.MemberBanAdd, reason: 'spam' });
      assert.deepEqual(await memberStore.banGuildMember({ guild_id: GUILD_1, user_id: BOB, reason: 'spam' }, ban), {
        removed: null,
      });
      assert.equal(
        await memberStore.banGuildMember({ guild_id: UNKNOWN_GUILD, user_id: BOB, reason: null }, entry(8)),
        null,
      );
      const unban = entry(9, { action_type: AuditLogEvent.MemberBanRemove });
      assert.equal(await memberStore.deleteGuildBan(GUILD_1, BOB, unban), true);
      assert.equal(await memberStore.deleteGuildBan(GUILD_1, BOB, entry(10)), false, 'no ban to lift');
      assert.deepEqual(await listed(), [edit.id, roles.id, kick.id, ban.id, unban.id]);
      assert.deepEqual((await log.listAuditEntries(GUILD_1, query({ limit: 1, actionType: 22 })))[0], ban);
    });
  });
}
