import Database from 'better-sqlite3';
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import { applyMutation } from '../../core/commands/mutation.js';
import type { CommandPermission, GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { Application, Guild, User, World } from '../../core/world/types.js';
import { generateApplicationKeys } from '../keys.js';
import type { InteractionRecord, InteractionState } from '../../core/interactions/lifecycle.js';
import type { StoredMessage } from '../../core/interactions/messages.js';
import type {
  ActivityInstance, CommandPlanner, IssuedToken, PermissionsPlanner, Store, StoredApplication,
} from '../store.js';
import { sameDigest, sameSecret, tokenDigest } from '../tokens.js';
import { MIGRATIONS } from './migrations.js';
import { deepFreeze, ReadCaches } from './read-caches.js';

const GLOBAL_SCOPE_KEY = '';

function scopeKey(scope: CommandScope): string {
  return scope.guildId ?? GLOBAL_SCOPE_KEY;
}

/** The UTC day a create counts toward. */
function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

interface CommandRow {
  application_id: string;
  guild_key: string;
  id: string;
  version: string;
  definition: string;
}

interface ApplicationRow {
  doc: string;
  verify_key: string;
  private_key_pem: string;
}

function rowToCommand(row: CommandRow): StoredCommand {
  return {
    id: row.id,
    application_id: row.application_id,
    guild_id: row.guild_key === GLOBAL_SCOPE_KEY ? null : row.guild_key,
    version: row.version,
    definition: JSON.parse(row.definition),
  };
}

function rowToApplication(row: ApplicationRow): StoredApplication {
  const app = JSON.parse(row.doc) as Application;
  return { ...app, keys: { verifyKey: row.verify_key, privateKeyPem: row.private_key_pem } };
}

export interface SqliteStoreOptions {
  /** A file path, or ':memory:'. */
  path: string;
  now?: () => number;
}

/** The embedded store: better-sqlite3 in WAL mode. */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly cached = new ReadCaches();

  constructor(options: SqliteStoreOptions) {
    this.db = new Database(options.path);
    this.now = options.now ?? Date.now;
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
  }

  /** Prepared once per SQL text: preparing costs more than running most of these queries. */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** The read caches, emptied first if another connection has written since they were filled. */
  private caches(): ReadCaches {
    this.cached.checkDataVersion(this.sql('PRAGMA data_version').pluck().get() as number);
    return this.cached;
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const applied = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(migration.version, migration.name);
      }).immediate();
    }
  }

  schemaVersion(): number {
    const row = this.sql('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    return row.v ?? 0;
  }

  // ---- the world -------------------------------------------------------------------------------

  async replaceWorld(world: World): Promise<void> {
    this.cached.clear();
    this.db.transaction(() => {
      const keep = new Set(world.applications.map((a) => a.id));
      for (const { id } of this.sql('SELECT id FROM applications').all() as { id: string }[]) {
        // An application the new world leaves out goes with everything it owned.
        if (!keep.has(id)) this.removeApplication(id);
      }
      this.db.exec('DELETE FROM users; DELETE FROM guilds; DELETE FROM channel_guilds; DELETE FROM oauth2_tokens;');
      this.writeWorld(world);
    }).immediate();
  }

  async mergeWorld(world: World): Promise<void> {
    this.db.transaction(() => this.writeWorld(world)).immediate();
  }

  private writeWorld(world: World): void {
    for (const app of world.applications) this.writeApplication(app);
    for (const user of world.users) this.writeUser(user);
    for (const guild of world.guilds) this.writeGuild(guild);
    for (const token of world.oauth2_tokens) this.writeToken({ ...token, expires_at: null });
  }

  async exportWorld(): Promise<World> {
    const tokens = await this.listOAuth2Tokens();
    return {
      applications: (await this.listApplications()).map(({ keys: _keys, ...app }) => app),
      users: await this.listUsers(),
      guilds: await this.listGuilds(),
      oauth2_tokens: tokens
        .filter((t) => t.expires_at === null)
        .map(({ expires_at: _expires, ...token }) => token),
    };
  }

  async putApplication(app: Application): Promise<StoredApplication> {
    return this.db.transaction(() => this.writeApplication(app)).immediate();
  }

  private writeApplication(app: Application): StoredApplication {
    this.cached.forgetApplications();
    const existing = this.sql('SELECT verify_key, private_key_pem FROM applications WHERE id = ?')
      .get(app.id) as { verify_key: string; private_key_pem: string } | undefined;
    // Keys survive a reload of the world: a bot keeps verifying with the key it already has.
    const keys = existing
      ? { verifyKey: existing.verify_key, privateKeyPem: existing.private_key_pem }
      : generateApplicationKeys();
    this.sql(
        `INSERT INTO applications (id, bot_token_hash, doc, verify_key, private_key_pem) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET bot_token_hash = excluded.bot_token_hash, doc = excluded.doc`,
      )
      .run(app.id, tokenDigest(app.bot_token), JSON.stringify(app), keys.verifyKey, keys.privateKeyPem);
    return { ...app, keys };
  }

  async deleteApplication(id: string): Promise<boolean> {
    this.cached.forgetApplications();
    this.cached.forgetCommandsOf(id);
    return this.db.transaction(() => this.removeApplication(id)).immediate();
  }

  private removeApplication(id: string): boolean {
    const gone = this.sql('DELETE FROM applications WHERE id = ?').run(id).changes > 0;
    for (const table of ['commands', 'command_creates', 'command_permissions', 'oauth2_tokens', 'interactions', 'activity_instances']) {
      this.sql(`DELETE FROM ${table} WHERE application_id = ?`).run(id);
    }
    return gone;
  }

  async getApplication(id: string): Promise<StoredApplication | null> {
    const cached = this.caches().applicationsById.get(id);
    if (cached) return cached;
    const row = this.sql('SELECT doc, verify_key, private_key_pem FROM applications WHERE id = ?').get(id) as
      | ApplicationRow
      | undefined;
    if (!row) return null;
    const app = deepFreeze(rowToApplication(row));
    this.cached.applicationsById.set(id, app);
    return app;
  }

  async findApplicationByBotToken(token: string): Promise<StoredApplication | null> {
    const digest = tokenDigest(token);
    let entry = this.caches().applicationsByToken.get(digest);
    if (!entry) {
      const row = this.sql('SELECT doc, verify_key, private_key_pem, bot_token_hash FROM applications WHERE bot_token_hash = ?')
        .get(digest) as (ApplicationRow & { bot_token_hash: string }) | undefined;
      if (!row) return null;
      entry = { app: deepFreeze(rowToApplication(row)), digest: row.bot_token_hash };
      this.cached.applicationsByToken.set(digest, entry);
    }
    return sameDigest(entry.digest, digest) ? entry.app : null;
  }

  async listApplications(): Promise<StoredApplication[]> {
    const rows = this.sql('SELECT doc, verify_key, private_key_pem FROM applications ORDER BY id').all() as ApplicationRow[];
    return rows.map(rowToApplication);
  }

  async putUser(user: User): Promise<void> {
    this.writeUser(user);
  }

  private writeUser(user: User): void {
    this.cached.usersByToken.clear();
    this.sql(
        `INSERT INTO users (id, token_hash, doc) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, doc = excluded.doc`,
      )
      .run(user.id, tokenDigest(user.token), JSON.stringify(user));
  }

  async deleteUser(id: string): Promise<boolean> {
    this.cached.usersByToken.clear();
    return this.sql('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }

  async getUser(id: string): Promise<User | null> {
    const row = this.sql('SELECT doc FROM users WHERE id = ?').get(id) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as User) : null;
  }

  async findUserByToken(token: string): Promise<User | null> {
    const digest = tokenDigest(token);
    const cached = this.caches().usersByToken.get(digest);
    if (cached) return cached;
    const row = this.sql('SELECT doc, token_hash FROM users WHERE token_hash = ?').get(digest) as
      | { doc: string; token_hash: string }
      | undefined;
    if (!row || !sameDigest(row.token_hash, digest)) return null;
    const user = deepFreeze(JSON.parse(row.doc) as User);
    this.cached.usersByToken.set(digest, user);
    return user;
  }

  async listUsers(): Promise<User[]> {
    return (this.sql('SELECT doc FROM users ORDER BY id').all() as { doc: string }[]).map((r) => JSON.parse(r.doc));
  }

  async putGuild(guild: Guild): Promise<void> {
    this.writeGuild(guild);
  }

  private writeGuild(guild: Guild): void {
    this.cached.forgetGuild(guild.id);
    this.db.transaction(() => {
      this.sql('INSERT INTO guilds (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc')
        .run(guild.id, JSON.stringify(guild));
      this.sql('DELETE FROM channel_guilds WHERE guild_id = ?').run(guild.id);
      const link = this.sql('INSERT OR REPLACE INTO channel_guilds (channel_id, guild_id) VALUES (?, ?)');
      for (const channel of guild.channels) link.run(channel.id, guild.id);
    })();
  }

  async findGuildByChannel(channelId: string): Promise<Guild | null> {
    const row = this.sql('SELECT guild_id FROM channel_guilds WHERE channel_id = ?').get(channelId) as
      | { guild_id: string }
      | undefined;
    return row ? this.getGuild(row.guild_id) : null;
  }

  async deleteGuild(id: string): Promise<boolean> {
    return this.db.transaction(() => {
      const gone = this.sql('DELETE FROM guilds WHERE id = ?').run(id).changes > 0;
      this.sql('DELETE FROM channel_guilds WHERE guild_id = ?').run(id);
      this.cached.forgetGuild(id);
      this.sql('DELETE FROM command_permissions WHERE guild_id = ?').run(id);
      return gone;
    }).immediate();
  }

  async getGuild(id: string): Promise<Guild | null> {
    const cached = this.caches().guilds.get(id);
    if (cached) return cached;
    const row = this.sql('SELECT doc FROM guilds WHERE id = ?').get(id) as { doc: string } | undefined;
    if (!row) return null;
    const guild = deepFreeze(JSON.parse(row.doc) as Guild);
    this.cached.guilds.set(id, guild);
    return guild;
  }

  async listGuilds(): Promise<Guild[]> {
    return (this.sql('SELECT doc FROM guilds ORDER BY id').all() as { doc: string }[]).map((r) => JSON.parse(r.doc));
  }

  async putOAuth2Token(token: IssuedToken): Promise<void> {
    this.writeToken(token);
  }

  private writeToken(token: IssuedToken): void {
    this.sql(
        `INSERT INTO oauth2_tokens (token_hash, application_id, doc, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (token_hash) DO UPDATE SET application_id = excluded.application_id, doc = excluded.doc,
           expires_at = excluded.expires_at`,
      )
      .run(tokenDigest(token.access_token), token.application_id, JSON.stringify(token), token.expires_at);
  }

  async deleteOAuth2Token(accessToken: string): Promise<boolean> {
    return this.sql('DELETE FROM oauth2_tokens WHERE token_hash = ?').run(tokenDigest(accessToken)).changes > 0;
  }

  async findOAuth2Token(accessToken: string): Promise<IssuedToken | null> {
    const row = this.sql('SELECT doc FROM oauth2_tokens WHERE token_hash = ?').get(tokenDigest(accessToken)) as
      | { doc: string }
      | undefined;
    if (!row) return null;
    const token = JSON.parse(row.doc) as IssuedToken;
    if (!sameSecret(token.access_token, accessToken)) return null;
    if (token.expires_at !== null && token.expires_at <= this.now()) return null;
    return token;
  }

  async listOAuth2Tokens(): Promise<IssuedToken[]> {
    return (this.sql('SELECT doc FROM oauth2_tokens ORDER BY token_hash').all() as { doc: string }[]).map((r) =>
      JSON.parse(r.doc),
    );
  }

  // ---- commands --------------------------------------------------------------------------------

  async listCommands(scope: CommandScope): Promise<StoredCommand[]> {
    return this.cachedCommands(scope);
  }

  /** The scope's commands, parsed once and frozen until a write to the scope. */
  private cachedCommands(scope: CommandScope): StoredCommand[] {
    const key = `${scope.applicationId}/${scopeKey(scope)}`;
    let commands = this.caches().commands.get(key);
    if (!commands) {
      commands = deepFreeze(this.readCommands(scope));
      this.cached.commands.set(key, commands);
    }
    return commands;
  }

  private readCommands(scope: CommandScope): StoredCommand[] {
    const rows = this.sql(
        `SELECT application_id, guild_key, id, version, definition FROM commands
         WHERE application_id = ? AND guild_key = ? ORDER BY length(id), id`,
      )
      .all(scope.applicationId, scopeKey(scope)) as CommandRow[];
    return rows.map(rowToCommand);
  }

  async getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null> {
    return this.readCommand(scope, commandId);
  }

  private readCommand(scope: CommandScope, commandId: string): StoredCommand | null {
    const row = this.sql(
        `SELECT application_id, guild_key, id, version, definition FROM commands
         WHERE application_id = ? AND guild_key = ? AND id = ?`,
      )
      .get(scope.applicationId, scopeKey(scope), commandId) as CommandRow | undefined;
    return row ? rowToCommand(row) : null;
  }

  async mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R> {
    const key = scopeKey(scope);
    const day = utcDay(this.now());
    // IMMEDIATE takes the write lock before reading, so concurrent planners (even in other
    // processes on the same file) see each other's creates and the daily count stays exact.
    let after: StoredCommand[] = [];
    let permissionsDropped = false;
    const outcome = this.db.transaction(() => {
      const counted = this.sql('SELECT count FROM command_creates WHERE application_id = ? AND guild_key = ? AND day = ?')
        .get(scope.applicationId, key, day) as { count: number } | undefined;
      // The cache is current here: the write lock is held, and another process's commit shows in data_version.
      const before = this.cachedCommands(scope);
      const { mutation, result } = planner({ commands: before, createsToday: counted?.count ?? 0 });
      after = applyMutation(before, mutation);
      permissionsDropped = mutation.dropPermissionsOf.length > 0;

      const remove = this.sql('DELETE FROM commands WHERE application_id = ? AND id = ?');
      for (const id of mutation.delete) remove.run(scope.applicationId, id);
      // Updates go first to a placeholder name, so that swapping two names in one bulk
      // overwrite does not trip the unique key halfway through.
      const park = this.sql("UPDATE commands SET name = char(0) || id WHERE application_id = ? AND id = ?");
      for (const command of mutation.update) park.run(scope.applicationId, command.id);
      const update = this.sql(
        'UPDATE commands SET type = ?, name = ?, version = ?, definition = ? WHERE application_id = ? AND id = ?',
      );
      for (const c of mutation.update) {
        update.run(c.definition.type, c.definition.name, c.version, JSON.stringify(c.definition), scope.applicationId, c.id);
      }
      const insert = this.sql(
        'INSERT INTO commands (application_id, guild_key, id, type, name, version, definition) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const c of mutation.insert) {
        insert.run(scope.applicationId, key, c.id, c.definition.type, c.definition.name, c.version, JSON.stringify(c.definition));
      }
      const dropPermissions = this.sql('DELETE FROM command_permissions WHERE application_id = ? AND target_id = ?');
      for (const id of mutation.dropPermissionsOf) dropPermissions.run(scope.applicationId, id);
      if (mutation.countedCreates > 0) {
        this.sql(
            `INSERT INTO command_creates (application_id, guild_key, day, count) VALUES (?, ?, ?, ?)
             ON CONFLICT (application_id, guild_key, day) DO UPDATE SET count = count + excluded.count`,
          )
          .run(scope.applicationId, key, day, mutation.countedCreates);
      }
      return result;
    }).immediate();
    // Only once committed: the cached list becomes the new one, without parsing it back.
    this.cached.commands.set(`${scope.applicationId}/${key}`, deepFreeze(after));
    if (permissionsDropped) this.cached.forgetPermissionsOf(scope.applicationId);
    return outcome;
  }

  // ---- command permissions ---------------------------------------------------------------------

  async listCommandPermissions(applicationId: string, guildId: string): Promise<GuildCommandPermissions[]> {
    const key = `${applicationId}/${guildId}`;
    let permissions = this.caches().permissions.get(key);
    if (!permissions) {
      permissions = deepFreeze(this.readCommandPermissions(applicationId, guildId));
      this.cached.permissions.set(key, permissions);
    }
    return permissions;
  }

  private readCommandPermissions(applicationId: string, guildId: string): GuildCommandPermissions[] {
    const rows = this.sql(
        `SELECT target_id, permissions FROM command_permissions
         WHERE application_id = ? AND guild_id = ? ORDER BY length(target_id), target_id`,
      )
      .all(applicationId, guildId) as { target_id: string; permissions: string }[];
    return rows.map((r) => ({
      id: r.target_id,
      application_id: applicationId,
      guild_id: guildId,
      permissions: JSON.parse(r.permissions) as CommandPermission[],
    }));
  }

  async getCommandPermissions(applicationId: string, guildId: string, targetId: string): Promise<GuildCommandPermissions | null> {
    const row = this.sql('SELECT permissions FROM command_permissions WHERE application_id = ? AND guild_id = ? AND target_id = ?')
      .get(applicationId, guildId, targetId) as { permissions: string } | undefined;
    return row
      ? { id: targetId, application_id: applicationId, guild_id: guildId, permissions: JSON.parse(row.permissions) }
      : null;
  }

  async mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions> {
    return this.db.transaction(() => {
      const command =
        this.readCommand({ applicationId, guildId: null }, targetId) ?? this.readCommand({ applicationId, guildId }, targetId);
      const permissions = planner({ permissions: this.readCommandPermissions(applicationId, guildId), command });
      this.sql(
        `INSERT INTO command_permissions (application_id, guild_id, target_id, permissions) VALUES (?, ?, ?, ?)
         ON CONFLICT (application_id, guild_id, target_id) DO UPDATE SET permissions = excluded.permissions`,
      ).run(applicationId, guildId, targetId, JSON.stringify(permissions));
      this.cached.permissions.delete(`${applicationId}/${guildId}`);
      return { id: targetId, application_id: applicationId, guild_id: guildId, permissions };
    }).immediate();
  }

  // ---- interactions and messages ---------------------------------------------------------------

  async putInteraction(record: InteractionRecord): Promise<void> {
    this.sql('INSERT INTO interactions (application_id, id, user_id, state, doc) VALUES (?, ?, ?, ?, ?)')
      .run(record.application_id, record.id, record.user_id, record.state, JSON.stringify(record));
  }

  async getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null> {
    const row = this.sql('SELECT doc FROM interactions WHERE application_id = ? AND id = ?').get(applicationId, id) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as InteractionRecord) : null;
  }

  async getInteractionState(applicationId: string, id: string): Promise<InteractionState | null> {
    const row = this.sql('SELECT state FROM interactions WHERE application_id = ? AND id = ?').get(applicationId, id) as
      | { state: InteractionState }
      | undefined;
    return row?.state ?? null;
  }

  async findUserInteraction(userId: string, id: string): Promise<InteractionRecord | null> {
    const row = this.sql('SELECT doc FROM interactions WHERE user_id = ? AND id = ?').get(userId, id) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as InteractionRecord) : null;
  }

  async updateInteraction(
    applicationId: string,
    id: string,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    message?: StoredMessage,
  ): Promise<boolean> {
    return this.db.transaction(() => {
      const row = this.sql('SELECT doc FROM interactions WHERE application_id = ? AND id = ?').get(applicationId, id) as
        | { doc: string }
        | undefined;
      if (!row) return false;
      const record = JSON.parse(row.doc) as InteractionRecord;
      if (!from.includes(record.state)) return false;
      const next = { ...record, ...patch };
      this.sql('UPDATE interactions SET state = ?, doc = ? WHERE application_id = ? AND id = ?')
        .run(next.state, JSON.stringify(next), applicationId, id);
      if (message) this.writeMessage(message);
      return true;
    }).immediate();
  }

  async putMessage(message: StoredMessage): Promise<void> {
    this.writeMessage(message);
  }

  private writeMessage(message: StoredMessage): void {
    this.sql(
        `INSERT INTO messages (channel_id, id, application_id, interaction_id, visible_to, doc) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (channel_id, id) DO UPDATE SET doc = excluded.doc, visible_to = excluded.visible_to`,
      )
      .run(
        message.channel_id,
        message.id,
        message.application_id ?? null,
        message.interaction_metadata?.id ?? null,
        message.ephemeral_for_user_id,
        JSON.stringify(message),
      );
  }

  async getMessage(channelId: string, id: string): Promise<StoredMessage | null> {
    const row = this.sql('SELECT doc FROM messages WHERE channel_id = ? AND id = ?').get(channelId, id) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as StoredMessage) : null;
  }

  async listChannelMessages(channelId: string, viewerId: string, limit: number): Promise<StoredMessage[]> {
    const rows = this.sql(
      `SELECT doc FROM messages WHERE channel_id = ? AND (visible_to IS NULL OR visible_to = ?)
       ORDER BY length(id) DESC, id DESC LIMIT ?`,
    ).all(channelId, viewerId, limit) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as StoredMessage);
  }

  async deleteMessage(channelId: string, id: string): Promise<boolean> {
    return this.sql('DELETE FROM messages WHERE channel_id = ? AND id = ?').run(channelId, id).changes > 0;
  }

  async putActivityInstance(instance: ActivityInstance): Promise<void> {
    this.sql('INSERT INTO activity_instances (application_id, id, doc) VALUES (?, ?, ?)')
      .run(instance.application_id, instance.id, JSON.stringify(instance));
  }

  async listActivityInstances(applicationId: string): Promise<ActivityInstance[]> {
    return (
      this.sql('SELECT doc FROM activity_instances WHERE application_id = ? ORDER BY id').all(applicationId) as {
        doc: string;
      }[]
    ).map((r) => JSON.parse(r.doc) as ActivityInstance);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
