/**
 * Guilds' audit logs: entries of what bots (and users) did, each carrying its reason, told to the
 * bots that may read the log (GUILD_AUDIT_LOG_ENTRY_CREATE under GUILD_MODERATION, VIEW_AUDIT_LOG),
 * and read back by `GET /guilds/{id}/audit-logs`.
 *
 * Two ways to write one:
 * - an action a store writes (a ban, a member's edit or removal) takes `entry(...)`, hands it
 *   to the store's write (one transaction with the action), then `announce(entry)` once it committed;
 * - any other action calls `record(...)` after its own write.
 */
import type { APIUser } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import type { Issue } from '../../core/io/issue.js';
import {
  auditEntryDispatchData,
  readAuditLogQuery,
  toWireAuditLog,
  usersNamed,
  type AuditEntry,
  type AuditEntryInput,
} from './rules.js';
import { hasAll, VIEW_AUDIT_LOG } from '../../core/permissions/bits.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { botInGuild } from '../../core/world/guild-members.js';
import { appBasePermissions } from '../../core/world/v10-objects.js';
import type { AuditLogStore, GuildMemberStore, WorldStore } from '../../store/store.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import type { WorldEvents } from '../../events/world-events.js';

export interface AuditLogParts {
  store: AuditLogStore;
  world: Pick<WorldStore, 'getUser' | 'getApplication'>;
  members: Pick<GuildMemberStore, 'getGuildWithMembers'>;
  ids: SnowflakeGenerator;
  events: WorldEvents;
}

/** The query parameters of the read, as the route hands them on. */
export type AuditLogQueryText = Parameters<typeof readAuditLogQuery>[0];

export class AuditLog {
  constructor(private readonly parts: AuditLogParts) {}

  /** The entry of an action about to be written: its id is taken now, its reason kept when given. */
  entry({ reason, ...input }: AuditEntryInput): AuditEntry {
    const entry: AuditEntry = { id: this.parts.ids.next(), ...input };
    if (reason !== null) entry.reason = reason;
    return entry;
  }

  /** Tells the guild's bots of an entry written (in its action's transaction). */
  announce(entry: AuditEntry): void {
    this.parts.events.publishAll([
      guildDispatch('GUILD_AUDIT_LOG_ENTRY_CREATE', entry.guild_id, null, auditEntryDispatchData(entry)),
    ]);
  }

  /** Writes the entry of an action already written, and tells the bots; null when the guild is gone. */
  async record(input: AuditEntryInput): Promise<AuditEntry | null> {
    const entry = this.entry(input);
    if (!(await this.parts.store.appendAuditEntry(entry))) return null;
    this.announce(entry);
    return entry;
  }

  /** `GET /guilds/{id}/audit-logs` for the app's bot: it must be in the guild and have VIEW_AUDIT_LOG. */
  async read(applicationId: string, guildId: string, queryText: AuditLogQueryText) {
    const issues: Issue[] = [];
    const query = readAuditLogQuery(queryText, issues);
    if (issues.length > 0) throw invalidFormBody(issues);
    const guild = await this.parts.members.getGuildWithMembers(guildId, []);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    if (!hasAll(appBasePermissions(guild, applicationId), VIEW_AUDIT_LOG)) throw apiError('MissingPermissions');
    const entries = await this.parts.store.listAuditEntries(guild.id, query);
    const ids = [...new Set(entries.flatMap(usersNamed))];
    const users: APIUser[] = [];
    for (const id of ids) {
      const user = await wirePublicUserOrBot(this.parts.world, id);
      if (user) users.push(user);
    }
    return toWireAuditLog(entries, users);
  }
}
