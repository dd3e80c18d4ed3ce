/**
 * Guild invites: one row per code, with the columns reads filter on (the guild, the channel, when
 * it expires, how often it was used and may be) and the invite's document.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const invitesTable: DatedMigration = {
  name: '2026-12-02-invites',
  sqlite: `
    CREATE TABLE invites (
      code TEXT PRIMARY KEY,
      guild_id TEXT NOT NULL,
      channel_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      uses INTEGER NOT NULL,
      max_uses INTEGER NOT NULL,
      doc TEXT NOT NULL
    );
    CREATE INDEX invites_by_guild ON invites (guild_id, created_at);
    CREATE INDEX invites_by_channel ON invites (channel_id, created_at);
  `,
  postgres: `
    CREATE TABLE invites (
      code TEXT COLLATE "C" PRIMARY KEY,
      guild_id TEXT COLLATE "C" NOT NULL,
      channel_id TEXT COLLATE "C" NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT,
      uses INTEGER NOT NULL,
      max_uses INTEGER NOT NULL,
      doc TEXT NOT NULL
    );
    CREATE INDEX invites_by_guild ON invites (guild_id, created_at);
    CREATE INDEX invites_by_channel ON invites (channel_id, created_at);
  `,
};
