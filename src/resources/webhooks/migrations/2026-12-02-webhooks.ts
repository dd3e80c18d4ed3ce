/**
 * Channel webhooks (type 1, incoming): one row each, the app that made it its owner, its token
 * kept only as its SHA-256 digest, its avatar's bytes beside it (served at `/avatars/{id}/{hash}`).
 * Deleted with their channel (`channelOwnedTables`).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const webhooksTable: DatedMigration = {
  name: '2026-12-02-webhooks',
  sqlite: `
    CREATE TABLE webhooks (
      id TEXT NOT NULL PRIMARY KEY,
      application_id TEXT NOT NULL,
      guild_id TEXT NOT NULL,
      channel_id TEXT NOT NULL,
      name TEXT NOT NULL,
      avatar TEXT,
      avatar_type TEXT,
      avatar_bytes BLOB,
      token_digest TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX webhooks_by_channel ON webhooks (channel_id);
    CREATE INDEX webhooks_by_guild ON webhooks (guild_id, application_id);
  `,
  postgres: `
    CREATE TABLE webhooks (
      id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
      application_id TEXT COLLATE "C" NOT NULL,
      guild_id TEXT COLLATE "C" NOT NULL,
      channel_id TEXT COLLATE "C" NOT NULL,
      name TEXT NOT NULL,
      avatar TEXT COLLATE "C",
      avatar_type TEXT,
      avatar_bytes BYTEA,
      token_digest TEXT COLLATE "C" NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX webhooks_by_channel ON webhooks (channel_id);
    CREATE INDEX webhooks_by_guild ON webhooks (guild_id, application_id);
  `,
};
