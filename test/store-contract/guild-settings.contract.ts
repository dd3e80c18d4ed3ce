/**
 * The GuildSettingsStore contract (`Store.guildSettings`): an edit writes the guild's name, locale
 * and settings into its document with its audit entries, leaving its roles, channels and members
 * as they were; every read of the guild on this store and another on the same database sees it; a
 * planner that throws writes nothing; no guild, no run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditLogEvent, type AuditEntry } from '../../src/resources/audit-log/rules.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, CHANNEL_1, GUILD_1, smallWorld } from './fixtures.js';

export function describeGuildSettingsContract(name: string, make: MakeStores): void {
  describe(`${name}: guild settings`, () => {
    const t = freshDatabasePerTest(make);

    it('an edit is in every read of the guild, its structure and members untouched; a throwing planner writes nothing', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      await t.stores.members.getGuildWithMembers(GUILD_1, [ALICE]); // read (and maybe cached) before the write
      const entry: AuditEntry = {
        id: '1900000000000000001',
        guild_id: GUILD_1,
        user_id: APP_A,
        target_id: GUILD_1,
        action_type: AuditLogEvent.GuildUpdate,
        changes: [{ key: 'name', old_value: `guild ${GUILD_1}`, new_value: 'Renamed' }],
      };
      const change = await t.stores.guildSettings.changeGuildSettings(GUILD_1, (guild) => ({
        after: {
          ...guild,
          name: 'Renamed',
          roles: [],
          settings: { system_channel_id: CHANNEL_1, features: ['INVITES_DISABLED'] },
        },
        audit: [entry],
      }));
      assert.equal(change?.before.name, `guild ${GUILD_1}`);
      assert.equal(change?.after.name, 'Renamed');
      const other = await t.db.connect();
      for (const store of [t.stores, other]) {
        const read = await store.members.getGuildWithMembers(GUILD_1, [ALICE]);
        assert.equal(read?.name, 'Renamed');
        assert.deepEqual(read?.settings, { system_channel_id: CHANNEL_1, features: ['INVITES_DISABLED'] });
        assert.equal(read?.roles.length, 1, 'roles are not the edit’s to write');
        assert.deepEqual(
          read?.members.map((m) => m.user_id),
          [ALICE],
        );
        assert.equal((await store.world.getGuild(GUILD_1))?.settings?.system_channel_id, CHANNEL_1);
      }
      const log = await t.stores.auditLog.listAuditEntries(GUILD_1, {
        userId: null,
        actionType: AuditLogEvent.GuildUpdate,
        before: null,
        after: null,
        limit: 10,
      });
      assert.deepEqual(
        log.map((e) => e.id),
        [entry.id],
      );

      await assert.rejects(
        t.stores.guildSettings.changeGuildSettings(GUILD_1, () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal((await t.stores.world.getGuild(GUILD_1))?.name, 'Renamed');
      assert.equal(
        await t.stores.guildSettings.changeGuildSettings('1300000000000000999', (g) => ({ after: g, audit: [] })),
        null,
      );
    });
  });
}
