/**
 * The SQLite GuildMemberStore: a guild's members as rows of `guild_members` (the guild's document
 * keeps an empty list). A member write is one row and drops only the cached reads that hold that
 * member (and the whole-list read of its guild); a read names the members it needs.
 */
import { approximateBytes } from '../../core/byte-lru.js';
import type { AuditEntry } from '../audit-log/rules.js';
import type { Guild, Member } from '../../core/world/types.js';
import { BannedUserError, type BanPage, type GuildBan, type GuildMemberStore } from './store.js';
import { freezeDocument, storedDocument, memberCacheKey, withBotNick, withMembers } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.sqlite.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import { cacheTag } from '../../store/sqlite/read-caches.js';
import type { SqliteShared } from '../../store/sqlite/shared.js';

/** Reads naming more members than this are not cached: each would be an entry few reads share. */
const MAX_CACHED_MEMBER_IDS = 4;

export class SqliteGuildMembers implements GuildMemberStore {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly shared: SqliteShared,
  ) {}

  async getGuildWithMembers(guildId: string, userIds: readonly string[]): Promise<Guild | null> {
    const ids = [...new Set(userIds)];
    const key = memberCacheKey(guildId, ids);
    const cached = this.conn.caches().guildsWithMembers.get(key);
    if (cached) return cached;
    const document = this.shared.guilds.guildWithoutMembers(guildId);
    if (!document) return null;
    const docs = this.memberDocs(guildId, ids);
    const guild = freezeDocument(
      withMembers(
        document,
        docs.map((doc) => storedDocument<Member>(doc)),
      ),
    );
    if (ids.length <= MAX_CACHED_MEMBER_IDS) {
      const bytes = approximateBytes(docs.reduce((sum, doc) => sum + doc.length, key.length));
      const tags = [cacheTag.guild(guildId), ...ids.map((id) => cacheTag.member(guildId, id))];
      this.conn.cached.guildsWithMembers.set(key, guild, bytes, tags);
    }
    return guild;
  }

  async findGuildByChannelWithMembers(channelId: string, userIds: readonly string[]): Promise<Guild | null> {
    const guildId = this.shared.guilds.guildIdOfChannel(channelId);
    return guildId === null ? null : this.getGuildWithMembers(guildId, userIds);
  }

  async guildIdsOfMember(userId: string): Promise<string[]> {
    return this.conn
      .sql('SELECT guild_id FROM guild_members WHERE user_id = ? ORDER BY length(guild_id), guild_id')
      .pluck()
      .all(userId) as string[];
  }

  async putGuildMember(guildId: string, member: Member): Promise<boolean> {
    return this.conn.transaction(() => {
      if (!this.conn.sql('SELECT 1 FROM guilds WHERE id = ?').get(guildId)) return false;
      if (this.conn.sql('SELECT 1 FROM guild_bans WHERE guild_id = ? AND user_id = ?').get(guildId, member.user_id)) {
        throw new BannedUserError(guildId, member.user_id);
      }
      // A new member goes last in the guild's order; one already there keeps its place.
      this.conn
        .sql(
          `INSERT INTO guild_members (guild_id, user_id, position, doc)
           VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM guild_members WHERE guild_id = ?), ?)
           ON CONFLICT (guild_id, user_id) DO UPDATE SET doc = excluded.doc`,
        )
        .run(guildId, member.user_id, guildId, JSON.stringify(member));
      this.conn.cached.forgetMember(guildId, member.user_id);
      return true;
    });
  }

  async updateGuildMember(guildId: string, member: Member, audit: readonly AuditEntry[] = []): Promise<boolean> {
    return this.conn.transaction(() => {
      const updated =
        this.conn
          .sql('UPDATE guild_members SET doc = ? WHERE guild_id = ? AND user_id = ?')
          .run(JSON.stringify(member), guildId, member.user_id).changes > 0;
      if (!updated) return false;
      for (const entry of audit) insertAuditEntry(this.conn, entry);
      this.conn.cached.forgetMember(guildId, member.user_id);
      return true;
    });
  }

  async deleteGuildMember(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(() => {
      const gone =
        this.conn.sql('DELETE FROM guild_members WHERE guild_id = ? AND user_id = ?').run(guildId, userId).changes > 0;
      if (!gone) return false;
      if (audit) insertAuditEntry(this.conn, audit);
      this.conn.cached.forgetMember(guildId, userId);
      return true;
    });
  }

  async setBotNick(guildId: string, applicationId: string, nick: string | null, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(() => {
      // The statement is shared (cached by its text): read as rows, as every caller does.
      const doc = (this.conn.sql('SELECT doc FROM guilds WHERE id = ?').get(guildId) as { doc: string } | undefined)
        ?.doc;
      const guild = doc === undefined ? null : withBotNick(storedDocument<Guild>(doc), applicationId, nick);
      if (!guild) return false;
      this.conn.sql('UPDATE guilds SET doc = ? WHERE id = ?').run(JSON.stringify(guild), guildId);
      if (audit) insertAuditEntry(this.conn, audit);
      this.conn.cached.forgetGuild(guildId);
      return true;
    });
  }

  async banGuildMember(ban: GuildBan, audit?: AuditEntry): Promise<{ removed: Member | null } | null> {
    return this.conn.transaction(() => {
      if (!this.conn.sql('SELECT 1 FROM guilds WHERE id = ?').get(ban.guild_id)) return null;
      const doc = this.conn
        .sql('DELETE FROM guild_members WHERE guild_id = ? AND user_id = ? RETURNING doc')
        .pluck()
        .get(ban.guild_id, ban.user_id) as string | undefined;
      this.conn
        .sql(
          `INSERT INTO guild_bans (guild_id, user_id, doc) VALUES (?, ?, ?)
           ON CONFLICT (guild_id, user_id) DO UPDATE SET doc = excluded.doc`,
        )
        .run(ban.guild_id, ban.user_id, JSON.stringify(ban));
      if (audit) insertAuditEntry(this.conn, audit);
      if (doc !== undefined) this.conn.cached.forgetMember(ban.guild_id, ban.user_id);
      return { removed: doc === undefined ? null : storedDocument<Member>(doc) };
    });
  }

  async getGuildBan(guildId: string, userId: string): Promise<GuildBan | null> {
    const doc = this.conn
      .sql('SELECT doc FROM guild_bans WHERE guild_id = ? AND user_id = ?')
      .pluck()
      .get(guildId, userId) as string | undefined;
    return doc === undefined ? null : storedDocument<GuildBan>(doc);
  }

  async listGuildBans(guildId: string, page: BanPage): Promise<GuildBan[]> {
    const docs =
      page.before !== null
        ? (
            this.conn
              .sql(
                `SELECT doc FROM guild_bans WHERE guild_id = ?
                 AND (length(user_id) < length(?) OR (length(user_id) = length(?) AND user_id < ?))
               ORDER BY length(user_id) DESC, user_id DESC LIMIT ?`,
              )
              .pluck()
              .all(guildId, page.before, page.before, page.before, page.limit) as string[]
          ).reverse()
        : (this.conn
            .sql(
              `SELECT doc FROM guild_bans WHERE guild_id = ?
                 AND (length(user_id) > length(?) OR (length(user_id) = length(?) AND user_id > ?))
               ORDER BY length(user_id), user_id LIMIT ?`,
            )
            .pluck()
            .all(guildId, page.after ?? '0', page.after ?? '0', page.after ?? '0', page.limit) as string[]);
    return docs.map((doc) => storedDocument<GuildBan>(doc));
  }

  async deleteGuildBan(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean> {
    return this.conn.transaction(() => {
      const lifted =
        this.conn.sql('DELETE FROM guild_bans WHERE guild_id = ? AND user_id = ?').run(guildId, userId).changes > 0;
      if (lifted && audit) insertAuditEntry(this.conn, audit);
      return lifted;
    });
  }

  private memberDocs(guildId: string, ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    if (ids.length === 1) {
      const doc = this.conn
        .sql('SELECT doc FROM guild_members WHERE guild_id = ? AND user_id = ?')
        .pluck()
        .get(guildId, ids[0]) as string | undefined;
      return doc === undefined ? [] : [doc];
    }
    return this.conn
      .sql(
        `SELECT doc FROM guild_members WHERE guild_id = ? AND user_id IN (SELECT value FROM json_each(?))
         ORDER BY position, user_id`,
      )
      .pluck()
      .all(guildId, JSON.stringify(ids)) as string[];
  }
}
