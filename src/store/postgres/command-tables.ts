/**
 * The PostgreSQL CommandStore: commands, daily create counts and command permissions, every query
 * keyed by application id. Each planner runs in one transaction that first takes the advisory
 * lock of its scope, so concurrent planners of one scope (in any process) run one after the other.
 */
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import { deepFreeze, type Frozen } from '../../core/frozen-memo.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { CommandPlanner, CommandStore, PermissionsPlanner } from '../store.js';
import type { PostgresClient, PostgresConnection } from './connection.js';
import { rowToCommand, rowToPermissions, scopeKey, utcDay, type CommandRow } from '../rows.js';

/** The lock key of the global scope (no guild id is 0). */
const GLOBAL_LOCK_KEY = '0';

type Queryable = Pick<PostgresClient, 'query'>;

const COMMAND_COLUMNS = 'application_id, guild_key, id, version, definition';

export class PostgresCommandStore implements CommandStore {
  constructor(private readonly conn: PostgresConnection) {}

  async listCommands(scope: CommandScope): Promise<Frozen<StoredCommand[]>> {
    return deepFreeze(await this.readCommands(this.conn.pool, scope));
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

  async mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R> {
    const key = scopeKey(scope);
    const app = scope.applicationId;
    const day = utcDay(this.conn.now());
    return this.conn.transaction(async (client) => {
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
    return deepFreeze(await this.readCommandPermissions(this.conn.pool, applicationId, guildId));
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
    return this.conn.transaction(async (client) => {
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
    });
  }
}
