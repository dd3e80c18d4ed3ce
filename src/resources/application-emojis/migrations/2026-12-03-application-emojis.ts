/**
 * An application's own emojis (v10's application emojis): one row each, keyed by the application,
 * with its name (unique within the application), whether it is animated, and its image, served at
 * `/emojis/{id}.{ext}` as a guild emoji's is (so ids are looked up alone there too).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const applicationEmojisTable: DatedMigration = {
  name: '2026-12-03-application-emojis',
  sqlite: `
    CREATE TABLE application_emojis (
      application_id TEXT NOT NULL,
      id TEXT NOT NULL,
      name TEXT NOT NULL,
      animated INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE UNIQUE INDEX application_emojis_by_name ON application_emojis (application_id, name);
    CREATE INDEX application_emojis_by_id ON application_emojis (id);
  `,
  postgres: `
    CREATE TABLE application_emojis (
      application_id TEXT COLLATE "C" NOT NULL,
      id TEXT COLLATE "C" NOT NULL,
      name TEXT COLLATE "C" NOT NULL,
      animated BOOLEAN NOT NULL,
      content_type TEXT NOT NULL,
      bytes BYTEA NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE UNIQUE INDEX application_emojis_by_name ON application_emojis (application_id, name);
    CREATE INDEX application_emojis_by_id ON application_emojis (id);
  `,
};
