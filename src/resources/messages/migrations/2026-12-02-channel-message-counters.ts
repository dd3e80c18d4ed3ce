/**
 * A channel's message counters (v10's `last_message_id`, and a thread's `message_count` and
 * `total_message_sent`), of the messages slashd holds: one row per channel, written in the
 * transaction of each message created or deleted. `message_count` may go below 0: a world-file
 * message deleted counts down here, and the world file's own messages are counted when a channel is
 * rendered (src/core/world/channel-counters.ts). Keyed by channel id alone: a channel's counters are
 * the channel's, the same for every app that reads it (docs/decisions.md, "Channel message counters").
 * Existing databases start with no rows: their channels count from their next message.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const channelMessageCounters: DatedMigration = {
  name: '2026-12-02-channel-message-counters',
  sqlite: `
    CREATE TABLE channel_message_counters (
      channel_id TEXT NOT NULL,
      last_message_id TEXT,
      message_count INTEGER NOT NULL,
      total_message_sent INTEGER NOT NULL,
      PRIMARY KEY (channel_id)
    );
  `,
  postgres: `
    CREATE TABLE channel_message_counters (
      channel_id TEXT COLLATE "C" NOT NULL,
      last_message_id TEXT COLLATE "C",
      message_count INTEGER NOT NULL,
      total_message_sent INTEGER NOT NULL,
      PRIMARY KEY (channel_id)
    );
  `,
};
