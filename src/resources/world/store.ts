/**
 * The world: applications (with their signing keys), users, guilds and OAuth2 tokens, and the
 * world document as a whole. Deleting an application also deletes every row it owns in the other
 * stores (commands, permissions, interactions, tokens, activities), in the same transaction.
 */
import type { Application, Guild, OAuth2Token, User, World } from '../../core/world/types.js';
import type { WorldChange, WorldCounts } from '../../core/world/world-change.js';
import type { StoreMetaRecord } from '../../store/rows.js';

/**
 * A write gave a user or an application a token another one already has: the database refuses
 * it (a unique index), so two nodes checking at once cannot both store the same token.
 */
export class DuplicateTokenError extends Error {
  constructor(readonly holder: 'user' | 'application') {
    super(`another ${holder} has this token already`);
    this.name = 'DuplicateTokenError';
  }
}

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
  /** The authorization grant it was issued from (a code and its refreshes); absent otherwise. */
  grant_id?: string;
}

export interface WorldStore {
  /** The world becomes exactly `world`; applications it leaves out go with all they owned. Commands of kept apps stay. */
  replaceWorld(world: World): Promise<void>;
  /** Adds or overwrites what `world` names, keeping the rest. */
  mergeWorld(world: World): Promise<void>;
  /** The world as a document: no signing keys, only the pre-issued (non-expiring) tokens. */
  exportWorld(): Promise<World>;
  /**
   * Writes a change in one transaction: the removals (an application with all it owned, a guild
   * with its members, bans and command permissions; a token by its access token), then the objects
   * put, which may hand tokens to one another (a swap is no duplicate). With `record`, writes that
   * `store_meta` row in the same transaction (the digest of the world file or seed now applied).
   */
  applyWorldChange(change: WorldChange, record?: StoreMetaRecord): Promise<void>;
  /**
   * The world file digest `applyWorldChange` recorded last; null once anything else wrote an
   * application, a user, a guild, a member or a pre-issued token since (the world may no longer be
   * the file's).
   */
  worldFileDigest(): Promise<string | null>;
  /** The seed world digest recorded last (kept whatever is written after: the seed was applied once). */
  seedWorldDigest(): Promise<string | null>;
  /** How many objects each list of `exportWorld` would hold, without reading them. */
  countWorld(): Promise<WorldCounts>;

  /**
   * Upserts; an existing application keeps its keys (a bot keeps verifying with the key it has).
   * Rejects with DuplicateTokenError when another application has the bot token.
   */
  putApplication(app: Application): Promise<StoredApplication>;
  deleteApplication(id: string): Promise<boolean>;
  getApplication(id: string): Promise<StoredApplication | null>;
  /** Looked up by digest and compared in constant time. */
  findApplicationByBotToken(token: string): Promise<StoredApplication | null>;
  listApplications(): Promise<StoredApplication[]>;

  /** Upserts; rejects with DuplicateTokenError when another user has the token. */
  putUser(user: User): Promise<void>;
  deleteUser(id: string): Promise<boolean>;
  getUser(id: string): Promise<User | null>;
  /** The users of these ids that exist, each once, in the order of `ids` (one query, not one per id). */
  getUsers(ids: readonly string[]): Promise<User[]>;
  findUserByToken(token: string): Promise<User | null>;
  listUsers(): Promise<User[]>;

  /** The guild's document and its members (whose rows become exactly `guild.members`), in one transaction. */
  putGuild(guild: Guild): Promise<void>;
  /** Also drops the guild's command permissions, of every application. */
  deleteGuild(id: string): Promise<boolean>;
  /** The guild with every member: reads all its member rows (getGuildWithMembers reads those named). */
  getGuild(id: string): Promise<Guild | null>;
  /** The guild a channel (or thread) belongs to. */
  findGuildByChannel(channelId: string): Promise<Guild | null>;
  listGuilds(): Promise<Guild[]>;
  /**
   * The guilds the application's bot is in (an install with the `bot` scope), by id as
   * `listGuilds` orders them, each with every member; filtered by the database, each guild read once.
   */
  guildsOfApplication(applicationId: string): Promise<Guild[]>;

  putOAuth2Token(token: IssuedToken): Promise<void>;
  deleteOAuth2Token(accessToken: string): Promise<boolean>;
  /** Null once expired (by the store's clock) or when the secret does not match exactly. */
  findOAuth2Token(accessToken: string): Promise<IssuedToken | null>;
  listOAuth2Tokens(): Promise<IssuedToken[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Applications, users, guilds and OAuth2 tokens, and the world document as a whole. */
    readonly world: WorldStore;
  }
}
