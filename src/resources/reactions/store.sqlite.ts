/** The SQLite ReactionStore: the message_reactions table (a deleted message's go with it, deleteMessage). */
import type { ReactionCount, ReactionOutcome, ReactionStore } from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

export class SqliteReactionStore implements ReactionStore {
  constructor(private readonly conn: SqliteConnection) {}

  async addReaction(
    channelId: string,
    messageId: string,
    emoji: string,
    userId: string,
    at: number,
    maxEmojis: number,
    mayAddEmoji = true,
  ): Promise<ReactionOutcome> {
    return this.conn.transaction(() => {
      const mine = this.conn
        .sql('SELECT 1 FROM message_reactions WHERE channel_id = ? AND message_id = ? AND emoji = ? AND user_id = ?')
        .get(channelId, messageId, emoji, userId);
      if (mine) return 'already';
      const seen = this.conn
        .sql('SELECT 1 FROM message_reactions WHERE channel_id = ? AND message_id = ? AND emoji = ? LIMIT 1')
        .get(channelId, messageId, emoji);
      if (!seen) {
        if (!mayAddEmoji) return 'forbidden';
        const { n } = this.conn
          .sql('SELECT count(DISTINCT emoji) AS n FROM message_reactions WHERE channel_id = ? AND message_id = ?')
          .get(channelId, messageId) as { n: number };
        if (n >= maxEmojis) return 'full';
      }
      this.conn
        .sql(
          'INSERT INTO message_reactions (channel_id, message_id, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(channelId, messageId, emoji, userId, at);
      return 'added';
    });
  }

  async removeReaction(channelId: string, messageId: string, emoji: string, userId: string): Promise<boolean> {
    return (
      this.conn
        .sql('DELETE FROM message_reactions WHERE channel_id = ? AND message_id = ? AND emoji = ? AND user_id = ?')
        .run(channelId, messageId, emoji, userId).changes > 0
    );
  }

  async removeAllReactions(channelId: string, messageId: string): Promise<boolean> {
    return (
      this.conn.sql('DELETE FROM message_reactions WHERE channel_id = ? AND message_id = ?').run(channelId, messageId)
        .changes > 0
    );
  }

  async removeEmojiReactions(channelId: string, messageId: string, emoji: string): Promise<boolean> {
    return (
      this.conn
        .sql('DELETE FROM message_reactions WHERE channel_id = ? AND message_id = ? AND emoji = ?')
        .run(channelId, messageId, emoji).changes > 0
    );
  }

  async listReactionUsers(
    channelId: string,
    messageId: string,
    emoji: string,
    limit: number,
    after?: string,
  ): Promise<string[]> {
    const rows = this.conn
      .sql(
        `SELECT user_id FROM message_reactions WHERE channel_id = ? AND message_id = ? AND emoji = ?
         AND (? IS NULL OR length(user_id) > length(?) OR (length(user_id) = length(?) AND user_id > ?))
         ORDER BY length(user_id), user_id LIMIT ?`,
      )
      .all(channelId, messageId, emoji, ...Array<string | null>(4).fill(after ?? null), limit) as {
      user_id: string;
    }[];
    return rows.map((row) => row.user_id);
  }

  async countReactions(channelId: string, messageId: string, viewerId: string): Promise<ReactionCount[]> {
    const rows = this.conn
      .sql(
        `SELECT emoji, count(*) AS n, max(user_id = ?) AS me FROM message_reactions
         WHERE channel_id = ? AND message_id = ? GROUP BY emoji ORDER BY min(reacted_at), emoji`,
      )
      .all(viewerId, channelId, messageId) as { emoji: string; n: number; me: number }[];
    return rows.map((row) => ({ emoji: row.emoji, count: row.n, me: row.me === 1 }));
  }
}
