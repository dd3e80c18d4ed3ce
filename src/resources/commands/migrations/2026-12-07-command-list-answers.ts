/**
 * A list GET's answer as stored bytes, one row per scope of an app's commands and localization view
 * (SQLite alone): a read the in-memory cache misses is then one row read, not the scope's commands
 * parsed and encoded again. Every write to a scope's commands deletes the scope's rows and stores
 * the view a bot's read asks without locale headers, in its own transaction; another view's row is
 * written by its first read. A row holds the wire format it was rendered in (`LIST_ANSWER_FORMAT`),
 * and a read of another format's row renders anew. The migration stores each scope's answer in that
 * view, as a write would have. PostgreSQL keeps its versioned lists per node
 * (`versioned-lists.postgres.ts`) and needs nothing here.
 */
import type { DatedMigration, SqliteHalf } from '../../../store/dated-migrations.js';
import { rowToCommand, type CommandRow } from '../../../store/rows.js';
import { LIST_ANSWER_FORMAT, listAnswerBytes, localizationViewKey, NO_LOCALE } from '../rules/wire.js';

/** The SQLite half given the connection (a function, as it fills the table it makes). */
type SqliteFunction = Extract<SqliteHalf, (...args: never[]) => void>;

const createAndFill: SqliteFunction = (db) => {
  db.exec(`
    CREATE TABLE command_list_answers (
      application_id TEXT NOT NULL,
      -- '' for the global scope, as in commands.
      guild_key TEXT NOT NULL,
      -- localizationViewKey: '' (no locale), a locale, or '*' (with_localizations).
      view TEXT NOT NULL,
      -- LIST_ANSWER_FORMAT of the build that rendered the bytes.
      format INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      -- A rowid table: a WITHOUT ROWID one keeps about 1 KB of a row in its page and chains the rest,
      -- and a 7.4 KB answer then reads in twice the time (20 against 9.5 µs at random).
      PRIMARY KEY (application_id, guild_key, view)
    );
  `);
  const insert = db.prepare(
    'INSERT INTO command_list_answers (application_id, guild_key, view, format, bytes) VALUES (?, ?, ?, ?, ?)',
  );
  const scopes = db.prepare('SELECT DISTINCT application_id, guild_key FROM commands').all() as {
    application_id: string;
    guild_key: string;
  }[];
  const commandsOf = db.prepare(
    `SELECT application_id, guild_key, id, version, definition FROM commands
     WHERE application_id = ? AND guild_key = ? ORDER BY length(id), id`,
  );
  for (const { application_id, guild_key } of scopes) {
    const rows = commandsOf.all(application_id, guild_key) as CommandRow[];
    const bytes = listAnswerBytes(rows.map(rowToCommand), NO_LOCALE);
    insert.run(application_id, guild_key, localizationViewKey(NO_LOCALE), LIST_ANSWER_FORMAT, bytes);
  }
};

export const commandListAnswersTable: DatedMigration = {
  name: '2026-12-07-command-list-answers',
  sqlite: createAndFill,
  postgres: null,
};
