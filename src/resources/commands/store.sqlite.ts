/**
 * The SQLite CommandStore: commands, daily create counts and command permissions, every query keyed
 * by application id.
 */
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import { applyMutation, type CommandMutation } from './rules/mutation.js';
import { LIST_ANSWER_FORMAT, listAnswerBytes, localizationViewKey, NO_LOCALE } from './rules/wire.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { CommandPlanner, CommandStore, ListRenderer, PermissionsPlanner } from '../../store/store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { Frozen } from '../../core/frozen-memo.js';
import type { CacheCounts } from '../../core/byte-lru.js';
import { approximateBytes, ENTRY_OVERHEAD_BYTES } from '../../core/byte-lru.js';
import { cacheTag, deepFreeze } from '../../store/sqlite/read-caches.js';
import { rowToCommand, rowToPermissions, scopeKey, utcDay, type CommandRow } from '../../store/rows.js';

/** Whether a mutation writes any command (a bulk overwrite with nothing new writes none). */
function changes(mutation: CommandMutation): boolean {
  return mutation.insert.length > 0 || mutation.update.length > 0 || mutation.delete.length > 0;
}

export class SqliteCommandStore implements CommandStore {
  constructor(private readonly conn: SqliteConnection) {}

  cacheCounts(): CacheCounts[] {
    return [];
  }

  async listCommands(scope: CommandScope): Promise<Frozen<StoredCommand[]>> {
    return this.cachedCommands(scope);
  }

  /**
   * The answer's bytes, kept in memory (tagged by the app and the scope) until a write to the scope,
   * and stored (`command_list_answers`), so a read the memory cache misses is one row read. A view
   * no row holds (a write stores only the one without a locale) renders the object list when
   * another reader has it cached, else the rows parsed for this render alone (neither frozen nor
   * kept), and stores the bytes in the same transaction as that read, so no write comes between.
   */
  async listCommandsRendered(scope: CommandScope, view: string, render: ListRenderer): Promise<Buffer> {
    const guildKey = scopeKey(scope);
    const listKey = `${scope.applicationId}/${guildKey}`;
    const caches = this.conn.caches();
    const key = `${listKey}/${view}`;
    const held = caches.listBytes.get(key);
    if (held) return held;
    const bytes = this.storedAnswer(scope.applicationId, guildKey, view) ?? this.renderAndStore(scope, view, render);
    caches.listBytes.set(key, bytes, ENTRY_OVERHEAD_BYTES + bytes.length, [
      cacheTag.commandsOf(scope.applicationId),
      cacheTag.commandsIn(scope.applicationId, guildKey),
    ]);
    return bytes;
  }

  /**
   * A write's new answers (in its transaction): every view of the scope dropped, and the list in
   * the view a bot's read asks without locale headers stored, so that the first read after a
   * deploy is already a stored one.
   */
  private replaceStoredAnswers(applicationId: string, guildKey: string, commands: readonly StoredCommand[]): void {
    this.conn
      .sql('DELETE FROM command_list_answers WHERE application_id = ? AND guild_key = ?')
      .run(applicationId, guildKey);
    this.storeAnswer(applicationId, guildKey, localizationViewKey(NO_LOCALE), listAnswerBytes(commands, NO_LOCALE));
  }

