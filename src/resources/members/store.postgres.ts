/**
 * The PostgreSQL GuildMemberStore: a guild's members as rows of `guild_members` (the guild's
 * document keeps an empty list). A member write is one row; a read names the members it needs.
 * Nothing here is cached in the process, so every node reads what any node last committed.
 */
import type { AuditEntry } from '../audit-log/rules.js';
import type { Guild, Member } from '../../core/world/types.js';
import { BannedUserError, type BanPage, type GuildBan, type GuildMemberStore } from './store.js';
import { freezeDocument, storedDocument, withBotNick } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.postgres.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import { GUILD_ID_OF_G, guildOfRow, THREADS_OF_G } from '../../store/postgres/guild-documents.js';
import type { PostgresShared } from '../../store/postgres/shared.js';
import { worldReadTag } from '../../store/postgres/world-read-caches.js';
import { approximateBytes } from '../../core/byte-lru.js';

/**
 * The guild's document and the members of `$2` in the guild's order, as one JSON array text, in
 * one statement (one snapshot). Prepared once per connection (by name).
 */
const GUILD_WITH_MEMBERS = {
  name: 'slashd-guild-with-members',
  text: `SELECT g.doc, (SELECT '[' || string_agg(m.doc, ',' ORDER BY m.position, m.user_id) || ']'
                       FROM guild_members m WHERE m.guild_id = ${GUILD_ID_OF_G} AND m.user_id = ANY($2::text[])) AS members,
              ${THREADS_OF_G} AS threads
         FROM guilds g WHERE g.id = $1`,
};

/** One user's membership of one guild, held to the end of the transaction: a ban and a member write of the same user go one after the other. */
export async function lockMember(client: PostgresClient, guildId: string, userId: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd member/' || $1 || '/' || $2, 0))", [
    guildId,
    userId,
  ]);
}

