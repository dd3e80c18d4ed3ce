/**
 * Bot users' own profiles (`PATCH /users/@me`): one row per application whose bot set something,
 * its name (null: the application's), its avatar's and banner's hashes with their bytes beside
 * them (served at `/avatars/{id}/{hash}` and `/banners/{id}/{hash}`), and when its name last
 * changed (v10's two changes an hour). The world store's application reads join it; it goes with
 * its application (`APPLICATION_OWNED_TABLES`).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const botProfilesTable: DatedMigration = {
  name: '2026-12-02-bot-profiles',
  sqlite: `
    CREATE TABLE bot_profiles (
      application_id TEXT NOT NULL PRIMARY KEY,
      username TEXT,
      avatar TEXT,
      avatar_type TEXT,
      avatar_bytes BLOB,
      banner TEXT,
      banner_type TEXT,
      banner_bytes BLOB,
      username_changes TEXT NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE bot_profiles (
      application_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
      username TEXT,
      avatar TEXT COLLATE "C",
      avatar_type TEXT,
      avatar_bytes BYTEA,
      banner TEXT COLLATE "C",
      banner_type TEXT,
      banner_bytes BYTEA,
      username_changes TEXT NOT NULL
    );
  `,
};
