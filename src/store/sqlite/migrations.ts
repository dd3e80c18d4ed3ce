/**
 * The numbered baseline: versioned schema migrations, applied in order, each once. A migration is
 * never edited after it has shipped. The list ends with the step creating the dated migrations'
 * table: every later change to the schema is a dated migration (src/store/dated-migrations.ts).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'world and commands',
    sql: `
      CREATE TABLE applications (
        id TEXT PRIMARY KEY,
        bot_token_hash TEXT NOT NULL,
        doc TEXT NOT NULL,
        verify_key TEXT NOT NULL,
        private_key_pem TEXT NOT NULL
      );
      CREATE INDEX applications_by_token ON applications (bot_token_hash);
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX users_by_token ON users (token_hash);
      CREATE TABLE guilds (
        id TEXT PRIMARY KEY,
        doc TEXT NOT NULL
      );
      CREATE TABLE oauth2_tokens (
        token_hash TEXT PRIMARY KEY,
        application_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        expires_at INTEGER
      );
      CREATE TABLE commands (
        application_id TEXT NOT NULL,
        -- '' for the global scope, so that the unique key below covers it.
        guild_key TEXT NOT NULL,
        id TEXT NOT NULL,
        type INTEGER NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        definition TEXT NOT NULL,
        PRIMARY KEY (application_id, id),
        UNIQUE (application_id, guild_key, type, name)
      );
      CREATE INDEX commands_by_scope ON commands (application_id, guild_key, id);
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
        target_id TEXT NOT NULL,
        permissions TEXT NOT NULL,
        PRIMARY KEY (application_id, guild_id, target_id)
      );
    `,
  },
  {
    version: 2,
    name: 'interactions, messages and activity instances',
    sql: `
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
        id TEXT NOT NULL,
        application_id TEXT,
        interaction_id TEXT,
        -- The one user who may see an ephemeral message; NULL: everyone in the channel.
        visible_to TEXT,
        doc TEXT NOT NULL,
        PRIMARY KEY (channel_id, id)
      );
      CREATE INDEX messages_by_interaction ON messages (application_id, interaction_id);
      CREATE TABLE channel_guilds (
        channel_id TEXT PRIMARY KEY,
        guild_id TEXT NOT NULL
      );
      CREATE INDEX channel_guilds_by_guild ON channel_guilds (guild_id);
      INSERT INTO channel_guilds (channel_id, guild_id)
        SELECT json_extract(c.value, '$.id'), guilds.id FROM guilds, json_each(guilds.doc, '$.channels') AS c;
      CREATE TABLE activity_instances (
        application_id TEXT NOT NULL,
        id TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (application_id, id)
      );
    `,
  },
  {
    version: 3,
    name: 'channel messages newest first',
    // Snowflakes sort numerically as (length, text): this index serves the newest-first read.
    sql: `CREATE INDEX messages_by_channel_newest ON messages (channel_id, length(id), id);`,
  },
  {
    version: 4,
    name: 'snowflake node leases',
    // One row per node id ever leased; a row whose expires_at has passed is free to take.
    sql: `
      CREATE TABLE node_leases (
        node_id INTEGER PRIMARY KEY CHECK (node_id BETWEEN 0 AND 1023),
        holder TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'guild members by user',
    // Which guilds a user is a member of, so that a user's change is told to those guilds alone.
    sql: `
      CREATE TABLE guild_members (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      );
      CREATE INDEX guild_members_by_user ON guild_members (user_id);
      INSERT OR IGNORE INTO guild_members (guild_id, user_id)
        SELECT guilds.id, json_extract(m.value, '$.user_id') FROM guilds, json_each(guilds.doc, '$.members') AS m;
    `,
  },
  {
    version: 6,
    name: 'one user per token, one application per bot token',
    // The service checks before it writes, but only within its process; processes sharing the
    // file could both pass the check. The index makes the database refuse the second.
    sql: `
      CREATE UNIQUE INDEX users_token_unique ON users (token_hash);
      DROP INDEX users_by_token;
      CREATE UNIQUE INDEX applications_bot_token_unique ON applications (bot_token_hash);
      DROP INDEX applications_by_token;
    `,
  },
  {
    version: 7,
    name: 'oauth2 authorization codes, refresh tokens, user authorizations, signing key',
    // Codes and refresh tokens by their SHA-256 digest only; an issued access token names its
    // grant, so that a replayed code revokes every token issued from it.
    sql: `
      ALTER TABLE oauth2_tokens ADD COLUMN grant_id TEXT;
      CREATE INDEX oauth2_tokens_by_grant ON oauth2_tokens (application_id, grant_id);
      CREATE TABLE oauth2_codes (
        code_hash TEXT PRIMARY KEY,
        application_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used INTEGER NOT NULL
      );
      CREATE INDEX oauth2_codes_by_expiry ON oauth2_codes (application_id, expires_at);
      CREATE TABLE oauth2_refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        application_id TEXT NOT NULL,
        grant_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX oauth2_refresh_tokens_by_grant ON oauth2_refresh_tokens (application_id, grant_id);
      CREATE TABLE oauth2_authorizations (
        application_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (application_id, user_id)
      );
      -- One key per deployment: slot 1 is the only row.
      CREATE TABLE oidc_signing_keys (
        slot INTEGER PRIMARY KEY CHECK (slot = 1),
        doc TEXT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'interaction transcripts',
    // Each step of an interaction's life (delivery attempts, injected faults), for
    // GET /admin/interactions/{id}/transcript; bounded per interaction by the store.
    sql: `
      CREATE TABLE interaction_transcripts (
        application_id TEXT NOT NULL,
        interaction_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (application_id, interaction_id, seq)
      );
    `,
  },
  {
    version: 9,
    name: 'spent refresh tokens are kept to detect a replay',
    // A used refresh token stays (used = 1) until it expires or its grant is revoked, so that
    // presenting it again is recognised as a replay and revokes its whole grant (OAuth 2.0
    // Security BCP); expired rows of an app are swept when it gets a new one.
    sql: `
      ALTER TABLE oauth2_refresh_tokens ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX oauth2_refresh_tokens_by_expiry ON oauth2_refresh_tokens (application_id, expires_at);
    `,
  },
  {
    version: 10,
    name: 'pinned messages',
    // A channel's pins, of slashd's messages and the world file's alike (by id); a deleted message's
    // pin goes with it (deleteMessage). Listed newest pin first.
    sql: `
      CREATE TABLE message_pins (
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (channel_id, message_id)
      );
      CREATE INDEX message_pins_by_time ON message_pins (channel_id, pinned_at);
    `,
  },
  {
    version: 11,
    name: 'guild members as rows',
    // A member lived inside its guild's document: a write rewrote the whole document, a read
    // parsed every member. Now each member is its row (its document, and its place in the guild's
    // member order); the guild's document keeps an empty member list (docs/decisions.md).
    sql: `
      CREATE TABLE guild_member_rows (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      );
      INSERT OR IGNORE INTO guild_member_rows (guild_id, user_id, position, doc)
        SELECT guilds.id, json_extract(m.value, '$.user_id'), CAST(m.key AS INTEGER), m.value
        FROM guilds, json_each(guilds.doc, '$.members') AS m;
      DROP TABLE guild_members;
      ALTER TABLE guild_member_rows RENAME TO guild_members;
      CREATE INDEX guild_members_by_user ON guild_members (user_id);
      CREATE INDEX guild_members_by_position ON guild_members (guild_id, position);
      UPDATE guilds SET doc = json_set(doc, '$.members', json('[]'));
    `,
  },
  {
    version: 12,
    name: 'guild bans',
    // A banned user is kept out: the ban is its own row, written with the member's removal.
    sql: `
      CREATE TABLE guild_bans (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      );
    `,
  },
  {
    version: 13,
    name: 'reactions on messages',
    // One row per user per emoji per message, of slashd's messages and the world file's alike (by
    // id); a deleted message's reactions go with it (deleteMessage). Users are listed by id.
    sql: `
      CREATE TABLE message_reactions (
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        emoji TEXT NOT NULL,
        user_id TEXT NOT NULL,
        reacted_at INTEGER NOT NULL,
        PRIMARY KEY (channel_id, message_id, emoji, user_id)
      );
    `,
  },
  {
    version: 14,
    name: 'message attachments',
    // The bytes of each file in pieces of at most 256 KiB, so that no file is ever read or written
    // whole; a file's row says whose it is (the bound per owner) and which message holds it.
    sql: `
      CREATE TABLE attachment_files (
        channel_id TEXT NOT NULL,
        id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        -- What the file is (filename, type, dimensions), for files no message describes yet.
        doc TEXT NOT NULL,
        size INTEGER NOT NULL,
        PRIMARY KEY (channel_id, id)
      );
      CREATE INDEX attachment_files_by_message ON attachment_files (channel_id, message_id);
      CREATE INDEX attachment_files_by_owner ON attachment_files (owner_id);
      CREATE TABLE attachment_chunks (
        channel_id TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        bytes BLOB NOT NULL,
        PRIMARY KEY (channel_id, attachment_id, seq)
      );
    `,
  },
  {
    version: 15,
    name: 'audit log entries',
    // One row per entry, by guild and entry id (a snowflake: the time it was made); who acted and
    // the action are columns of their own, as the log is read filtered by them. Kept 45 days.
    sql: `
      CREATE TABLE audit_log_entries (
        guild_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT,
        action_type INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (guild_id, id)
      );
    `,
  },
  {
    version: 16,
    name: 'threads and thread members',
    // Threads created through the API, each a row of its own (keyed by its id, which may be the id of
    // the message it started from); their members one row each.
    sql: `
      CREATE TABLE guild_threads (
        thread_id TEXT PRIMARY KEY,
        guild_id TEXT NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX guild_threads_by_guild ON guild_threads (guild_id);
      CREATE TABLE thread_members (
        thread_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        guild_id TEXT NOT NULL,
        joined_at INTEGER NOT NULL,
        PRIMARY KEY (thread_id, user_id)
      );
      CREATE INDEX thread_members_by_guild ON thread_members (guild_id, thread_id);
    `,
  },
  {
    version: 17,
    name: 'DM channels',
    // One DM channel per app's bot and user: the unique pair makes two racing opens share one.
    sql: `
      CREATE TABLE dm_channels (
        channel_id TEXT PRIMARY KEY,
        application_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        UNIQUE (application_id, user_id)
      );
      CREATE INDEX dm_channels_by_user ON dm_channels (user_id);
    `,
  },
  {
    version: 18,
    name: 'world file digest',
    // The digest of the world file last imported (`serve --world`): a start with the same file skips
    // the import. Any other write to the world's rows forgets it (these triggers), so a skipped
    // import never keeps a world the file does not describe (docs/decisions.md).
    sql: `
      CREATE TABLE store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TRIGGER applications_insert_forgets_world_file AFTER INSERT ON applications
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER applications_update_forgets_world_file AFTER UPDATE ON applications
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER applications_delete_forgets_world_file AFTER DELETE ON applications
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER users_insert_forgets_world_file AFTER INSERT ON users
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER users_update_forgets_world_file AFTER UPDATE ON users
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER users_delete_forgets_world_file AFTER DELETE ON users
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guilds_insert_forgets_world_file AFTER INSERT ON guilds
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guilds_update_forgets_world_file AFTER UPDATE ON guilds
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guilds_delete_forgets_world_file AFTER DELETE ON guilds
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guild_members_insert_forgets_world_file AFTER INSERT ON guild_members
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guild_members_update_forgets_world_file AFTER UPDATE ON guild_members
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER guild_members_delete_forgets_world_file AFTER DELETE ON guild_members
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER oauth2_tokens_insert_forgets_world_file AFTER INSERT ON oauth2_tokens
        WHEN NEW.expires_at IS NULL BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER oauth2_tokens_update_forgets_world_file AFTER UPDATE ON oauth2_tokens
        WHEN NEW.expires_at IS NULL BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
      CREATE TRIGGER oauth2_tokens_delete_forgets_world_file AFTER DELETE ON oauth2_tokens
        WHEN OLD.expires_at IS NULL BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; END;
    `,
  },
  {
    version: 19,
    name: 'dated migrations',
    // The last numbered migration: every later change is a dated migration (src/store/dated-migrations.ts),
    // recorded here by name once applied. An older slashd stops at this version, so it refuses a
    // database that may hold dated migrations it does not know.
    sql: `
      CREATE TABLE schema_dated_migrations (
        name TEXT PRIMARY KEY,
        -- When it was applied, in ms since the epoch.
        applied_at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER) * 1000)
      );
    `,
  },
];

/** The newest schema this slashd knows: a database past it was migrated by a newer release. */
export const LATEST_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version));
