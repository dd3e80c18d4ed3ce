/**
 * Versioned PostgreSQL schema migrations, applied in order, each once, each in its own transaction.
 * A migration is never edited after it has shipped: a change to the schema is a new entry at the end.
 * Documents are text (JSON written by the store): the store never queries inside them, and text
 * reads back exactly what was written. Snowflake ids order as (length, text) under the C collation.
 */
import type { PostgresClient, PostgresConnection } from './connection.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'world, commands, interactions, messages, activities, node leases',
    sql: `
      CREATE TABLE applications (
        id TEXT COLLATE "C" PRIMARY KEY,
        bot_token_hash TEXT NOT NULL,
        doc TEXT NOT NULL,
        verify_key TEXT NOT NULL,
        private_key_pem TEXT NOT NULL
      );
      CREATE INDEX applications_by_token ON applications (bot_token_hash);
      CREATE TABLE users (
        id TEXT COLLATE "C" PRIMARY KEY,
        token_hash TEXT NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX users_by_token ON users (token_hash);
      CREATE TABLE guilds (
        id TEXT COLLATE "C" PRIMARY KEY,
        doc TEXT NOT NULL
      );
      CREATE TABLE channel_guilds (
        channel_id TEXT PRIMARY KEY,
        guild_id TEXT NOT NULL
      );
      CREATE INDEX channel_guilds_by_guild ON channel_guilds (guild_id);
      CREATE TABLE oauth2_tokens (
        token_hash TEXT COLLATE "C" PRIMARY KEY,
        application_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        expires_at BIGINT
      );
      CREATE INDEX oauth2_tokens_by_application ON oauth2_tokens (application_id);
      CREATE TABLE commands (
        application_id TEXT NOT NULL,
        -- '' for the global scope, so that the unique key below covers it.
        guild_key TEXT NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        type INTEGER NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        definition TEXT NOT NULL,
        PRIMARY KEY (application_id, id),
        UNIQUE (application_id, guild_key, type, name)
      );
      CREATE INDEX commands_by_scope ON commands (application_id, guild_key, length(id), id);
      CREATE TABLE command_creates (
        application_id TEXT NOT NULL,
        guild_key TEXT NOT NULL,
        day TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (application_id, guild_key, day)
      );
      CREATE TABLE command_permissions (
        application_id TEXT NOT NULL,
        guild_id TEXT NOT NULL,
        target_id TEXT COLLATE "C" NOT NULL,
        permissions TEXT NOT NULL,
        PRIMARY KEY (application_id, guild_id, target_id)
      );
      CREATE INDEX command_permissions_by_guild ON command_permissions (guild_id);
      CREATE TABLE interactions (
        application_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        state TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (application_id, id)
      );
      CREATE INDEX interactions_by_user ON interactions (user_id, id);
      CREATE TABLE messages (
        channel_id TEXT NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        application_id TEXT,
        interaction_id TEXT,
        -- The one user who may see an ephemeral message; NULL: everyone in the channel.
        visible_to TEXT,
        doc TEXT NOT NULL,
        PRIMARY KEY (channel_id, id)
      );
      CREATE INDEX messages_by_interaction ON messages (application_id, interaction_id);
      CREATE INDEX messages_by_channel_newest ON messages (channel_id, length(id), id);
      CREATE TABLE activity_instances (
        application_id TEXT NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (application_id, id)
      );
      -- One row per node id ever leased; a row whose expires_at has passed is free to take.
      CREATE TABLE node_leases (
        node_id INTEGER PRIMARY KEY CHECK (node_id BETWEEN 0 AND 1023),
        holder TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'guild members by user',
    // Which guilds a user is a member of, so that a user's change is told to those guilds alone.
    sql: `
      CREATE TABLE guild_members (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      );
      CREATE INDEX guild_members_by_user ON guild_members (user_id);
      INSERT INTO guild_members (guild_id, user_id)
        SELECT DISTINCT guilds.id, m.value ->> 'user_id' FROM guilds, jsonb_array_elements(guilds.doc::jsonb -> 'members') AS m;
    `,
  },
];

/**
 * Applies the migrations the schema lacks. An advisory lock on the schema's name serializes
 * processes starting at once (even the creation of the schema itself, which does not exist yet
 * for `current_schema()` to name); each migration and its `schema_migrations` row commit together.
 */
export async function migrate(conn: PostgresConnection): Promise<void> {
  const lock = (client: PostgresClient) =>
    client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd migrations/' || $1, 0))", [conn.schema]);
  await conn.transaction(async (client) => {
    await lock(client);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${conn.quotedSchema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
  });
  for (const migration of MIGRATIONS) {
    await conn.transaction(async (client) => {
      await lock(client);
      const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rowCount) return;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    });
  }
}
