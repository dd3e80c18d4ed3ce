/** The SQLite PollStore: the message_polls and message_poll_votes tables. */
import type { PollState, PollStore, PollTally, VoteChange } from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

export class SqlitePollStore implements PollStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createPoll(channelId: string, messageId: string, expiresAt: number): Promise<void> {
    this.conn
      .sql('INSERT INTO message_polls (channel_id, message_id, expires_at, ended_at) VALUES (?, ?, ?, NULL)')
      .run(channelId, messageId, expiresAt);
  }

  async getPoll(channelId: string, messageId: string): Promise<PollState | null> {
    const row = this.conn
      .sql('SELECT expires_at, ended_at FROM message_polls WHERE channel_id = ? AND message_id = ?')
      .get(channelId, messageId) as { expires_at: number; ended_at: number | null } | undefined;
    return row ? { expiresAt: row.expires_at, endedAt: row.ended_at } : null;
  }

  async deletePoll(channelId: string, messageId: string): Promise<void> {
    this.conn.transaction(() => {
      this.conn.sql('DELETE FROM message_poll_votes WHERE channel_id = ? AND message_id = ?').run(channelId, messageId);
      this.conn.sql('DELETE FROM message_polls WHERE channel_id = ? AND message_id = ?').run(channelId, messageId);
    });
  }

  async setVotes(
    channelId: string,
    messageId: string,
    userId: string,
    answerIds: readonly number[],
    now: number,
  ): Promise<VoteChange> {
    return this.conn.transaction((): VoteChange => {
      const poll = this.conn
        .sql('SELECT expires_at, ended_at FROM message_polls WHERE channel_id = ? AND message_id = ?')
        .get(channelId, messageId) as { expires_at: number; ended_at: number | null } | undefined;
      if (!poll) return { kind: 'unknown' };
      if (poll.ended_at !== null || poll.expires_at <= now) return { kind: 'ended' };
      const mine = (
        this.conn
          .sql('SELECT answer_id FROM message_poll_votes WHERE channel_id = ? AND message_id = ? AND user_id = ?')
          .all(channelId, messageId, userId) as { answer_id: number }[]
      ).map((row) => row.answer_id);
      const removed = mine.filter((id) => !answerIds.includes(id)).sort((a, b) => a - b);
      const added = answerIds.filter((id) => !mine.includes(id));
      const remove = this.conn.sql(
        'DELETE FROM message_poll_votes WHERE channel_id = ? AND message_id = ? AND answer_id = ? AND user_id = ?',
      );
      for (const id of removed) remove.run(channelId, messageId, id, userId);
      const insert = this.conn.sql(
        'INSERT INTO message_poll_votes (channel_id, message_id, answer_id, user_id, voted_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (const id of added) insert.run(channelId, messageId, id, userId, now);
      return { kind: 'changed', added, removed };
    });
  }

  async tally(channelId: string, messageId: string, viewerId: string): Promise<PollTally | null> {
    const poll = await this.getPoll(channelId, messageId);
    if (!poll) return null;
    const rows = this.conn
      .sql(
        `SELECT answer_id, count(*) AS n, max(user_id = ?) AS me FROM message_poll_votes
         WHERE channel_id = ? AND message_id = ? GROUP BY answer_id ORDER BY answer_id`,
      )
      .all(viewerId, channelId, messageId) as { answer_id: number; n: number; me: number }[];
    return {
      endedAt: poll.endedAt,
      counts: rows.map((row) => ({ answerId: row.answer_id, count: row.n, me: row.me === 1 })),
    };
  }

  async listVoters(
    channelId: string,
    messageId: string,
    answerId: number,
    limit: number,
    after?: string,
  ): Promise<string[]> {
    const rows = this.conn
      .sql(
        `SELECT user_id FROM message_poll_votes WHERE channel_id = ? AND message_id = ? AND answer_id = ?
         AND (? IS NULL OR length(user_id) > length(?) OR (length(user_id) = length(?) AND user_id > ?))
         ORDER BY length(user_id), user_id LIMIT ?`,
      )
      .all(channelId, messageId, answerId, ...Array<string | null>(4).fill(after ?? null), limit) as {
      user_id: string;
    }[];
    return rows.map((row) => row.user_id);
  }

  async endPoll(channelId: string, messageId: string, at: number): Promise<boolean> {
    return (
      this.conn
        .sql('UPDATE message_polls SET ended_at = ? WHERE channel_id = ? AND message_id = ? AND ended_at IS NULL')
        .run(at, channelId, messageId).changes === 1
    );
  }

  async duePolls(now: number, limit: number): Promise<{ channelId: string; messageId: string }[]> {
    const rows = this.conn
      .sql(
        `SELECT channel_id, message_id FROM message_polls WHERE ended_at IS NULL AND expires_at <= ?
         ORDER BY expires_at LIMIT ?`,
      )
      .all(now, limit) as { channel_id: string; message_id: string }[];
    return rows.map((row) => ({ channelId: row.channel_id, messageId: row.message_id }));
  }
}
