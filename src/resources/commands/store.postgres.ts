/**
 * The PostgreSQL CommandStore: commands, daily create counts and command permissions, every query
 * keyed by application id. Each planner runs in one transaction that first takes the advisory
 * lock of its scope, so concurrent planners of one scope (in any process) run one after the other.
 * Within a process they queue before taking a connection (scope-queue.ts), so a busy scope holds
 * at most one of the pool's connections waiting on its lock, and that wait is bounded (lock_timeout).
 * Command lists and permissions lists are held per process and checked against their scope's
 * version on every read (versioned-lists.ts; the checks of one turn of the event loop in one
 * statement, version-checks.postgres.ts), so any node's committed write is seen at once.
 */
import { approximateBytes, ENTRY_OVERHEAD_BYTES, type CacheCounts } from '../../core/byte-lru.js';
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import { deepFreeze, type Frozen } from '../../core/frozen-memo.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { CommandPlanner, CommandStore, ListRenderer, PermissionsPlanner } from '../../store/store.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import { rowToCommand, rowToPermissions, scopeKey, utcDay, type CommandRow } from '../../store/rows.js';
import { ScopeQueue } from './scope-queue.postgres.js';
import { VersionChecks } from './version-checks.postgres.js';
import { DEFAULT_LIST_CACHE_BYTES, NO_VERSION, VersionedLists } from './versioned-lists.postgres.js';

/** The lock key of the global scope (no guild id is 0). */
const GLOBAL_LOCK_KEY = '0';

/**
 * How long a planner waits for its scope's lock inside PostgreSQL before giving up (ms): another
 * node's planner of the scope holds it, and this one must not keep its connection for ever.
 */
export const PLANNER_LOCK_TIMEOUT_MS = 5_000;

type Queryable = Pick<PostgresClient, 'query'>;

const COMMAND_COLUMNS = 'application_id, guild_key, id, version, definition';

/** The share of the list cache's bytes that holds command lists (objects, for invocations and the picker). */
export const COMMAND_LISTS_SHARE = 3 / 8;

/** The share that holds list answers' bytes (what a list GET sends); permissions lists get the rest. */
export const LIST_BYTES_SHARE = 1 / 2;

/**
 * The scope's list version (0: never written), and its rows only when that is not the version
 * held ($3): one statement, so the version and the rows are of one snapshot. The comparison does
 * not name a row, so it gates the whole scan once (a hit reads no row of the list). No rows: one
 * row of NULLs beside the version. Prepared once per connection (by name), planned once.
 */
const VERSIONED_COMMANDS = {
  name: 'slashd-versioned-commands',
  text: `
    WITH v AS (SELECT COALESCE(
      (SELECT version FROM command_list_versions WHERE application_id = $1 AND guild_key = $2), 0
    )::text AS list_version)
    SELECT v.list_version, c.application_id, c.guild_key, c.id, c.version, c.definition
    FROM v LEFT JOIN (
      SELECT ${COMMAND_COLUMNS} FROM commands
      WHERE application_id = $1 AND guild_key = $2 AND (SELECT list_version FROM v) <> $3
      OFFSET 0
    ) c ON true
    ORDER BY length(c.id), c.id`,
};

const VERSIONED_PERMISSIONS = {
  name: 'slashd-versioned-permissions',
  text: `
    WITH v AS (SELECT COALESCE(
      (SELECT version FROM permission_list_versions WHERE application_id = $1 AND guild_id = $2), 0
    )::text AS list_version)
    SELECT v.list_version, p.target_id, p.permissions
    FROM v LEFT JOIN (
      SELECT target_id, permissions FROM command_permissions
      WHERE application_id = $1 AND guild_id = $2 AND (SELECT list_version FROM v) <> $3
      OFFSET 0
    ) p ON true
    ORDER BY length(p.target_id), p.target_id`,
};

type Nullable<T> = { [K in keyof T]: T[K] | null };

