/**
 * Group DMs (v10 type 3) of the world: one row each holding its document (name, owner,
 * recipients), and one row per recipient, by which a user's group DMs are found. The world store
 * writes them with the rest of the world (a world file's `group_dms`, `POST /admin/world`).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const groupDms: DatedMigration = {
  name: '2026-12-02-group-dms',
  sqlite: `
    CREATE TABLE group_dms (
      channel_id TEXT PRIMARY KEY,
      doc TEXT NOT NULL
    );
    CREATE TABLE group_dm_recipients (
      channel_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      PRIMARY KEY (channel_id, user_id)
    );
    CREATE INDEX group_dm_recipients_by_user ON group_dm_recipients (user_id);
  `,
  postgres: `
    CREATE TABLE group_dms (
      channel_id TEXT COLLATE "C" PRIMARY KEY,
      doc TEXT NOT NULL
    );
    CREATE TABLE group_dm_recipients (
      channel_id TEXT COLLATE "C" NOT NULL,
      user_id TEXT COLLATE "C" NOT NULL,
      PRIMARY KEY (channel_id, user_id)
    );
    CREATE INDEX group_dm_recipients_by_user ON group_dm_recipients (user_id);
  `,
};
