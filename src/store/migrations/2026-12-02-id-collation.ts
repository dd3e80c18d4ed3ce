/**
 * One collation for every id column on PostgreSQL: "C", which orders snowflakes as (length, text)
 * and compares bytes. Some id columns were "C" from the start and most took the database's
 * default; a join or a comparison between the two could not use an index (the members and
 * interactions queries named a collation to get one). Every text column holding an id (`id`,
 * `*_id`, `guild_key`: a guild's id or '' for the global scope, `visible_to`: a user's id) not "C"
 * yet becomes "C"; PostgreSQL rebuilds the indexes covering them. SQLite compares every text
 * column bytewise already (BINARY), so it needs nothing.
 */
import type { DatedMigration } from '../dated-migrations.js';
import type { PostgresClient } from '../postgres/connection.js';

/** The id columns not in the C collation after the numbered baseline, by table. */
const ID_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  activity_instances: ['application_id'],
  attachment_chunks: ['channel_id', 'attachment_id'],
  attachment_files: ['channel_id', 'id', 'message_id', 'owner_id'],
  audit_log_entries: ['guild_id', 'user_id'],
  channel_guilds: ['channel_id', 'guild_id'],
  command_creates: ['application_id', 'guild_key'],
  command_list_versions: ['application_id', 'guild_key'],
  command_permissions: ['application_id', 'guild_id'],
  commands: ['application_id', 'guild_key'],
  dm_channels: ['channel_id', 'application_id', 'user_id'],
  guild_bans: ['guild_id', 'user_id'],
  guild_members: ['guild_id', 'user_id'],
  guild_threads: ['thread_id', 'guild_id'],
  interaction_transcripts: ['application_id', 'interaction_id'],
  interactions: ['application_id', 'id', 'user_id'],
  message_pins: ['channel_id'],
  message_reactions: ['channel_id', 'message_id'],
  messages: ['channel_id', 'application_id', 'interaction_id', 'visible_to'],
  oauth2_authorizations: ['application_id', 'user_id'],
  oauth2_codes: ['application_id'],
  oauth2_refresh_tokens: ['application_id', 'grant_id'],
  oauth2_tokens: ['application_id', 'grant_id'],
  permission_list_versions: ['application_id', 'guild_id'],
  thread_members: ['thread_id', 'guild_id'],
};

/** One statement per table (its indexes are rebuilt once), each bounded by the statement timeout. */
async function collateIdColumns(client: PostgresClient): Promise<void> {
  for (const [table, columns] of Object.entries(ID_COLUMNS)) {
    const alters = columns.map((column) => `ALTER COLUMN ${column} TYPE text COLLATE "C"`);
    await client.query(`ALTER TABLE ${table} ${alters.join(', ')}`);
  }
}

export const idCollation: DatedMigration = {
  name: '2026-12-02-id-collation',
  sqlite: null,
  postgres: collateIdColumns,
};