export class PostgresGuildMembers implements GuildMemberStore {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly shared: PostgresShared,
  ) {}

  /**
   * With no members named (a guild route's guard), the guild's document is cached per node
   * (world-read-caches.ts): it is read by almost every guild request, and changes far less often.
   */
  async getGuildWithMembers(guildId: string, userIds: readonly string[]): Promise<Guild | null> {
    if (userIds.length > 0) return (await this.readGuildWithMembers(guildId, userIds))?.guild ?? null;
    const found = await this.shared.reads.through(
      `guild-doc:${guildId}`,
      () => this.readGuildWithMembers(guildId, []),
      () => [worldReadTag.guild(guildId)],
      ({ bytes }) => bytes,
    );
    return found?.guild ?? null;
  }

  private async readGuildWithMembers(
    guildId: string,
    userIds: readonly string[],
  ): Promise<{ guild: Guild; bytes: number } | null> {
    const result = await this.conn.pool.query<{ doc: string; members: string | null; threads: string | null }>({
      ...GUILD_WITH_MEMBERS,
      values: [guildId, [...new Set(userIds)]],
    });
    const row = result.rows[0];
    if (!row) return null;
    const bytes = approximateBytes(row.doc.length + (row.members?.length ?? 0) + (row.threads?.length ?? 0));
    return { guild: freezeDocument(guildOfRow(row)), bytes };
  }

  async findGuildByChannelWithMembers(channelId: string, userIds: readonly string[]): Promise<Guild | null> {
    const guildId = await this.shared.guilds.guildIdOfChannel(channelId);
    return guildId === null ? null : this.getGuildWithMembers(guildId, userIds);
  }

  async guildIdsOfMember(userId: string): Promise<string[]> {
    const result = await this.conn.pool.query<{ guild_id: string }>(
      'SELECT guild_id FROM guild_members WHERE user_id = $1 ORDER BY length(guild_id), guild_id',
      [userId],
    );
    return result.rows.map((r) => r.guild_id);
  }

  async putGuildMember(guildId: string, member: Member): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      // Held shared: a guild being deleted (or rewritten whole) waits, or this waits for it.
      const guild = await client.query('SELECT 1 FROM guilds WHERE id = $1 FOR SHARE', [guildId]);
      if (!guild.rowCount) return false;
      await lockMember(client, guildId, member.user_id);
      const banned = await client.query('SELECT 1 FROM guild_bans WHERE guild_id = $1 AND user_id = $2', [
        guildId,
        member.user_id,
      ]);
      if (banned.rowCount) throw new BannedUserError(guildId, member.user_id);
      // A new member goes last in the guild's order; one already there keeps its place.
      await client.query(
        `INSERT INTO guild_members (guild_id, user_id, position, doc)
         VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM guild_members WHERE guild_id = $1), $3)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET doc = excluded.doc`,
        [guildId, member.user_id, JSON.stringify(member)],
      );
      return true;
    });
  }

  async updateGuildMember(guildId: string, member: Member, audit: readonly AuditEntry[] = []): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      await lockMember(client, guildId, member.user_id);
      const updated = await client.query('UPDATE guild_members SET doc = $3 WHERE guild_id = $1 AND user_id = $2', [
        guildId,
        member.user_id,
        JSON.stringify(member),
      ]);
      if (!updated.rowCount) return false;
      for (const entry of audit) await insertAuditEntry(client, entry);
      return true;
    });
  }

  async deleteGuildMember(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      await lockMember(client, guildId, userId);
      const result = await client.query('DELETE FROM guild_members WHERE guild_id = $1 AND user_id = $2', [
        guildId,
        userId,
      ]);
      if (!result.rowCount) return false;
      if (audit) await insertAuditEntry(client, audit);
      return true;
    });
  }

  async setBotNick(guildId: string, applicationId: string, nick: string | null, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const row = await client.query<{ doc: string }>('SELECT doc FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
      const doc = row.rows[0]?.doc;
      const guild = doc === undefined ? null : withBotNick(storedDocument<Guild>(doc), applicationId, nick);
      if (!guild) return false;
      await client.query('UPDATE guilds SET doc = $2 WHERE id = $1', [guildId, JSON.stringify(guild)]);
      if (audit) await insertAuditEntry(client, audit);
      return true;
    });
  }

  async banGuildMember(ban: GuildBan, audit?: AuditEntry): Promise<{ removed: Member | null } | null> {
    return this.conn.transaction(async (client) => {
      // Held shared, as a member write holds it: a guild deleted meanwhile waits, or this waits for it.
      const guild = await client.query('SELECT 1 FROM guilds WHERE id = $1 FOR SHARE', [ban.guild_id]);
      if (!guild.rowCount) return null;
      await lockMember(client, ban.guild_id, ban.user_id);
      await client.query(
        `INSERT INTO guild_bans (guild_id, user_id, doc) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET doc = excluded.doc`,
        [ban.guild_id, ban.user_id, JSON.stringify(ban)],
      );
      const removed = await client.query<{ doc: string }>(
        'DELETE FROM guild_members WHERE guild_id = $1 AND user_id = $2 RETURNING doc',
        [ban.guild_id, ban.user_id],
      );
      if (audit) await insertAuditEntry(client, audit);
      const doc = removed.rows[0]?.doc;
      return { removed: doc === undefined ? null : storedDocument<Member>(doc) };
    });
  }

  async getGuildBan(guildId: string, userId: string): Promise<GuildBan | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM guild_bans WHERE guild_id = $1 AND user_id = $2',
      [guildId, userId],
    );
    const doc = result.rows[0]?.doc;
    return doc === undefined ? null : storedDocument<GuildBan>(doc);
  }

  async listGuildBans(guildId: string, page: BanPage): Promise<GuildBan[]> {
    // Snowflakes in numeric order without casting: a shorter id is smaller, equal lengths compare as text.
    const result =
      page.before !== null
        ? await this.conn.pool.query<{ doc: string }>(
            `SELECT doc FROM guild_bans WHERE guild_id = $1
               AND (length(user_id), user_id) < (length($2), $2)
             ORDER BY length(user_id) DESC, user_id DESC LIMIT $3`,
            [guildId, page.before, page.limit],
          )
        : await this.conn.pool.query<{ doc: string }>(
            `SELECT doc FROM guild_bans WHERE guild_id = $1
               AND (length(user_id), user_id) > (length($2), $2)
             ORDER BY length(user_id), user_id LIMIT $3`,
            [guildId, page.after ?? '0', page.limit],
          );
    const docs = result.rows.map((r) => r.doc);
    if (page.before !== null) docs.reverse();
    return docs.map((doc) => storedDocument<GuildBan>(doc));
  }

  async deleteGuildBan(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const result = await client.query('DELETE FROM guild_bans WHERE guild_id = $1 AND user_id = $2', [
        guildId,
        userId,
      ]);
      if (!result.rowCount) return false;
      if (audit) await insertAuditEntry(client, audit);
      return true;
    });
  }
}
