/** The PostgreSQL PollStore: the message_polls and message_poll_votes tables. */
import type { PollState, PollStore, PollTally, VoteChange } from './store.js';
import type { PostgresConnection } from '../../store/postgres/connection.js';

interface PollRow {
  expires_at: string;
  ended_at: string | null;
}

function stateOf(row: PollRow): PollState {
  return { expiresAt: Number(row.expires_at), endedAt: row.ended_at === null ? null : Number(row.ended_at) };
}

export class PostgresPollStore implements PollStore {
  constructor(private readonly conn: PostgresConnection) {}

  async createPoll(channelId: string, messageId: string, expiresAt: number): Promise<void> {
    await this.conn.pool.query(
      'INSERT INTO message_polls (channel_id, message_id, expires_at, ended_at) VALUES ($1, $2, $3, NULL)',
      [channelId, messageId, expiresAt],
    );
  }

  async getPoll(channelId: string, messageId: string): Promise<PollState | null> {
    const result = await this.conn.pool.query<PollRow>(
      'SELECT expires_at, ended_at FROM message_polls WHERE channel_id = $1 AND message_id = $2',
      [channelId, messageId],
    );
    const row = result.rows[0];
    return row ? stateOf(row) : null;
  }

  async deletePoll(channelId: string, messageId: string): Promise<void> {
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM message_poll_votes WHERE channel_id = $1 AND message_id = $2', [
        channelId,
        messageId,
      ]);
      await client.query('DELETE FROM message_polls WHERE channel_id = $1 AND message_id = $2', [channelId, messageId]);
    });
  }

  async setVotes(
    channelId: string,
    messageId: string,
    userId: string,
    answerIds: readonly number[],
    now: number,
  ): Promise<VoteChange> {
    return this.conn.transaction(async (client): Promise<VoteChange> => {
      // The poll's row locked: its end (endPoll) waits for this vote, or this vote sees it ended.
      const poll = await client.query<PollRow>(
        'SELECT expires_at, ended_at FROM message_polls WHERE channel_id = $1 AND message_id = $2 FOR UPDATE',
        [channelId, messageId],
      );
      const row = poll.rows[0];
      if (!row) return { kind: 'unknown' };
      const state = stateOf(row);
      if (state.endedAt !== null || state.expiresAt <= now) return { kind: 'ended' };
      const mine = (
        await client.query<{ answer_id: number }>(
          'SELECT answer_id FROM message_poll_votes WHERE channel_id = $1 AND message_id = $2 AND user_id = $3',
          [channelId, messageId, userId],
        )
      ).rows.map((r) => r.answer_id);
      const removed = mine.filter((id) => !answerIds.includes(id)).sort((a, b) => a - b);
      const added = answerIds.filter((id) => !mine.includes(id));
      if (removed.length > 0) {
        await client.query(
          `DELETE FROM message_poll_votes WHERE channel_id = $1 AND message_id = $2 AND user_id = $3
           AND answer_id = ANY($4::int[])`,
          [channelId, messageId, userId, removed],
        );
      }
      for (const id of added) {
        await client.query(
          'INSERT INTO message_poll_votes (channel_id, message_id, answer_id, user_id, voted_at) VALUES ($1, $2, $3, $4, $5)',
          [channelId, messageId, id, userId, now],
        );
      }
      return { kind: 'changed', added, removed };
    });
  }

  async tally(channelId: string, messageId: string, viewerId: string): Promise<PollTally | null> {
    const poll = await this.getPoll(channelId, messageId);
    if (!poll) return null;
    const result = await this.conn.pool.query<{ answer_id: number; n: string; me: boolean }>(
      `SELECT answer_id, count(*) AS n, bool_or(user_id = $3) AS me FROM message_poll_votes
       WHERE channel_id = $1 AND message_id = $2 GROUP BY answer_id ORDER BY answer_id`,
      [channelId, messageId, viewerId],
    );
    return {
      endedAt: poll.endedAt,
      counts: result.rows.map((row) => ({ answerId: row.answer_id, count: Number(row.n), me: row.me })),
    };
  }

  async listVoters(
    channelId: string,
    messageId: string,
    answerId: number,
    limit: number,
    after?: string,
  ): Promise<string[]> {
    const result = await this.conn.pool.query<{ user_id: string }>(
      `SELECT user_id FROM message_poll_votes WHERE channel_id = $1 AND message_id = $2 AND answer_id = $3
       AND ($4::text IS NULL OR length(user_id) > length($4::text)
            OR (length(user_id) = length($4::text) AND user_id > $4::text))
       ORDER BY length(user_id), user_id LIMIT $5`,
      [channelId, messageId, answerId, after ?? null, limit],
    );
    return result.rows.map((row) => row.user_id);
  }

  async endPoll(channelId: string, messageId: string, at: number): Promise<boolean> {
    const result = await this.conn.pool.query(
      'UPDATE message_polls SET ended_at = $1 WHERE channel_id = $2 AND message_id = $3 AND ended_at IS NULL',
      [at, channelId, messageId],
    );
    return result.rowCount === 1;
  }

  async duePolls(now: number, limit: number): Promise<{ channelId: string; messageId: string }[]> {
    const result = await this.conn.pool.query<{ channel_id: string; message_id: string }>(
      `SELECT channel_id, message_id FROM message_polls WHERE ended_at IS NULL AND expires_at <= $1
       ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
    return result.rows.map((row) => ({ channelId: row.channel_id, messageId: row.message_id }));
  }
}
