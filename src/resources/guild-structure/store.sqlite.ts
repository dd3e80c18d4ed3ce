/**
 * The SQLite GuildStructureStore: a guild's roles and channels written into its document in one
 * transaction (SQLite has one writer, so concurrent changes run one after the other), with what
 * they drop: a deleted role taken from the member rows that hold it, a deleted channel's rows.
 */
import type { Member } from '../../core/world/types.js';
import { structureDrops, withStructure, withoutRoles } from './rows.js';
import type { GuildStructureChange, GuildStructurePlanner, GuildStructureStore } from './store.js';
import { freezeDocument, storedDocument } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.sqlite.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { SqliteShared } from '../../store/sqlite/shared.js';

export class SqliteGuildStructure implements GuildStructureStore {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly shared: SqliteShared,
  ) {}

  async changeGuildStructure<R>(
    guildId: string,
    planner: GuildStructurePlanner<R>,
  ): Promise<GuildStructureChange<R> | null> {
    return this.conn.transaction(() => {
      const { guilds } = this.shared;
      const before = guilds.guildWithoutMembers(guildId);
      if (!before) return null;
      const plan = planner(before);
      const { result } = plan;
      const after = freezeDocument(withStructure(before, plan.structure));
      this.conn.sql('UPDATE guilds SET doc = ? WHERE id = ?').run(guilds.guildDocumentText(after), guildId);
      const drops = structureDrops(before, after);
      for (const entry of plan.audit ?? []) insertAuditEntry(this.conn, entry);
      guilds.linkChannels(after);
      this.takeRoles(guildId, drops.roleIds);
      guilds.dropChannelRows(guildId, drops.channelIds);
      // Every read of the guild, with any members, holds its roles and channels.
      this.conn.cached.forgetGuild(guildId);
      return { before, after, result };
    });
  }

  /** The roles taken from every member row of the guild that holds one of them. */
  private takeRoles(guildId: string, roleIds: readonly string[]): void {
    if (roleIds.length === 0) return;
    const rows = this.conn
      .sql(
        `SELECT doc FROM guild_members WHERE guild_id = ? AND EXISTS (
           SELECT 1 FROM json_each(guild_members.doc, '$.roles') AS r WHERE r.value IN (SELECT value FROM json_each(?)))`,
      )
      .pluck()
      .all(guildId, JSON.stringify(roleIds)) as string[];
    const dropped = new Set(roleIds);
    const update = this.conn.sql('UPDATE guild_members SET doc = ? WHERE guild_id = ? AND user_id = ?');
    for (const doc of rows) {
      const member = withoutRoles(storedDocument<Member>(doc), dropped);
      if (member) update.run(JSON.stringify(member), guildId, member.user_id);
    }
  }
}
