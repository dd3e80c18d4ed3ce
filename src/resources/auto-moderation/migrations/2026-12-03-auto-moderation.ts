/**
 * Guilds' auto moderation rules: one row each, keyed by the guild, with its trigger type (the
 * bound on rules of a type is counted by it) and the rule's document.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const autoModerationTables: DatedMigration = {
  name: '2026-12-03-auto-moderation',
  sqlite: `
    CREATE TABLE auto_moderation_rules (
      guild_id TEXT NOT NULL,
      id TEXT NOT NULL,
      trigger_type INTEGER NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (guild_id, id)
    );
  `,
  postgres: `
    CREATE TABLE auto_moderation_rules (
      guild_id TEXT COLLATE "C" NOT NULL,
      id TEXT COLLATE "C" NOT NULL,
      trigger_type INTEGER NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (guild_id, id)
    );
  `,
};