  /** One view's answer, in this build's format (inside the caller's transaction). */
  private storeAnswer(applicationId: string, guildKey: string, view: string, bytes: Buffer): void {
    this.conn
      .sql(
        `INSERT OR REPLACE INTO command_list_answers (application_id, guild_key, view, format, bytes)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(applicationId, guildKey, view, LIST_ANSWER_FORMAT, bytes);
  }

  private storedAnswer(applicationId: string, guildKey: string, view: string): Buffer | undefined {
    return this.conn
      .sql(
        'SELECT bytes FROM command_list_answers WHERE application_id = ? AND guild_key = ? AND view = ? AND format = ?',
      )
      .pluck()
      .get(applicationId, guildKey, view, LIST_ANSWER_FORMAT) as Buffer | undefined;
  }

  private renderAndStore(scope: CommandScope, view: string, render: ListRenderer): Buffer {
    const guildKey = scopeKey(scope);
    return this.conn.transaction(() => {
      const commands =
        this.conn.freshCaches().commands.get(`${scope.applicationId}/${guildKey}`) ??
        this.readCommandRows(scope).map(rowToCommand);
      const bytes = render(commands);
      this.storeAnswer(scope.applicationId, guildKey, view, bytes);
      return bytes;
    });
  }

  /** The scope's commands, parsed once and frozen until a write to the scope. */
  private cachedCommands(scope: CommandScope, fresh = false): Frozen<StoredCommand[]> {
    const key = `${scope.applicationId}/${scopeKey(scope)}`;
    let commands = (fresh ? this.conn.freshCaches() : this.conn.caches()).commands.get(key);
    if (!commands) {
      const rows = this.readCommandRows(scope);
      commands = deepFreeze(rows.map(rowToCommand));
      this.cacheCommands(
        scope,
        commands,
        rows.reduce((sum, row) => sum + row.definition.length, 0),
      );
    }
    return commands;
  }

  private cacheCommands(scope: CommandScope, commands: Frozen<StoredCommand[]>, jsonLength: number): void {
    const key = `${scope.applicationId}/${scopeKey(scope)}`;
    this.conn.cached.commands.set(key, commands, approximateBytes(jsonLength), [
      cacheTag.commandsOf(scope.applicationId),
    ]);
  }

  private readCommandRows(scope: CommandScope): CommandRow[] {
    return this.conn
      .sql(
        `SELECT application_id, guild_key, id, version, definition FROM commands
         WHERE application_id = ? AND guild_key = ? ORDER BY length(id), id`,
      )
      .all(scope.applicationId, scopeKey(scope)) as CommandRow[];
  }

  async getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null> {
    return this.readCommand(scope, commandId);
  }

  private readCommand(scope: CommandScope, commandId: string): StoredCommand | null {
    const row = this.conn
      .sql(
        `SELECT application_id, guild_key, id, version, definition FROM commands
         WHERE application_id = ? AND guild_key = ? AND id = ?`,
      )
      .get(scope.applicationId, scopeKey(scope), commandId) as CommandRow | undefined;
    return row ? rowToCommand(row) : null;
  }

  async countCreatesToday(scope: CommandScope): Promise<number> {
    const counted = this.conn
      .sql('SELECT count FROM command_creates WHERE application_id = ? AND guild_key = ? AND day = ?')
      .get(scope.applicationId, scopeKey(scope), utcDay(this.conn.now())) as { count: number } | undefined;
    return counted?.count ?? 0;
  }

  async resetCreatesToday(applicationId: string): Promise<void> {
    this.conn
      .sql('DELETE FROM command_creates WHERE application_id = ? AND day = ?')
      .run(applicationId, utcDay(this.conn.now()));
  }

  async mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R> {
    const key = scopeKey(scope);
    const day = utcDay(this.conn.now());
    // IMMEDIATE takes the write lock before reading, so concurrent planners (even in other
    // processes on the same file) see each other's creates and the daily count stays exact.
    let after: StoredCommand[] = [];
    let permissionsDropped = false;
    const outcome = this.conn.transaction(() => {
      const counted = this.conn
        .sql('SELECT count FROM command_creates WHERE application_id = ? AND guild_key = ? AND day = ?')
        .get(scope.applicationId, key, day) as { count: number } | undefined;
      // The cache is current here: the write lock is held, and another process's commit shows in data_version.
      const before = this.cachedCommands(scope, true);
      const { mutation, result } = planner({ commands: before, createsToday: counted?.count ?? 0 });
      after = applyMutation(before, mutation);
      permissionsDropped = mutation.dropPermissionsOf.length > 0;

      if (changes(mutation)) this.replaceStoredAnswers(scope.applicationId, key, after);
      const remove = this.conn.sql('DELETE FROM commands WHERE application_id = ? AND id = ?');
      for (const id of mutation.delete) remove.run(scope.applicationId, id);
      // Updates go first to a placeholder name, so that swapping two names in one bulk
      // overwrite does not trip the unique key halfway through.
      const park = this.conn.sql('UPDATE commands SET name = char(0) || id WHERE application_id = ? AND id = ?');
      for (const command of mutation.update) park.run(scope.applicationId, command.id);
      const update = this.conn.sql(
        'UPDATE commands SET type = ?, name = ?, version = ?, definition = ? WHERE application_id = ? AND id = ?',
      );
      for (const c of mutation.update) {
        update.run(
          c.definition.type,
          c.definition.name,
          c.version,
          JSON.stringify(c.definition),
          scope.applicationId,
          c.id,
        );
      }
      const insert = this.conn.sql(
        'INSERT INTO commands (application_id, guild_key, id, type, name, version, definition) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const c of mutation.insert) {
        insert.run(
          scope.applicationId,
          key,
          c.id,
          c.definition.type,
          c.definition.name,
          c.version,
          JSON.stringify(c.definition),
        );
      }
      const dropPermissions = this.conn.sql(
        'DELETE FROM command_permissions WHERE application_id = ? AND target_id = ?',
      );
      for (const id of mutation.dropPermissionsOf) dropPermissions.run(scope.applicationId, id);
      if (mutation.countedCreates > 0) {
        this.conn
          .sql(
            `INSERT INTO command_creates (application_id, guild_key, day, count) VALUES (?, ?, ?, ?)
             ON CONFLICT (application_id, guild_key, day) DO UPDATE SET count = count + excluded.count`,
          )
          .run(scope.applicationId, key, day, mutation.countedCreates);
      }
      return result;
    });
    // Only once committed: the cached list becomes the new one, without parsing it back.
    const definitionsLength = after.reduce((sum, c) => sum + JSON.stringify(c.definition).length, 0);
    this.cacheCommands(scope, deepFreeze(after), definitionsLength);
    this.conn.cached.forgetCommandsIn(scope.applicationId, key);
    if (permissionsDropped) this.conn.cached.forgetPermissionsOf(scope.applicationId);
    return outcome;
  }

  async listCommandPermissions(applicationId: string, guildId: string): Promise<Frozen<GuildCommandPermissions[]>> {
    const key = `${applicationId}/${guildId}`;
    let permissions = this.conn.caches().permissions.get(key);
    if (!permissions) {
      const rows = this.readPermissionRows(applicationId, guildId);
      permissions = deepFreeze(rows.map((r) => rowToPermissions(applicationId, guildId, r.target_id, r.permissions)));
      const bytes = approximateBytes(rows.reduce((sum, r) => sum + r.permissions.length + r.target_id.length, 0));
      this.conn.cached.permissions.set(key, permissions, bytes, [
        cacheTag.commandsOf(applicationId),
        cacheTag.permissionsOf(applicationId),
        cacheTag.guild(guildId),
      ]);
    }
    return permissions;
  }

  private readPermissionRows(applicationId: string, guildId: string): { target_id: string; permissions: string }[] {
    return this.conn
      .sql(
        `SELECT target_id, permissions FROM command_permissions
         WHERE application_id = ? AND guild_id = ? ORDER BY length(target_id), target_id`,
      )
      .all(applicationId, guildId) as { target_id: string; permissions: string }[];
  }

  private readCommandPermissions(applicationId: string, guildId: string): GuildCommandPermissions[] {
    return this.readPermissionRows(applicationId, guildId).map((r) =>
      rowToPermissions(applicationId, guildId, r.target_id, r.permissions),
    );
  }

  async getCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): Promise<GuildCommandPermissions | null> {
    const row = this.conn
      .sql('SELECT permissions FROM command_permissions WHERE application_id = ? AND guild_id = ? AND target_id = ?')
      .get(applicationId, guildId, targetId) as { permissions: string } | undefined;
    return row ? rowToPermissions(applicationId, guildId, targetId, row.permissions) : null;
  }

  async mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions> {
    return this.conn.transaction(() => {
      const command =
        this.readCommand({ applicationId, guildId: null }, targetId) ??
        this.readCommand({ applicationId, guildId }, targetId);
      const permissions = planner({ permissions: this.readCommandPermissions(applicationId, guildId), command });
      this.conn
        .sql(
          `INSERT INTO command_permissions (application_id, guild_id, target_id, permissions) VALUES (?, ?, ?, ?)
         ON CONFLICT (application_id, guild_id, target_id) DO UPDATE SET permissions = excluded.permissions`,
        )
        .run(applicationId, guildId, targetId, JSON.stringify(permissions));
      this.conn.cached.permissions.delete(`${applicationId}/${guildId}`);
      return { id: targetId, application_id: applicationId, guild_id: guildId, permissions };
    });
  }
}