export class PostgresCommandStore implements CommandStore {
  /** Command lists held per process (by application and scope), bounded by bytes. */
  readonly commandLists: VersionedLists<Frozen<StoredCommand[]>>;
  /** List answers' bytes held per process (by application, scope and view), bounded by bytes. */
  readonly listBytes: VersionedLists<Buffer>;
  /** Permissions lists held per process (by application and guild), bounded by bytes. */
  readonly permissionsLists: VersionedLists<Frozen<GuildCommandPermissions[]>>;

  /** Planners of one scope on this node, one at a time: at most one connection waits on its lock. */
  readonly scopeQueue = new ScopeQueue();
  /** The held lists' version checks, those of one turn of the event loop in one statement. */
  private readonly commandVersions: VersionChecks;
  private readonly permissionVersions: VersionChecks;

  constructor(
    private readonly conn: PostgresConnection,
    cacheBytes: number = DEFAULT_LIST_CACHE_BYTES,
  ) {
    const commandBytes = Math.floor(cacheBytes * COMMAND_LISTS_SHARE);
    const answerBytes = Math.floor(cacheBytes * LIST_BYTES_SHARE);
    this.commandLists = new VersionedLists(commandBytes);
    this.listBytes = new VersionedLists(answerBytes);
    this.permissionsLists = new VersionedLists(cacheBytes - commandBytes - answerBytes);
    this.commandVersions = new VersionChecks(conn, {
      name: 'slashd-command-list-versions',
      table: 'command_list_versions',
      scopeColumn: 'guild_key',
    });
    this.permissionVersions = new VersionChecks(conn, {
      name: 'slashd-permission-list-versions',
      table: 'permission_list_versions',
      scopeColumn: 'guild_id',
    });
  }

  /**
   * Lookups of the per-process lists held (objects, list answers' bytes, permissions), answered
   * without reading the rows, and the lists each dropped to make room.
   */
  cacheCounts(): CacheCounts[] {
    return [
      { cache: 'command_lists', ...this.commandLists.counts() },
      { cache: 'command_list_bytes', ...this.listBytes.counts() },
      { cache: 'permission_lists', ...this.permissionsLists.counts() },
    ];
  }

  /** Runs `work` in a transaction once this node's earlier planners of the scope are done. */
  private plannerTransaction<T>(
    applicationId: string,
    scope: string,
    work: (client: PostgresClient) => Promise<T>,
  ): Promise<T> {
    return this.scopeQueue.run(`${applicationId}/${scope}`, () =>
      this.conn.transaction(async (client) => {
        await client.query(`SET LOCAL lock_timeout = ${PLANNER_LOCK_TIMEOUT_MS}`);
        return work(client);
      }),
    );
  }

  async listCommands(scope: CommandScope): Promise<Frozen<StoredCommand[]>> {
    const key = `${scope.applicationId}/${scopeKey(scope)}`;
    const held = this.commandLists.lookup(key);
    const { version, rows } = await this.versionedRows(scope, held?.version);
    if (held?.version === version) return held.value;
    const bytes = approximateBytes(rows.reduce((sum, r) => sum + r.definition.length, 0));
    return this.commandLists.remember(key, version, deepFreeze(rows.map(rowToCommand)), bytes);
  }

  /**
   * The answer's bytes, held with the scope's version they were rendered at: a hit costs the one
   * short version query; a miss renders the rows of that same query, parsed for this render alone.
   */
  async listCommandsRendered(scope: CommandScope, view: string, render: ListRenderer): Promise<Buffer> {
    const key = `${scope.applicationId}/${scopeKey(scope)}/${view}`;
    const held = this.listBytes.lookup(key);
    const { version, rows } = await this.versionedRows(scope, held?.version);
    if (held?.version === version) return held.value;
    const bytes = render(rows.map(rowToCommand));
    return this.listBytes.remember(key, version, bytes, ENTRY_OVERHEAD_BYTES + bytes.length);
  }

