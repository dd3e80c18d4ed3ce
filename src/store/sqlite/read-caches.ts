/**
 * Parsed, frozen results of the reads every request makes (applications, users, guilds, command
 * lists, permissions objects), and the bytes of list answers, in one least-recently-used cache bounded by bytes (the
 * `cacheBytes` setting). A write drops exactly the entries of what it changed (by tag: a user, an
 * application, a guild, an app's commands), never a whole table. A write by any other connection
 * to the same file (another process) moves SQLite's `data_version`, and then everything is
 * dropped, as this connection cannot tell what the other one changed.
 */
import { ByteLru } from '../../core/byte-lru.js';
import type { Frozen } from '../../core/frozen-memo.js';
import type { StoredCommand } from '../../core/commands/model.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { Guild, User } from '../../core/world/types.js';
import type { InteractionStatus, StoredApplication } from '../store.js';

/** Cached values are shared between requests: frozen, and typed `Frozen` so no caller mutates one. */
export { deepFreeze } from '../../core/frozen-memo.js';

/** The read caches' byte budget when the config names none: 96 MiB (see DEFAULT_CACHE_BUDGET_BYTES). */
export const DEFAULT_CACHE_BYTES = 96 * 1024 * 1024;

/** The tags an entry is dropped by. */
export const cacheTag = {
  user: (id: string) => `user:${id}`,
  application: (id: string) => `application:${id}`,
  guild: (id: string) => `guild:${id}`,
  /** One member of a guild (and every guild read that holds it, or holds that it is absent). */
  member: (guildId: string, userId: string) => `member:${guildId}/${userId}`,
  /** A guild read with its whole member list: any member's write changes it. */
  allMembersOf: (guildId: string) => `all-members-of:${guildId}`,
  commandsOf: (applicationId: string) => `commands-of:${applicationId}`,
  /** One scope of an app's commands (global: the empty guild key), for what a write of that scope alone changes. */
  commandsIn: (applicationId: string, guildKey: string) => `commands-in:${applicationId}/${guildKey}`,
  permissionsOf: (applicationId: string) => `permissions-of:${applicationId}`,
};

/**
 * One kind of cached value, its keys under their own prefix of the shared cache, counting its own
 * lookups (the shared cache counts all of them).
 */
export class CacheSection<V> {
  hits = 0;
  misses = 0;

  constructor(
    private readonly lru: ByteLru<unknown>,
    private readonly prefix: string,
  ) {}

  get(key: string): V | undefined {
    const value = this.lru.get(this.prefix + key) as V | undefined;
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }

  set(key: string, value: V, bytes: number, tags: readonly string[]): void {
    this.lru.set(this.prefix + key, value, bytes, tags);
  }

  delete(key: string): void {
    this.lru.delete(this.prefix + key);
  }
}

export class ReadCaches {
  readonly lru: ByteLru<unknown>;
  /** By bot-token digest, with the digest stored beside it for the constant-time check. */
  readonly applicationsByToken: CacheSection<{ app: StoredApplication; digest: string }>;
  readonly applicationsById: CacheSection<StoredApplication>;
  /** By user-token digest. */
  readonly usersByToken: CacheSection<User>;
  readonly usersById: CacheSection<User>;
  /** A guild with all its members, by guild id. */
  readonly guilds: CacheSection<Guild>;
  /** A guild's document without its members (they are rows of their own), by guild id. */
  readonly guildDocuments: CacheSection<Guild>;
  /** A guild with only some members, by `${guildId}/${userIds joined by ','}`. */
  readonly guildsWithMembers: CacheSection<Guild>;
  /** By `${applicationId}/${guildId or ''}`. */
  readonly commands: CacheSection<Frozen<StoredCommand[]>>;
  /** A list GET's answer, by `${applicationId}/${guildId or ''}/${view}`: the bytes, no command objects. */
  readonly listBytes: CacheSection<Buffer>;
  /** By `${applicationId}/${guildId}`. */
  readonly permissions: CacheSection<Frozen<GuildCommandPermissions[]>>;
  /**
   * What an interaction's user polls (GET /interactions/{id}), by interaction id, as this
   * connection last wrote or read it; tagged with its application, which takes it when deleted.
   */
  readonly interactionStatuses: CacheSection<InteractionStatus>;
  /**
   * The guild a channel (or a stored thread) belongs to, by channel id; tagged with the guild, whose
   * writes (a channel deleted, a thread's rows) take it. Only found channels are kept.
   */
  readonly channelGuilds: CacheSection<string>;
  private dataVersion: number | null = null;

  constructor(capBytes = DEFAULT_CACHE_BYTES) {
    this.lru = new ByteLru<unknown>(capBytes);
    this.applicationsByToken = new CacheSection(this.lru, 'app-token:');
    this.applicationsById = new CacheSection(this.lru, 'app:');
    this.usersByToken = new CacheSection(this.lru, 'user-token:');
    this.usersById = new CacheSection(this.lru, 'user:');
    this.guilds = new CacheSection(this.lru, 'guild:');
    this.guildDocuments = new CacheSection(this.lru, 'guild-doc:');
    this.guildsWithMembers = new CacheSection(this.lru, 'guild-with:');
    this.commands = new CacheSection(this.lru, 'commands:');
    this.listBytes = new CacheSection(this.lru, 'list-bytes:');
    this.permissions = new CacheSection(this.lru, 'permissions:');
    this.interactionStatuses = new CacheSection(this.lru, 'interaction-status:');
    this.channelGuilds = new CacheSection(this.lru, 'channel-guild:');
  }

  /** Drops everything if another connection has committed since the last look. */
  checkDataVersion(current: number): void {
    if (current !== this.dataVersion) {
      this.clear();
      this.dataVersion = current;
    }
  }

  clear(): void {
    this.lru.clear();
  }

  /** The user, by id and by token (a new token must not leave the old one finding it). */
  forgetUser(id: string): void {
    this.lru.deleteTagged(cacheTag.user(id));
  }

  forgetApplication(id: string): void {
    this.lru.deleteTagged(cacheTag.application(id));
  }

  /** The application's command lists and permissions objects, in every scope. */
  forgetCommandsOf(applicationId: string): void {
    this.lru.deleteTagged(cacheTag.commandsOf(applicationId));
  }

  /** What is derived from one scope's commands (its rendered lists); the scope's object list is replaced by the writer. */
  forgetCommandsIn(applicationId: string, guildKey: string): void {
    this.lru.deleteTagged(cacheTag.commandsIn(applicationId, guildKey));
  }

  forgetPermissionsOf(applicationId: string): void {
    this.lru.deleteTagged(cacheTag.permissionsOf(applicationId));
  }

  /** The guild, and every app's permissions objects in it. */
  forgetGuild(guildId: string): void {
    this.lru.deleteTagged(cacheTag.guild(guildId));
  }

  /** The reads that hold this member (or its absence): the guild's document and other members stay. */
  forgetMember(guildId: string, userId: string): void {
    this.lru.deleteTagged(cacheTag.member(guildId, userId));
    this.lru.deleteTagged(cacheTag.allMembersOf(guildId));
  }
}
