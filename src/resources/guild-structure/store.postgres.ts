/**
 * The PostgreSQL GuildStructureStore: a guild's roles and channels written into its document in
 * one transaction that holds the guild's row (FOR UPDATE: concurrent changes of the guild, and
 * member writes, which hold it FOR SHARE, wait), with what they drop: a deleted role taken from the
 * member rows that hold it, a deleted channel's rows.
 */
import type { Guild, Member } from '../../core/world/types.js';
import { CHANNEL_OWNED_TABLES, structureDrops, withStructure, withoutRoles } from './rows.js';
import type { GuildStructureChange, GuildStructurePlanner, GuildStructureStore } from './store.js';
import { freezeDocument, storedDocument } from '../../store/rows.js';
import type { PostgresClient } from '../../store/postgres/connection.js';
import { insertAuditEntry } from '../audit-log/store.postgres.js';
import { PostgresGuildMembers } from '../members/store.postgres.js';

export class PostgresGuildStructure extends PostgresGuildMembers implements GuildStructureStore {
  async changeGuildStructure<R>(
    guildId: string,
    planner: GuildStructurePlanner<R>,
  ): Promise<GuildStructureChange<R> | null> {
    return this.conn.transaction(async (client) => {
      const row = await client.query<{ doc: string }>('SELECT doc FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
      if (!row.rows[0]) return null;
      const before = freezeDocument(storedDocument<Guild>(row.rows[0].doc));
      const plan = planner(before);
      const { result } = plan;
      const after = freezeDocument(withStructure(before, plan.structure));
      await client.query('UPDATE guilds SET doc = $2 WHERE id = $1', [guildId, this.guildDocumentText(after)]);
      const drops = structureDrops(before, after);
      for (const entry of plan.audit ?? []) await insertAuditEntry(client, entry);
      await this.linkChannels(client, after);
      await this.takeRoles(client, guildId, drops.roleIds);
      await this.dropChannelRows(client, guildId, drops.channelIds);
      return { before, after, result };
    });
  }

  /** The rows the dropped channels own (inside the change's transaction). */
  protected async dropChannelRows(
    client: PostgresClient,
    _guildId: string,
    channelIds: readonly string[],
  ): Promise<void> {
    if (channelIds.length === 0) return;
    for (const table of CHANNEL_OWNED_TABLES) {
      await client.query(`DELETE FROM ${table} WHERE channel_id = ANY($1::text[])`, [channelIds]);
    }
  }

  /** `channel_guilds` as exactly the guild's channels (a channel moved here from another guild now belongs to this one). */
  protected async linkChannels(client: PostgresClient, guild: Guild): Promise<void> {
    await client.query('DELETE FROM channel_guilds WHERE guild_id = $1', [guild.id]);
    await client.query(
      `INSERT INTO channel_guilds (channel_id, guild_id) SELECT DISTINCT unnest($1::text[]), $2
       ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id`,
      [guild.channels.map((c) => c.id), guild.id],
    );
  }

  /** The roles taken from every member row of the guild that holds one of them. */
  private async takeRoles(client: PostgresClient, guildId: string, roleIds: readonly string[]): Promise<void> {
    if (roleIds.length === 0) return;
    const rows = await client.query<{ doc: string }>(
      `SELECT doc FROM guild_members WHERE guild_id = $1 AND doc::jsonb -> 'roles' ?| $2::text[] FOR UPDATE`,
      [guildId, roleIds],
    );
    const dropped = new Set(roleIds);
    const members = rows.rows.flatMap((r) => withoutRoles(storedDocument<Member>(r.doc), dropped) ?? []);
    if (members.length === 0) return;
    await client.query(
      `UPDATE guild_members AS gm SET doc = m.doc
       FROM unnest($2::text[], $3::text[]) AS m(user_id, doc)
       WHERE gm.guild_id = $1 AND gm.user_id = m.user_id`,
      [guildId, members.map((m) => m.user_id), members.map((m) => JSON.stringify(m))],
    );
  }
}
