/**
 * The one storage interface. SQLite implements it now and PostgreSQL next, so it speaks only in
 * domain shapes, every command query is keyed by application id, and every multi-row change is
 * one atomic call.
 */
import type { CommandScope, StoredCommand } from '../core/commands/model.js';
import type { CommandPlanner } from '../core/commands/mutation.js';
import type { CommandPermission, GuildCommandPermissions } from '../core/permissions/command-permissions.js';
import type { InteractionRecord, InteractionState } from '../core/interactions/lifecycle.js';
import type { StoredMessage } from '../core/interactions/messages.js';
import type { Application, Guild, OAuth2Token, User, World } from '../core/world/types.js';

export type { CommandMutation, CommandPlanner, ScopeState } from '../core/commands/mutation.js';

/** Keys generated for an application's signed interaction delivery. */
export interface ApplicationKeys {
  /** Hex-encoded Ed25519 public key (the application's `verify_key`). */
  verifyKey: string;
  /** PKCS#8 PEM of the private key; never leaves the server. */
  privateKeyPem: string;
}

export interface StoredApplication extends Application {
  keys: ApplicationKeys;
}

export interface IssuedToken extends OAuth2Token {
  /** Epoch ms after which the token is refused; null for pre-issued tokens. */
  expires_at: number | null;
}

export interface Store {
  // The world.
  replaceWorld(world: World): Promise<void>;
  mergeWorld(world: World): Promise<void>;
  exportWorld(): Promise<World>;
  putApplication(app: Application): Promise<StoredApplication>;
  deleteApplication(id: string): Promise<boolean>;
  getApplication(id: string): Promise<StoredApplication | null>;
  findApplicationByBotToken(token: string): Promise<StoredApplication | null>;
  listApplications(): Promise<StoredApplication[]>;
  putUser(user: User): Promise<void>;
  deleteUser(id: string): Promise<boolean>;
  getUser(id: string): Promise<User | null>;
  findUserByToken(token: string): Promise<User | null>;
  listUsers(): Promise<User[]>;
  putGuild(guild: Guild): Promise<void>;
  deleteGuild(id: string): Promise<boolean>;
  getGuild(id: string): Promise<Guild | null>;
  /** The guild a channel (or thread) belongs to. */
  findGuildByChannel(channelId: string): Promise<Guild | null>;
  listGuilds(): Promise<Guild[]>;
  putOAuth2Token(token: IssuedToken): Promise<void>;
  deleteOAuth2Token(accessToken: string): Promise<boolean>;
  findOAuth2Token(accessToken: string): Promise<IssuedToken | null>;
  listOAuth2Tokens(): Promise<IssuedToken[]>;

  // Commands, always of one application.
  listCommands(scope: CommandScope): Promise<StoredCommand[]>;
  getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null>;
  /** Runs the planner on the scope's state and applies its mutation, atomically. */
  mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R>;

  // Command permissions of one application in one guild.
  listCommandPermissions(applicationId: string, guildId: string): Promise<GuildCommandPermissions[]>;
  getCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): Promise<GuildCommandPermissions | null>;
  /**
   * Replaces the overwrites of one command (or of the app: targetId = app id) in one guild. The
   * planner decides over the state read inside the same transaction (it may throw to refuse), so
   * a command deleted meanwhile cannot keep overwrites.
   */
  mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions>;

  // Interactions, keyed by application id.
  putInteraction(record: InteractionRecord): Promise<void>;
  getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null>;
  /** Just the stored state: what `POST /interactions` reports after delivery. */
  getInteractionState(applicationId: string, id: string): Promise<InteractionState | null>;
  /** The interaction as its invoking user asks for it. */
  findUserInteraction(userId: string, id: string): Promise<InteractionRecord | null>;
  /**
   * Applies `patch` only while the stored state is one of `from` (a compare-and-set, so that two
   * racing acknowledgements cannot both win); false when the state had moved on.
   */
  updateInteraction(
    applicationId: string,
    id: string,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    /** Written in the same transaction, only when the update applies (the answer's message). */
    message?: StoredMessage,
  ): Promise<boolean>;

  // Messages slashd itself holds (interaction responses, follow-ups, launch notices).
  /** A new message; its id must be new (no upsert, so that an id collision cannot overwrite). */
  putMessage(message: StoredMessage): Promise<void>;
  /** Rewrites an existing message of the same id; false when it no longer exists. */
  editMessage(message: StoredMessage): Promise<boolean>;
  getMessage(channelId: string, id: string): Promise<StoredMessage | null>;
  /**
   * Newest first: the channel's messages that `viewerId` may see (ephemeral ones only their own),
   * with ids inside `range`; with `after` alone, the oldest `limit` after it.
   */
  listChannelMessages(
    channelId: string,
    viewerId: string,
    limit: number,
    range?: { before?: string; after?: string },
  ): Promise<StoredMessage[]>;
  deleteMessage(channelId: string, id: string): Promise<boolean>;
  putActivityInstance(instance: ActivityInstance): Promise<void>;
  listActivityInstances(applicationId: string): Promise<ActivityInstance[]>;

  // Snowflake node ids (0..1023), leased so that two processes on one database never share one.
  /** Takes the preferred node id, or another free one, in one transaction; null when all are held. */
  acquireNodeLease(request: NodeLeaseRequest): Promise<number | null>;
  /** Extends a lease this holder still has; false when it has expired (another may hold it now). */
  renewNodeLease(nodeId: number, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the id back; it rests for `restMs` so that its next holder's ids start later. */
  releaseNodeLease(nodeId: number, holder: string, restMs: number): Promise<void>;

  /** The cheapest query the store can answer; rejects when the store cannot serve (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface NodeLeaseRequest {
  /** A random value naming this process; renewals and the release must present it. */
  holder: string;
  /** Tried first (e.g. derived from the pid); any free id will do. */
  preferred: number;
  ttlMs: number;
}

/** What a permissions planner sees, read inside the transaction that applies its plan. */
export interface PermissionsState {
  /** Every permissions object of the app in the guild. */
  permissions: GuildCommandPermissions[];
  /** The command the target id names (global, or of this guild); null when it names none. */
  command: StoredCommand | null;
}

export type PermissionsPlanner = (state: PermissionsState) => CommandPermission[];

/** A launched Activity (entry point commands). */
export interface ActivityInstance {
  id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  user_id: string;
  interaction_id: string;
  created_at: number;
}