  /** The scope's version, and its rows unless `heldVersion` is that version (then none). */
  private async versionedRows(
    scope: CommandScope,
    heldVersion: string | undefined,
  ): Promise<{ version: string; rows: CommandRow[] }> {
    // A copy held: its version is checked with this turn's other checks; the rows only if it moved.
    if (heldVersion !== undefined) {
      const version = await this.commandVersions.versionOf(scope.applicationId, scopeKey(scope));
      if (version === heldVersion) return { version, rows: [] };
    }
    const result = await this.conn.pool.query<{ list_version: string } & Nullable<CommandRow>>({
      ...VERSIONED_COMMANDS,
      values: [scope.applicationId, scopeKey(scope), heldVersion ?? NO_VERSION],
    });
    const rows = result.rows.filter((r): r is typeof r & CommandRow => r.id !== null);
    return { version: result.rows[0]!.list_version, rows };
  }

  private async readCommands(db: Queryable, scope: CommandScope): Promise<StoredCommand[]> {
    const result = await db.query<CommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM commands WHERE application_id = $1 AND guild_key = $2 ORDER BY length(id), id`,
      [scope.applicationId, scopeKey(scope)],
    );
    return result.rows.map(rowToCommand);
  }

  async getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null> {
    return this.readCommand(this.conn.pool, scope, commandId);
  }

  private async readCommand(db: Queryable, scope: CommandScope, commandId: string): Promise<StoredCommand | null> {
    const result = await db.query<CommandRow>(
      `SELECT ${COMMAND_COLUMNS} FROM commands WHERE application_id = $1 AND guild_key = $2 AND id = $3`,
      [scope.applicationId, scopeKey(scope), commandId],
    );
    const row = result.rows[0];
    return row ? rowToCommand(row) : null;
  }

  async countCreatesToday(scope: CommandScope): Promise<number> {
    const counted = await this.conn.pool.query<{ count: number }>(
      'SELECT count FROM command_creates WHERE application_id = $1 AND guild_key = $2 AND day = $3',
      [scope.applicationId, scopeKey(scope), utcDay(this.conn.now())],
    );
    return counted.rows[0]?.count ?? 0;
  }

  async resetCreatesToday(applicationId: string): Promise<void> {
    await this.conn.pool.query('DELETE FROM command_creates WHERE application_id = $1 AND day = $2', [
      applicationId,
      utcDay(this.conn.now()),
    ]);
  }

  async mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R> {
    const key = scopeKey(scope);
    const app = scope.applicationId;
    const day = utcDay(this.conn.now());
    return this.plannerTransaction(app, scope.guildId ?? GLOBAL_LOCK_KEY, async (client) => {
      // The locks first: what is read below still holds when the planner's answer is written.
      await this.conn.lockApplication(client, app, 'shared');
      await this.conn.lockScope(client, app, scope.guildId ?? GLOBAL_LOCK_KEY);
      const counted = await client.query<{ count: number }>(
        'SELECT count FROM command_creates WHERE application_id = $1 AND guild_key = $2 AND day = $3',
        [app, key, day],
      );
      const before = deepFreeze(await this.readCommands(client, scope));
      const { mutation, result } = planner({ commands: before, createsToday: counted.rows[0]?.count ?? 0 });

      if (mutation.delete.length > 0) {
        await client.query('DELETE FROM commands WHERE application_id = $1 AND id = ANY($2::text[])', [
          app,
          mutation.delete,
        ]);
      }
      // Updates go first to a placeholder name, so that swapping two names in one bulk overwrite
      // does not trip the unique key halfway through.
      if (mutation.update.length > 0) {
        await client.query(
          'UPDATE commands SET name = chr(1) || id WHERE application_id = $1 AND id = ANY($2::text[])',
          [app, mutation.update.map((c) => c.id)],
        );
      }
      for (const c of mutation.update) {
        await client.query(
          'UPDATE commands SET type = $1, name = $2, version = $3, definition = $4 WHERE application_id = $5 AND id = $6',
          [c.definition.type, c.definition.name, c.version, JSON.stringify(c.definition), app, c.id],
        );
      }
      for (const c of mutation.insert) {
        await client.query(
          `INSERT INTO commands (application_id, guild_key, id, type, name, version, definition)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [app, key, c.id, c.definition.type, c.definition.name, c.version, JSON.stringify(c.definition)],
        );
      }
      if (mutation.dropPermissionsOf.length > 0) {
        await client.query(
          'DELETE FROM command_permissions WHERE application_id = $1 AND target_id = ANY($2::text[])',
          [app, mutation.dropPermissionsOf],
        );
      }
      if (mutation.countedCreates > 0) {
        await client.query(
          `INSERT INTO command_creates (application_id, guild_key, day, count) VALUES ($1, $2, $3, $4)
           ON CONFLICT (application_id, guild_key, day) DO UPDATE SET count = command_creates.count + excluded.count`,
          [app, key, day, mutation.countedCreates],
        );
      }
      return result;
    });
  }

  async listCommandPermissions(applicationId: string, guildId: string): Promise<Frozen<GuildCommandPermissions[]>> {
    const key = `${applicationId}/${guildId}`;
    const held = this.permissionsLists.lookup(key);
    if (held !== undefined && (await this.permissionVersions.versionOf(applicationId, guildId)) === held.version) {
      return held.value;
    }
    const result = await this.conn.pool.query<{ list_version: string; target_id: string | null; permissions: string }>({
      ...VERSIONED_PERMISSIONS,
      values: [applicationId, guildId, held?.version ?? NO_VERSION],
    });
    const version = result.rows[0]!.list_version;
    if (held?.version === version) return held.value;
    const list: GuildCommandPermissions[] = [];
    let jsonLength = 0;
    for (const r of result.rows) {
      if (r.target_id === null) continue;
      list.push(rowToPermissions(applicationId, guildId, r.target_id, r.permissions));
      jsonLength += r.target_id.length + r.permissions.length;
    }
    return this.permissionsLists.remember(key, version, deepFreeze(list), approximateBytes(jsonLength));
  }

  private async readCommandPermissions(
    db: Queryable,
    applicationId: string,
    guildId: string,
  ): Promise<GuildCommandPermissions[]> {
    const result = await db.query<{ target_id: string; permissions: string }>(
      `SELECT target_id, permissions FROM command_permissions
       WHERE application_id = $1 AND guild_id = $2 ORDER BY length(target_id), target_id`,
      [applicationId, guildId],
    );
    return result.rows.map((r) => rowToPermissions(applicationId, guildId, r.target_id, r.permissions));
  }

  async getCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): Promise<GuildCommandPermissions | null> {
    const result = await this.conn.pool.query<{ permissions: string }>(
      'SELECT permissions FROM command_permissions WHERE application_id = $1 AND guild_id = $2 AND target_id = $3',
      [applicationId, guildId, targetId],
    );
    const row = result.rows[0];
    return row ? rowToPermissions(applicationId, guildId, targetId, row.permissions) : null;
  }

  async mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions> {
    // Queued under the global scope, then the guild's: the order every planner takes the locks in.
    return this.scopeQueue.run(`${applicationId}/${GLOBAL_LOCK_KEY}`, () =>
      this.plannerTransaction(applicationId, guildId, async (client) => {
        // The target may be a global command or one of this guild: both scopes are locked, global
        // first (the one order every transaction takes them in), so neither can delete it meanwhile.
        await this.conn.lockApplication(client, applicationId, 'shared');
        await this.conn.lockScope(client, applicationId, GLOBAL_LOCK_KEY);
        await this.conn.lockScope(client, applicationId, guildId);
        const command =
          (await this.readCommand(client, { applicationId, guildId: null }, targetId)) ??
          (await this.readCommand(client, { applicationId, guildId }, targetId));
        const permissions = planner({
          permissions: await this.readCommandPermissions(client, applicationId, guildId),
          command,
        });
        await client.query(
          `INSERT INTO command_permissions (application_id, guild_id, target_id, permissions) VALUES ($1, $2, $3, $4)
         ON CONFLICT (application_id, guild_id, target_id) DO UPDATE SET permissions = excluded.permissions`,
          [applicationId, guildId, targetId, JSON.stringify(permissions)],
        );
        return { id: targetId, application_id: applicationId, guild_id: guildId, permissions };
      }),
    );
  }
}
