/** The PostgreSQL ReactionStore: the message_reactions table (a deleted message's go with it, deleteMessage). */
import type { ReactionCount, ReactionOutcome, ReactionStore } from './store.js';
import type { PostgresConnection } from '../../store/postgres/connection.js';

export class PostgresReactionStore implements ReactionStore {
  constructor(private readonly conn: PostgresConnection) {}

  async addReaction(
    channelId: string,
    messageId: string,
    emoji: string,
    userId: string,
    at: number,
    maxEmojis: number,
    mayAddEmoji = true,
  ): Promise<ReactionOutcome> {
    return this.conn.transaction(async (client) => {
      // One reactor of a message at a time, so that two racing new emojis cannot both take its last place.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd reactions/' || $1 || '/' || $2, 0))", [
        channelId,
        messageId,
      ]);
      const key = [channelId, messageId, emoji];
      const mine = await client.query(
        'SELECT 1 FROM message_reactions WHERE channel_id = $1 AND message_id = $2 AND emoji = $3 AND user_id = $4',
        [...key, userId],
      );
      if (mine.rowCount) return 'already';
      const seen = await client.query(
        'SELECT 1 FROM message_reactions WHERE channel_id = $1 AND message_id = $2 AND emoji = $3 LIMIT 1',
        key,
      );
      if (!seen.rowCount) {
        if (!mayAddEmoji) return 'forbidden';
        const count = await client.query<{ n: string }>(
          'SELECT count(DISTINCT emoji) AS n FROM message_reactions WHERE channel_id = $1 AND message_id = $2',
          [channelId, messageId],
        );
        if (Number(count.rows[0]?.n ?? 0) >= maxEmojis) return 'full';
      }
      await client.query(
        'INSERT INTO message_reactions (channel_id, message_id, emoji, user_id, reacted_at) VALUES ($1, $2, $3, $4, $5)',
        [...key, userId, at],
      );
      return 'added';
    });
  }

  async removeReaction(channelId: string, messageId: string, emoji: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM message_reactions WHERE channel_id = $1 AND message_id = $2 AND emoji = $3 AND user_id = $4',
      [channelId, messageId, emoji, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async removeAllReactions(channelId: string, messageId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM message_reactions WHERE channel_id = $1 AND message_id = $2',
      [channelId, messageId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async removeEmojiReactions(channelId: string, messageId: string, emoji: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM message_reactions WHERE channel_id = $1 AND message_id = $2 AND emoji = $3',
      [channelId, messageId, emoji],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listReactionUsers(
    channelId: string,
    messageId: string,
    emoji: string,
    limit: number,
    after?: string,
  ): Promise<string[]> {
    const result = await this.conn.pool.query<{ user_id: string }>(
      `SELECT user_id FROM message_reactions WHERE channel_id = $1 AND message_id = $2 AND emoji = $3
       AND ($4::text IS NULL OR length(user_id) > length($4::text)
            OR (length(user_id) = length($4::text) AND user_id > $4::text))
       ORDER BY length(user_id), user_id LIMIT $5`,
      [channelId, messageId, emoji, after ?? null, limit],
    );
    return result.rows.map((row) => row.user_id);
  }

  async countReactions(channelId: string, messageId: string, viewerId: string): Promise<ReactionCount[]> {
    const result = await this.conn.pool.query<{ emoji: string; n: string; me: boolean }>(
      `SELECT emoji, count(*) AS n, bool_or(user_id = $3) AS me FROM message_reactions
       WHERE channel_id = $1 AND message_id = $2 GROUP BY emoji ORDER BY min(reacted_at), emoji`,
      [channelId, messageId, viewerId],
    );
    return result.rows.map((row) => ({ emoji: row.emoji, count: Number(row.n), me: row.me }));
  }
}
