/**
 * The PostgreSQL ThreadStore: threads created through the API as rows of `guild_threads`, their
 * members as rows of `thread_members`. A guild read holds the stored threads among its channels, in
 * the same statement (THREADS_OF_G, src/store/postgres/guild-documents.ts).
 */
import type { Channel } from '../../core/world/types.js';
import type { ThreadCreation, ThreadMemberRow, ThreadStore } from './store.js';
import { threadDocument } from './rows.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import type { PostgresShared } from '../../store/postgres/shared.js';

/** True when the row was new (inside the caller's transaction). */
async function insertMember(
  client: PostgresClient,
  guildId: string,
  threadId: string,
  member: ThreadMemberRow,
): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO thread_members (thread_id, user_id, guild_id, joined_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [threadId, member.user_id, guildId, Date.parse(member.join_timestamp)],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * Serializes the guild's thread creates and unarchives to the end of the transaction: each counts
 * the active threads and writes with no other one between (READ COMMITTED alone lets two pass).
 */
async function lockGuildThreads(client: PostgresClient, guildId: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd threads/' || $1, 0))", [guildId]);
}

/** Whether storing `thread` active would pass `maxActive` (inside the caller's transaction, under its lock). */
async function overCap(
  client: PostgresClient,
  guildId: string,
  thread: Channel,
  maxActive: number | undefined,
): Promise<boolean> {
  if (maxActive === undefined || thread.thread?.archived === true) return false;
  const result = await client.query<{ active: number }>(
    `SELECT count(*)::int AS active FROM guild_threads WHERE guild_id = $1 AND thread_id <> $2
       AND (doc::jsonb #>> '{thread,archived}') IS DISTINCT FROM 'true'`,
    [guildId, thread.id],
  );
  return (result.rows[0]?.active ?? 0) >= maxActive;
}

export class PostgresThreads implements ThreadStore {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly shared: PostgresShared,
  ) {}

  async createThread(
    guildId: string,
    thread: Channel,
    members: readonly ThreadMemberRow[],
    maxActive?: number,
  ): Promise<ThreadCreation> {
    return this.conn.transaction(async (client) => {
      const guild = await client.query('SELECT 1 FROM guilds WHERE id = $1', [guildId]);
      if ((guild.rowCount ?? 0) === 0) return 'no-guild';
      await lockGuildThreads(client, guildId);
      const existing = await client.query('SELECT 1 FROM guild_threads WHERE thread_id = $1', [thread.id]);
      if ((existing.rowCount ?? 0) > 0) return 'exists';
      if (await overCap(client, guildId, thread, maxActive)) return 'full';
      const inserted = await client.query(
        'INSERT INTO guild_threads (thread_id, guild_id, doc) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [thread.id, guildId, threadDocument(thread)],
      );
      if ((inserted.rowCount ?? 0) === 0) return 'exists';
      for (const member of members) await insertMember(client, guildId, thread.id, member);
      return 'created';
    });
  }

  async updateThread(guildId: string, thread: Channel, maxActive?: number): Promise<boolean | 'full'> {
    if (maxActive === undefined || thread.thread?.archived === true)
      return this.rewrite(this.conn.pool, guildId, thread);
    return this.conn.transaction(async (client) => {
      await lockGuildThreads(client, guildId);
      if (await overCap(client, guildId, thread, maxActive)) {
        const stored = await client.query('SELECT 1 FROM guild_threads WHERE guild_id = $1 AND thread_id = $2', [
          guildId,
          thread.id,
        ]);
        return (stored.rowCount ?? 0) > 0 ? 'full' : false;
      }
      return this.rewrite(client, guildId, thread);
    });
  }

  private async rewrite(client: Pick<PostgresClient, 'query'>, guildId: string, thread: Channel): Promise<boolean> {
    const result = await client.query('UPDATE guild_threads SET doc = $1 WHERE guild_id = $2 AND thread_id = $3', [
      threadDocument(thread),
      guildId,
      thread.id,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async deleteThread(guildId: string, threadId: string): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const gone = await client.query('DELETE FROM guild_threads WHERE guild_id = $1 AND thread_id = $2', [
        guildId,
        threadId,
      ]);
      await client.query('DELETE FROM thread_members WHERE guild_id = $1 AND thread_id = $2', [guildId, threadId]);
      if ((gone.rowCount ?? 0) === 0) return false;
      await this.shared.guilds.dropChannelOwnedRows(client, [threadId]);
      return true;
    });
  }

  async addThreadMember(guildId: string, threadId: string, member: ThreadMemberRow): Promise<boolean | null> {
    return this.conn.transaction(async (client) => {
      // Held to the end of the transaction: a thread deleted meanwhile takes no new member.
      const thread = await client.query(
        'SELECT 1 FROM guild_threads WHERE guild_id = $1 AND thread_id = $2 FOR SHARE',
        [guildId, threadId],
      );
      if ((thread.rowCount ?? 0) === 0) return null;
      return insertMember(client, guildId, threadId, member);
    });
  }

  async removeThreadMember(guildId: string, threadId: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM thread_members WHERE guild_id = $1 AND thread_id = $2 AND user_id = $3',
      [guildId, threadId, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listThreadMembers(guildId: string, threadId: string): Promise<ThreadMemberRow[]> {
    const result = await this.conn.pool.query<{ user_id: string; joined_at: string }>(
      `SELECT user_id, joined_at FROM thread_members WHERE guild_id = $1 AND thread_id = $2
       ORDER BY joined_at, length(user_id), user_id`,
      [guildId, threadId],
    );
    return result.rows.map((row) => ({
      user_id: row.user_id,
      join_timestamp: new Date(Number(row.joined_at)).toISOString(),
    }));
  }
}
