/**
 * A guild's audit log: one row per entry, by guild and entry id. An action that writes through the
 * member or structure store (a ban, a member's edit or removal, a role or channel change) writes
 * its entry in its own transaction; any other action appends its entry here, after it. Entries
 * older than v10's 45 days go as new ones come.
 */
import type { AuditEntry, AuditLogQuery } from './rules.js';

export interface AuditLogStore {
  /**
   * Writes the entry, and drops the guild's entries older than 45 days before its id's time. False
   * (nothing written) when the guild does not exist.
   */
  appendAuditEntry(entry: AuditEntry): Promise<boolean>;
  /**
   * The guild's entries matching the query (who acted, the action): without `after`, the newest
   * `limit` before `before` (newest first); with `after`, the oldest `limit` after it (oldest
   * first), below `before` when both are given.
   */
  listAuditEntries(guildId: string, query: AuditLogQuery): Promise<AuditEntry[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Guilds' audit logs (entries of actions written through `members` and `guildStructure` are written in their transactions). */
    readonly auditLog: AuditLogStore;
  }
}
