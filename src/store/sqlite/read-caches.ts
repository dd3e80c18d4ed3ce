/**
 * Parsed, frozen results of the reads every request makes (applications, users, guilds, command
 * lists, permissions objects). This store drops the entries its own writes touch; a write by any
 * other connection to the same file (another process) moves SQLite's `data_version`, and then
 * everything is dropped, so several processes on one file still read what is committed.
 */
import type { Frozen } from '../../core/frozen-memo.js';
import type { StoredCommand } from '../../core/commands/model.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { Guild, User } from '../../core/world/types.js';
import type { StoredApplication } from '../store.js';

/** Cached values are shared between requests: frozen, and typed `Frozen` so no caller mutates one. */
export { deepFreeze } from '../../core/frozen-memo.js';

export class ReadCaches {
  /** By bot-token digest, with the digest stored beside it for the constant-time check. */
  readonly applicationsByToken = new Map<string, { app: StoredApplication; digest: string }>();
  readonly applicationsById = new Map<string, StoredApplication>();
  /** By user-token digest. */
  readonly usersByToken = new Map<string, User>();
  /** Every user, and by id; null until first read. */
  users: { list: User[]; byId: Map<string, User> } | null = null;
  readonly guilds = new Map<string, Guild>();
  /** By `${applicationId}/${guildId or ''}`. */
  readonly commands = new Map<string, Frozen<StoredCommand[]>>();
  /** By `${applicationId}/${guildId}`. */
  readonly permissions = new Map<string, Frozen<GuildCommandPermissions[]>>();
  private dataVersion: number | null = null;

  /** Drops everything if another connection has committed since the last look. */
  checkDataVersion(current: number): void {
    if (current !== this.dataVersion) {
      this.clear();
      this.dataVersion = current;
    }
  }

  clear(): void {
    this.forgetApplications();
    this.forgetUsers();
    this.guilds.clear();
    this.commands.clear();
    this.permissions.clear();
  }

  forgetUsers(): void {
    this.usersByToken.clear();
    this.users = null;
  }

  forgetApplications(): void {
    this.applicationsByToken.clear();
    this.applicationsById.clear();
  }

  /** The application's command lists and permissions objects, in every scope. */
  forgetCommandsOf(applicationId: string): void {
    for (const cache of [this.commands, this.permissions]) {
      for (const key of cache.keys()) if (key.startsWith(`${applicationId}/`)) cache.delete(key);
    }
  }

  forgetPermissionsOf(applicationId: string): void {
    for (const key of this.permissions.keys()) if (key.startsWith(`${applicationId}/`)) this.permissions.delete(key);
  }

  forgetGuild(guildId: string): void {
    this.guilds.delete(guildId);
    for (const key of this.permissions.keys()) if (key.endsWith(`/${guildId}`)) this.permissions.delete(key);
  }
}
