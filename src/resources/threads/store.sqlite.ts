/**
 * The SQLite ThreadStore: threads created through the API as rows of `guild_threads`, their members
 * as rows of `thread_members`. A write drops the cached reads of its guild only; a guild read holds
 * the stored threads among its channels (src/store/sqlite/guild-documents.ts joins them).
 */
import type { Channel } from '../../core/world/types.js';
import type { ThreadCreation, ThreadMemberRow, ThreadStore } from './store.js';
import { threadDocument } from './rows.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { SqliteShared } from '../../store/sqlite/shared.js';

interface MemberRow {
  user_id: string;
  joined_at: number;
}

function toMemberRow(row: MemberRow): ThreadMemberRow {
  return { user_id: row.user_id, join_timestamp: new Date(row.joined_at).toISOString() };
}

export class SqliteThreads implements ThreadStore {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly shared: SqliteShared,
  ) {}

  async createThread(
    guildId: string,
    thread: Channel,
    members: readonly ThreadMemberRow[],
    maxActive?: number,
  ): Promise<ThreadCreation> {
    // An IMMEDIATE transaction: the count and the insert see no other write between them.
    return this.conn.transaction(() => {
      if (!this.conn.sql('SELECT 1 FROM guilds WHERE id = ?').get(guildId)) return 'no-guild';
      if (this.conn.sql('SELECT 1 FROM guild_threads WHERE thread_id = ?').get(thread.id)) return 'exists';
      if (this.overCap(guildId, thread, maxActive)) return 'full';
      const inserted = this.conn
        .sql('INSERT INTO guild_threads (thread_id, guild_id, doc) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
        .run(thread.id, guildId, threadDocument(thread)).changes;
      if (inserted === 0) return 'exists';
      for (const member of members) this.insertMember(guildId, thread.id, member);
      this.conn.cached.forgetGuild(guildId);
      return 'created';
    });
  }

  async updateThread(guildId: string, thread: Channel, maxActive?: number): Promise<boolean | 'full'> {
    return this.conn.transaction(() => {
      if (this.overCap(guildId, thread, maxActive)) {
        const stored = this.conn
          .sql('SELECT 1 FROM guild_threads WHERE guild_id = ? AND thread_id = ?')
          .get(guildId, thread.id);
        return stored ? 'full' : false;
      }
      const changed = this.conn
        .sql('UPDATE guild_threads SET doc = ? WHERE guild_id = ? AND thread_id = ?')
        .run(threadDocument(thread), guildId, thread.id).changes;
      if (changed > 0) this.conn.cached.forgetGuild(guildId);
      return changed > 0;
    });
  }

  /** Whether storing `thread` active would pass `maxActive` (inside the caller's transaction). */
  private overCap(guildId: string, thread: Channel, maxActive: number | undefined): boolean {
    if (maxActive === undefined || thread.thread?.archived === true) return false;
    // The guild's index bounds the scan to its threads; JSON true reads as 1.
    const active = this.conn
      .sql(
        `SELECT count(*) FROM guild_threads WHERE guild_id = ? AND thread_id != ?
           AND json_extract(doc, '$.thread.archived') IS NOT 1`,
      )
      .pluck()
      .get(guildId, thread.id) as number;
    return active >= maxActive;
  }

  async deleteThread(guildId: string, threadId: string): Promise<boolean> {
    return this.conn.transaction(() => {
      const gone =
        this.conn.sql('DELETE FROM guild_threads WHERE guild_id = ? AND thread_id = ?').run(guildId, threadId).changes >
        0;
      this.conn.sql('DELETE FROM thread_members WHERE guild_id = ? AND thread_id = ?').run(guildId, threadId);
      if (gone) this.shared.guilds.dropChannelOwnedRows([threadId]);
      if (gone) this.conn.cached.forgetGuild(guildId);
      return gone;
    });
  }

  async addThreadMember(guildId: string, threadId: string, member: ThreadMemberRow): Promise<boolean | null> {
    return this.conn.transaction(() => {
      if (!this.conn.sql('SELECT 1 FROM guild_threads WHERE guild_id = ? AND thread_id = ?').get(guildId, threadId)) {
        return null;
      }
      const added = this.insertMember(guildId, threadId, member);
      if (added) this.conn.cached.forgetGuild(guildId);
      return added;
    });
  }

  async removeThreadMember(guildId: string, threadId: string, userId: string): Promise<boolean> {
    const gone =
      this.conn
        .sql('DELETE FROM thread_members WHERE guild_id = ? AND thread_id = ? AND user_id = ?')
        .run(guildId, threadId, userId).changes > 0;
    if (gone) this.conn.cached.forgetGuild(guildId);
    return gone;
  }

  async listThreadMembers(guildId: string, threadId: string): Promise<ThreadMemberRow[]> {
    const rows = this.conn
      .sql(
        `SELECT user_id, joined_at FROM thread_members WHERE guild_id = ? AND thread_id = ?
         ORDER BY joined_at, length(user_id), user_id`,
      )
      .all(guildId, threadId) as MemberRow[];
    return rows.map(toMemberRow);
  }

  /** True when the row was new (inside the caller's transaction). */
  private insertMember(guildId: string, threadId: string, member: ThreadMemberRow): boolean {
    return (
      this.conn
        .sql(
          `INSERT INTO thread_members (thread_id, user_id, guild_id, joined_at) VALUES (?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
        )
        .run(threadId, member.user_id, guildId, Date.parse(member.join_timestamp)).changes > 0
    );
  }
}
