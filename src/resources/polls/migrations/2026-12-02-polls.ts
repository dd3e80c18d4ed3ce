/**
 * Polls (docs/v10-behaviour.md#polls): `message_polls`, one row per poll (its end, and when it was
 * ended: null while open; the sweep reads open polls by their end), and `message_poll_votes`, one
 * row per voter per answer. Both are their channel's (deleted with it).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const pollTables: DatedMigration = {
  name: '2026-12-02-polls',
  sqlite: `
    CREATE TABLE message_polls (
      channel_id TEXT NOT NULL,
      message_id TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      ended_at INTEGER,
      PRIMARY KEY (channel_id, message_id)
    );
    CREATE INDEX message_polls_by_end ON message_polls (expires_at) WHERE ended_at IS NULL;
    CREATE TABLE message_poll_votes (
      channel_id TEXT NOT NULL,
      message_id TEXT NOT NULL,
      answer_id INTEGER NOT NULL,
      user_id TEXT NOT NULL,
      voted_at INTEGER NOT NULL,
      PRIMARY KEY (channel_id, message_id, answer_id, user_id)
    );
  `,
  postgres: `
    CREATE TABLE message_polls (
      channel_id TEXT COLLATE "C" NOT NULL,
      message_id TEXT COLLATE "C" NOT NULL,
      expires_at BIGINT NOT NULL,
      ended_at BIGINT,
      PRIMARY KEY (channel_id, message_id)
    );
    CREATE INDEX message_polls_by_end ON message_polls (expires_at) WHERE ended_at IS NULL;
    CREATE TABLE message_poll_votes (
      channel_id TEXT COLLATE "C" NOT NULL,
      message_id TEXT COLLATE "C" NOT NULL,
      answer_id INTEGER NOT NULL,
      user_id TEXT COLLATE "C" NOT NULL,
      voted_at BIGINT NOT NULL,
      PRIMARY KEY (channel_id, message_id, answer_id, user_id)
    );
  `,
};
