/**
 * The PostgreSQL GuildStructureStore: a guild's roles and channels written into its document in
 * one transaction that holds the guild's row (FOR UPDATE: concurrent changes of the guild, and
 * member writes, which hold it FOR SHARE, wait), with what they drop: a deleted role taken from the
 * member rows that hold it, a deleted channel's rows.
 */
import type { Guild, Member } from '../../core/world/types.js';
import { structureDrops, withStructure, withoutRoles } from './rows.js';
import type { GuildStructureChange, GuildStructurePlanner, GuildStructureStore } from './store.js';
import { freezeDocument, storedDocument } from '../../store/rows.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import type { PostgresShared } from '../../store/postgres/shared.js';
import { insertAuditEntry } from '../audit-log/store.postgres.js';

export class PostgresGuildStructure implements GuildStructureStore {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly shared: PostgresShared,
  ) {}

  async changeGuildStructure<R>(
    guildId: string,
    planner: GuildStructurePlanner<R>,
  ): Promise<GuildStructureChange<R> | null> {
    return this.conn.transaction(async (client) => {
      const row = await client.query<{ doc: string }>('SELECT doc FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
      if (!row.rows[0]) return null;
      const { guilds } = this.shared;
      const before = freezeDocument(storedDocument<Guild>(row.rows[0].doc));
      const plan = planner(before);
      const { result } = plan;
      const after = freezeDocument(withStructure(before, plan.structure));
      await client.query('UPDATE guilds SET doc = $2 WHERE id = $1', [guildId, guilds.guildDocumentText(after)]);
      const drops = structureDrops(before, after);
      for (const entry of plan.audit ?? []) await insertAuditEntry(client, entry);
      await guilds.linkChannels(client, after);
      await this.takeRoles(client, guildId, drops.roleIds);
      await guilds.dropChannelRows(client, guildId, drops.channelIds);
      return { before, after, result };
    });
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
