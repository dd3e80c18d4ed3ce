/**
 * A list GET's answer as stored bytes, one row per scope of an app's commands and localization view
 * (SQLite alone): a read the in-memory cache misses is then one row read, not the scope's commands
 * parsed and encoded again. A row is written by the first read of its scope and view, and every
 * write to the scope's commands deletes the scope's rows in its own transaction, so a stored answer
 * is never older than the commands it was rendered from. PostgreSQL keeps its versioned lists per
 * node (`versioned-lists.postgres.ts`) and needs nothing here.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const commandListAnswersTable: DatedMigration = {
  name: '2026-12-07-command-list-answers',
  sqlite: `
    CREATE TABLE command_list_answers (
      application_id TEXT NOT NULL,
      -- '' for the global scope, as in commands.
      guild_key TEXT NOT NULL,
      -- localizationViewKey: '' (no locale), a locale, or '*' (with_localizations).
      view TEXT NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (application_id, guild_key, view)
    ) WITHOUT ROWID;
  `,
  postgres: null,
};
