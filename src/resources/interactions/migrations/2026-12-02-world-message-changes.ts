/**
 * What the API made of the world file's messages (docs/decisions.md, "Moderating messages"): a
 * world-file message stays the document's until the API first changes it; then one row here says
 * it was `copied` (edited: the copy is a row of `messages`, read instead of the document's) or
 * `deleted` (a tombstone: reads hide it). Replacing the world forgets them all, so its messages
 * come back as the file has them; a snapshot holds this table as every other.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const worldMessageChanges: DatedMigration = {
  name: '2026-12-02-world-message-changes',
  sqlite: `
    CREATE TABLE world_message_changes (
      channel_id TEXT NOT NULL,
      message_id TEXT NOT NULL,
      state TEXT NOT NULL,
      PRIMARY KEY (channel_id, message_id)
    );
  `,
  postgres: `
    CREATE TABLE world_message_changes (
      channel_id TEXT COLLATE "C" NOT NULL,
      message_id TEXT COLLATE "C" NOT NULL,
      state TEXT NOT NULL,
      PRIMARY KEY (channel_id, message_id)
    );
  `,
};
