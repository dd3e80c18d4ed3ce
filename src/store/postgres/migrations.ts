/**
 * The numbered PostgreSQL baseline: versioned schema migrations, applied in order (`migrate.ts`),
 * each once, each in its own transaction. A migration is never edited after it has shipped. The
 * list ends with the step creating the dated migrations' table: every later change to the schema
 * is a dated migration (src/store/dated-migrations.ts).
 * Documents are text (JSON written by the store): the store never queries inside them, and text
 * reads back exactly what was written. Snowflake ids order as (length, text) under the C collation.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The unique indexes that keep two users, or two applications, from sharing a token. */
export const USERS_TOKEN_INDEX = 'users_token_unique';
export const APPLICATIONS_TOKEN_INDEX = 'applications_bot_token_unique';

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
  {
    version: 3,
    name: 'list versions: command and permission lists cached per process, validated per read',
    sql: `
      -- One number per command scope and per guild's permissions, taken from one sequence, so a
      -- version is never reused: a process that read a list at version N holds exactly the list
      -- while the scope's version is still N. No row: nothing written since this migration.
      CREATE SEQUENCE list_versions;
      CREATE TABLE command_list_versions (
        application_id TEXT NOT NULL,
        guild_key TEXT NOT NULL,
        version BIGINT NOT NULL,
        PRIMARY KEY (application_id, guild_key)
      );
      CREATE TABLE permission_list_versions (
        application_id TEXT NOT NULL,
        guild_id TEXT NOT NULL,
        version BIGINT NOT NULL,
        PRIMARY KEY (application_id, guild_id)
      );
      INSERT INTO command_list_versions (application_id, guild_key, version)
        SELECT application_id, guild_key, nextval('list_versions')
        FROM (SELECT DISTINCT application_id, guild_key FROM commands) s;
      INSERT INTO permission_list_versions (application_id, guild_id, version)
        SELECT application_id, guild_id, nextval('list_versions')
        FROM (SELECT DISTINCT application_id, guild_id FROM command_permissions) s;

      -- Triggers, not the store's code, bump the versions: every statement that writes the lists
      -- (a planner, deleting an application or a guild, anything added later) moves the version of
      -- each scope it touched, in its own transaction. One upsert per scope per statement.
      CREATE FUNCTION bump_command_list_versions() RETURNS trigger LANGUAGE plpgsql
      SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO command_list_versions (application_id, guild_key, version)
            SELECT application_id, guild_key, nextval('list_versions')
            FROM (SELECT DISTINCT application_id, guild_key FROM new_rows) s
            ON CONFLICT (application_id, guild_key) DO UPDATE SET version = excluded.version;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO command_list_versions (application_id, guild_key, version)
            SELECT application_id, guild_key, nextval('list_versions')
            FROM (SELECT DISTINCT application_id, guild_key FROM old_rows) s
            ON CONFLICT (application_id, guild_key) DO UPDATE SET version = excluded.version;
        ELSE
          INSERT INTO command_list_versions (application_id, guild_key, version)
            SELECT application_id, guild_key, nextval('list_versions')
            FROM (SELECT application_id, guild_key FROM old_rows
                  UNION SELECT application_id, guild_key FROM new_rows) s
            ON CONFLICT (application_id, guild_key) DO UPDATE SET version = excluded.version;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER commands_inserted AFTER INSERT ON commands
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_command_list_versions();
      CREATE TRIGGER commands_updated AFTER UPDATE ON commands
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION bump_command_list_versions();
      CREATE TRIGGER commands_deleted AFTER DELETE ON commands
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_command_list_versions();

      CREATE FUNCTION bump_permission_list_versions() RETURNS trigger LANGUAGE plpgsql
      SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO permission_list_versions (application_id, guild_id, version)
            SELECT application_id, guild_id, nextval('list_versions')
            FROM (SELECT DISTINCT application_id, guild_id FROM new_rows) s
            ON CONFLICT (application_id, guild_id) DO UPDATE SET version = excluded.version;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO permission_list_versions (application_id, guild_id, version)
            SELECT application_id, guild_id, nextval('list_versions')
            FROM (SELECT DISTINCT application_id, guild_id FROM old_rows) s
            ON CONFLICT (application_id, guild_id) DO UPDATE SET version = excluded.version;
        ELSE
          INSERT INTO permission_list_versions (application_id, guild_id, version)
            SELECT application_id, guild_id, nextval('list_versions')
            FROM (SELECT application_id, guild_id FROM old_rows
                  UNION SELECT application_id, guild_id FROM new_rows) s
            ON CONFLICT (application_id, guild_id) DO UPDATE SET version = excluded.version;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER command_permissions_inserted AFTER INSERT ON command_permissions
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_permission_list_versions();
      CREATE TRIGGER command_permissions_updated AFTER UPDATE ON command_permissions
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION bump_permission_list_versions();
      CREATE TRIGGER command_permissions_deleted AFTER DELETE ON command_permissions
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_permission_list_versions();
    `,
  },
  {
    version: 4,
    name: 'one user per token, one application per bot token',
    // The service checks before it writes, but only within its process: two nodes writing at once
    // could both pass the check. The index makes the database refuse the second.
    sql: `
      CREATE UNIQUE INDEX ${USERS_TOKEN_INDEX} ON users (token_hash);
      DROP INDEX users_by_token;
      CREATE UNIQUE INDEX ${APPLICATIONS_TOKEN_INDEX} ON applications (bot_token_hash);
      DROP INDEX applications_by_token;
    `,
  },
  {
    version: 5,
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
        expires_at BIGINT NOT NULL,
        used BOOLEAN NOT NULL
      );
      CREATE INDEX oauth2_codes_by_expiry ON oauth2_codes (application_id, expires_at);
      CREATE TABLE oauth2_refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        application_id TEXT NOT NULL,
        grant_id TEXT NOT NULL,
        doc TEXT NOT NULL,
        expires_at BIGINT NOT NULL
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
    version: 6,
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
    version: 7,
    name: 'spent refresh tokens are kept to detect a replay',
    // A used refresh token stays (used) until it expires or its grant is revoked, so that
    // presenting it again is recognised as a replay and revokes its whole grant (OAuth 2.0
    // Security BCP); expired rows of an app are swept when it gets a new one.
    sql: `
      ALTER TABLE oauth2_refresh_tokens ADD COLUMN used BOOLEAN NOT NULL DEFAULT false;
      CREATE INDEX oauth2_refresh_tokens_by_expiry ON oauth2_refresh_tokens (application_id, expires_at);
    `,
  },
  {
    version: 8,
    name: 'pinned messages',
    // A channel's pins, of slashd's messages and the world file's alike (by id); a deleted message's
    // pin goes with it (deleteMessage). Listed newest pin first.
    sql: `
      CREATE TABLE message_pins (
        channel_id TEXT NOT NULL,
        message_id TEXT COLLATE "C" NOT NULL,
        pinned_at TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (channel_id, message_id)
      );
      CREATE INDEX message_pins_by_time ON message_pins (channel_id, pinned_at);
    `,
  },
  {
    version: 9,
    name: 'guild members as rows',
    // A member lived inside its guild's document: a write rewrote the whole document, a read
    // parsed every member. Now each member is its row (its document, and its place in the guild's
    // member order); the guild's document keeps an empty member list (docs/decisions.md).
    sql: `
      ALTER TABLE guild_members ADD COLUMN position INTEGER NOT NULL DEFAULT 0, ADD COLUMN doc TEXT NOT NULL DEFAULT '{}';
      UPDATE guild_members AS gm SET position = m.ord - 1, doc = m.value::text
        FROM guilds AS g, json_array_elements(g.doc::json -> 'members') WITH ORDINALITY AS m(value, ord)
        WHERE gm.guild_id = g.id AND gm.user_id = m.value ->> 'user_id';
      ALTER TABLE guild_members ALTER COLUMN position DROP DEFAULT, ALTER COLUMN doc DROP DEFAULT;
      CREATE INDEX guild_members_by_position ON guild_members (guild_id, position);
      UPDATE guilds SET doc = jsonb_set(doc::jsonb, '{members}', '[]'::jsonb)::text;
    `,
  },
  {
    version: 10,
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
    version: 11,
    name: 'reactions on messages',
    // One row per user per emoji per message, of slashd's messages and the world file's alike (by
    // id); a deleted message's reactions go with it (deleteMessage). Users are listed by id.
    sql: `
      CREATE TABLE message_reactions (
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        emoji TEXT COLLATE "C" NOT NULL,
        user_id TEXT COLLATE "C" NOT NULL,
        reacted_at BIGINT NOT NULL,
        PRIMARY KEY (channel_id, message_id, emoji, user_id)
      );
    `,
  },
  {
    version: 12,
    name: 'message attachments',
    // The bytes of each file in bytea pieces of at most 256 KiB, so that no file is ever read or
    // written whole; a file's row says whose it is (the bound per owner) and which message holds it.
    sql: `
      CREATE TABLE attachment_files (
        channel_id TEXT NOT NULL,
        id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        -- What the file is (filename, type, dimensions), for files no message describes yet.
        doc TEXT NOT NULL,
        size BIGINT NOT NULL,
        PRIMARY KEY (channel_id, id)
      );
      CREATE INDEX attachment_files_by_message ON attachment_files (channel_id, message_id);
      CREATE INDEX attachment_files_by_owner ON attachment_files (owner_id);
      CREATE TABLE attachment_chunks (
        channel_id TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        bytes BYTEA NOT NULL,
        PRIMARY KEY (channel_id, attachment_id, seq)
      );
    `,
  },
  {
    version: 13,
    name: 'audit log entries',
    // One row per entry, by guild and entry id (a snowflake: the time it was made); who acted and
    // the action are columns of their own, as the log is read filtered by them. Kept 45 days.
    sql: `
      CREATE TABLE audit_log_entries (
        guild_id TEXT NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        user_id TEXT,
        action_type INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (guild_id, id)
      );
    `,
  },
  {
    version: 14,
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
        user_id TEXT COLLATE "C" NOT NULL,
        guild_id TEXT NOT NULL,
        joined_at BIGINT NOT NULL,
        PRIMARY KEY (thread_id, user_id)
      );
      CREATE INDEX thread_members_by_guild ON thread_members (guild_id, thread_id);
    `,
  },
  {
    version: 15,
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
    version: 16,
    name: 'world file digest',
    // The digest of the world file last imported (`serve --world`): a start with the same file skips
    // the import. Any other write to the world's rows forgets it (these triggers), so a skipped
    // import never keeps a world the file does not describe (docs/decisions.md).
    sql: `
      CREATE TABLE store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE FUNCTION forget_world_file_digest() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM store_meta WHERE name = 'world_file_digest'; RETURN NULL; END $$;
      CREATE TRIGGER applications_forget_world_file AFTER INSERT OR UPDATE OR DELETE ON applications
        FOR EACH STATEMENT EXECUTE FUNCTION forget_world_file_digest();
      CREATE TRIGGER users_forget_world_file AFTER INSERT OR UPDATE OR DELETE ON users
        FOR EACH STATEMENT EXECUTE FUNCTION forget_world_file_digest();
      CREATE TRIGGER guilds_forget_world_file AFTER INSERT OR UPDATE OR DELETE ON guilds
        FOR EACH STATEMENT EXECUTE FUNCTION forget_world_file_digest();
      CREATE TRIGGER guild_members_forget_world_file AFTER INSERT OR UPDATE OR DELETE ON guild_members
        FOR EACH STATEMENT EXECUTE FUNCTION forget_world_file_digest();
      CREATE TRIGGER oauth2_tokens_written_forget_world_file AFTER INSERT OR UPDATE ON oauth2_tokens
        FOR EACH ROW WHEN (NEW.expires_at IS NULL) EXECUTE FUNCTION forget_world_file_digest();
      CREATE TRIGGER oauth2_tokens_deleted_forget_world_file AFTER DELETE ON oauth2_tokens
        FOR EACH ROW WHEN (OLD.expires_at IS NULL) EXECUTE FUNCTION forget_world_file_digest();
    `,
  },
  {
    version: 17,
    name: 'dated migrations',
    // The last numbered migration: every later change is a dated migration (src/store/dated-migrations.ts),
    // recorded here by name once applied. An older slashd stops at this version, so it refuses a
    // database that may hold dated migrations it does not know.
    sql: `
      CREATE TABLE schema_dated_migrations (
        name TEXT PRIMARY KEY,
        -- When it was applied, in ms since the epoch.
        applied_at BIGINT NOT NULL DEFAULT ((extract(epoch FROM now()) * 1000)::bigint)
      );
    `,
  },
];

/** The newest schema this slashd knows: a database past it was migrated by a newer release. */
export const LATEST_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version));
