/**
 * The files of guild emojis and stickers (their metadata is in the guild's document): one row each,
 * by the emoji's or sticker's id, served at `/emojis/{id}.{ext}` and `/stickers/{id}.{ext}`.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const expressionAssetsTable: DatedMigration = {
  name: '2026-12-02-expression-assets',
  sqlite: `
    CREATE TABLE expression_assets (
      id TEXT NOT NULL PRIMARY KEY,
      guild_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      content_type TEXT NOT NULL,
      bytes BLOB NOT NULL
    );
    CREATE INDEX expression_assets_by_guild ON expression_assets (guild_id, kind);
  `,
  postgres: `
    CREATE TABLE expression_assets (
      id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
      guild_id TEXT COLLATE "C" NOT NULL,
      kind TEXT COLLATE "C" NOT NULL,
      content_type TEXT NOT NULL,
      bytes BYTEA NOT NULL
    );
    CREATE INDEX expression_assets_by_guild ON expression_assets (guild_id, kind);
  `,
};
