/**
 * The SQLite GuildStructureStore: a guild's roles and channels written into its document in one
 * transaction (SQLite has one writer, so concurrent changes run one after the other), with what
 * they drop: a deleted role taken from the member rows that hold it, a deleted channel's rows.
 */
import type { Guild, Member } from '../../core/world/types.js';
import { CHANNEL_OWNED_TABLES, structureDrops, withStructure, withoutRoles } from './rows.js';
import type { GuildStructureChange, GuildStructurePlanner, GuildStructureStore } from './store.js';
import { freezeDocument, storedDocument } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.sqlite.js';
import { SqliteGuildMembers } from '../members/store.sqlite.js';

export class SqliteGuildStructure extends SqliteGuildMembers implements GuildStructureStore {
  async changeGuildStructure<R>(
    guildId: string,
    planner: GuildStructurePlanner<R>,
  ): Promise<GuildStructureChange<R> | null> {
    return this.conn.transaction(() => {
      const before = this.guildWithoutMembers(guildId);
      if (!before) return null;
      const plan = planner(before);
      const { result } = plan;
      const after = freezeDocument(withStructure(before, plan.structure));
      this.conn.sql('UPDATE guilds SET doc = ? WHERE id = ?').run(this.guildDocumentText(after), guildId);
      const drops = structureDrops(before, after);
      for (const entry of plan.audit ?? []) insertAuditEntry(this.conn, entry);
      this.linkChannels(after);
      this.takeRoles(guildId, drops.roleIds);
      this.dropChannelRows(guildId, drops.channelIds);
      // Every read of the guild, with any members, holds its roles and channels.
      this.conn.cached.forgetGuild(guildId);
      return { before, after, result };
    });
  }

  /** The rows the dropped channels own (inside the change's transaction). */
  protected dropChannelRows(_guildId: string, channelIds: readonly string[]): void {
    for (const channelId of channelIds) {
      for (const table of CHANNEL_OWNED_TABLES) {
        this.conn.sql(`DELETE FROM ${table} WHERE channel_id = ?`).run(channelId);
      }
    }
  }

  /** `channel_guilds` as exactly the guild's channels. */
  protected linkChannels(guild: Guild): void {
    this.conn.sql('DELETE FROM channel_guilds WHERE guild_id = ?').run(guild.id);
    const link = this.conn.sql('INSERT OR REPLACE INTO channel_guilds (channel_id, guild_id) VALUES (?, ?)');
    for (const channel of guild.channels) link.run(channel.id, guild.id);
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
