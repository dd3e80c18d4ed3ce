/**
 * The embedded store: better-sqlite3 in WAL mode on one file. It is the Store interface over three
 * table modules that share one connection (and so one transaction at a time).
 */
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { InteractionRecord, InteractionState } from '../../core/interactions/lifecycle.js';
import type { StoredMessage } from '../../core/interactions/messages.js';
import type { Application, Guild, User, World } from '../../core/world/types.js';
import type {
  ActivityInstance,
  CommandPlanner,
  IssuedToken,
  NodeLeaseRequest,
  PermissionsPlanner,
  Store,
  StoredApplication,
} from '../store.js';
import { CommandTables } from './command-tables.js';
import { SqliteConnection } from './connection.js';
import { InteractionTables } from './interaction-tables.js';
import { LeaseTables } from './lease-tables.js';
import { WorldTables } from './world-tables.js';

export interface SqliteStoreOptions {
  /** A file path, or ':memory:'. */
  path: string;
  now?: () => number;
  /** How long plain reads may trust the caches after another process commits, in ms (default 1). */
  readStalenessMs?: number;
}

export class SqliteStore implements Store {
  private readonly conn: SqliteConnection;
  private readonly world: WorldTables;
  private readonly commands: CommandTables;
  private readonly interactions: InteractionTables;
  private readonly leases: LeaseTables;

  constructor(options: SqliteStoreOptions) {
    this.conn = new SqliteConnection(options.path, options.now ?? Date.now, options.readStalenessMs);
    this.world = new WorldTables(this.conn);
    this.commands = new CommandTables(this.conn);
    this.interactions = new InteractionTables(this.conn);
    this.leases = new LeaseTables(this.conn);
  }

  schemaVersion(): number {
    return this.conn.schemaVersion();
  }

  // ---- world -----------------------------------------------------------------------------------
  replaceWorld(world: World): Promise<void> {
    return this.world.replaceWorld(world);
  }

  mergeWorld(world: World): Promise<void> {
    return this.world.mergeWorld(world);
  }

  exportWorld(): Promise<World> {
    return this.world.exportWorld();
  }

  putApplication(app: Application): Promise<StoredApplication> {
    return this.world.putApplication(app);
  }

  deleteApplication(id: string): Promise<boolean> {
    return this.world.deleteApplication(id);
  }

  getApplication(id: string): Promise<StoredApplication | null> {
    return this.world.getApplication(id);
  }

  findApplicationByBotToken(token: string): Promise<StoredApplication | null> {
    return this.world.findApplicationByBotToken(token);
  }

  listApplications(): Promise<StoredApplication[]> {
    return this.world.listApplications();
  }

  putUser(user: User): Promise<void> {
    return this.world.putUser(user);
  }

  deleteUser(id: string): Promise<boolean> {
    return this.world.deleteUser(id);
  }

  getUser(id: string): Promise<User | null> {
    return this.world.getUser(id);
  }

  findUserByToken(token: string): Promise<User | null> {
    return this.world.findUserByToken(token);
  }

  listUsers(): Promise<User[]> {
    return this.world.listUsers();
  }

  putGuild(guild: Guild): Promise<void> {
    return this.world.putGuild(guild);
  }

  findGuildByChannel(channelId: string): Promise<Guild | null> {
    return this.world.findGuildByChannel(channelId);
  }

  deleteGuild(id: string): Promise<boolean> {
    return this.world.deleteGuild(id);
  }

  getGuild(id: string): Promise<Guild | null> {
    return this.world.getGuild(id);
  }

  listGuilds(): Promise<Guild[]> {
    return this.world.listGuilds();
  }

  putOAuth2Token(token: IssuedToken): Promise<void> {
    return this.world.putOAuth2Token(token);
  }

  deleteOAuth2Token(accessToken: string): Promise<boolean> {
    return this.world.deleteOAuth2Token(accessToken);
  }

  findOAuth2Token(accessToken: string): Promise<IssuedToken | null> {
    return this.world.findOAuth2Token(accessToken);
  }

  listOAuth2Tokens(): Promise<IssuedToken[]> {
    return this.world.listOAuth2Tokens();
  }

  // ---- commands --------------------------------------------------------------------------------
  listCommands(scope: CommandScope): Promise<StoredCommand[]> {
    return this.commands.listCommands(scope);
  }

  getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null> {
    return this.commands.getCommand(scope, commandId);
  }

  mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R> {
    return this.commands.mutateCommands(scope, planner);
  }

  listCommandPermissions(applicationId: string, guildId: string): Promise<GuildCommandPermissions[]> {
    return this.commands.listCommandPermissions(applicationId, guildId);
  }

  getCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): Promise<GuildCommandPermissions | null> {
    return this.commands.getCommandPermissions(applicationId, guildId, targetId);
  }

  mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions> {
    return this.commands.mutateCommandPermissions(applicationId, guildId, targetId, planner);
  }

  // ---- interactions ----------------------------------------------------------------------------
  putInteraction(record: InteractionRecord): Promise<void> {
    return this.interactions.putInteraction(record);
  }

  getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null> {
    return this.interactions.getInteraction(applicationId, id);
  }

  getInteractionState(applicationId: string, id: string): Promise<InteractionState | null> {
    return this.interactions.getInteractionState(applicationId, id);
  }

  findUserInteraction(userId: string, id: string): Promise<InteractionRecord | null> {
    return this.interactions.findUserInteraction(userId, id);
  }

  updateInteraction(
    applicationId: string,
    id: string,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    message?: StoredMessage,
  ): Promise<boolean> {
    return this.interactions.updateInteraction(applicationId, id, from, patch, message);
  }

  putMessage(message: StoredMessage): Promise<void> {
    return this.interactions.putMessage(message);
  }

  editMessage(message: StoredMessage): Promise<boolean> {
    return this.interactions.editMessage(message);
  }

  getMessage(channelId: string, id: string): Promise<StoredMessage | null> {
    return this.interactions.getMessage(channelId, id);
  }

  listChannelMessages(
    channelId: string,
    viewerId: string,
    limit: number,
    range?: { before?: string; after?: string },
  ): Promise<StoredMessage[]> {
    return this.interactions.listChannelMessages(channelId, viewerId, limit, range);
  }

  deleteMessage(channelId: string, id: string): Promise<boolean> {
    return this.interactions.deleteMessage(channelId, id);
  }

  putActivityInstance(instance: ActivityInstance): Promise<void> {
    return this.interactions.putActivityInstance(instance);
  }

  listActivityInstances(applicationId: string): Promise<ActivityInstance[]> {
    return this.interactions.listActivityInstances(applicationId);
  }

  // ---- node leases -----------------------------------------------------------------------------
  acquireNodeLease(request: NodeLeaseRequest): Promise<number | null> {
    return this.leases.acquireNodeLease(request);
  }

  renewNodeLease(nodeId: number, holder: string, ttlMs: number): Promise<boolean> {
    return this.leases.renewNodeLease(nodeId, holder, ttlMs);
  }

  releaseNodeLease(nodeId: number, holder: string, restMs: number): Promise<void> {
    return this.leases.releaseNodeLease(nodeId, holder, restMs);
  }

  async ping(): Promise<void> {
    this.conn.ping();
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
