/**
 * The audit log (v10 Audit Log resource): what an entry holds, what a read of the log asks for, and
 * the log as v10 answers it. Pure: the AuditLog service writes entries beside the actions they
 * record and reads them back.
 */
import {
  AuditLogEvent,
  type APIAuditLog,
  type APIAuditLogChange,
  type APIAuditLogEntry,
  type APIUser,
} from 'discord-api-types/v10';
import type { Issue } from '../../core/io/issue.js';
import { readIntegerParam, readSnowflakeParam, type IntegerParam } from '../../core/world/page-query.js';
import type { WirePayload } from '../../core/wire-payload.js';

export { AuditLogEvent };

/** How long an entry is kept, in milliseconds: 45 days, as v10 keeps them. */
export const AUDIT_LOG_RETENTION_MS = 45 * 24 * 60 * 60 * 1000;

/** `GET /guilds/{id}/audit-logs`: `limit` 1-100, default 50 (v10). */
export const AUDIT_LOG_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 100, fallback: 50 };

/** `action_type`: a v10 audit log event number (the largest known is below 256). */
const ACTION_TYPE: IntegerParam = { name: 'action_type', min: 1, max: 255, fallback: 0 };

/** One change an entry records: a field's value before and after (either absent when there was none). */
export type AuditChange = APIAuditLogChange;

/** An entry as stored: v10's entry object with the guild it belongs to. */
export interface AuditEntry {
  id: string;
  guild_id: string;
  /** Who acted: a user's id, or a bot's (its application id). */
  user_id: string | null;
  /** What the action was about (a user, a role, a channel...). */
  target_id: string | null;
  action_type: AuditLogEvent;
  changes?: AuditChange[];
  /** v10's optional entry info (for example `delete_member_days`), as strings. */
  options?: Record<string, string>;
  reason?: string;
}

/** An entry about to be written: everything but its id, which the log assigns. */
export type AuditEntryInput = Omit<AuditEntry, 'id' | 'reason'> & { reason: string | null };

/** What a read of the log asks for (v10's query parameters). */
export interface AuditLogQuery {
  userId: string | null;
  actionType: number | null;
  before: string | null;
  after: string | null;
  limit: number;
}

type Query = Partial<Record<'user_id' | 'action_type' | 'before' | 'after' | 'limit', unknown>>;

/** The query of `GET /guilds/{id}/audit-logs`, or the issues that make it a 50035. */
export function readAuditLogQuery(query: Query | undefined, issues: Issue[]): AuditLogQuery {
  const actionType =
    query?.action_type === undefined || query.action_type === ''
      ? null
      : readIntegerParam(query.action_type, ACTION_TYPE, issues);
  return {
    userId: readSnowflakeParam(query?.user_id, 'user_id', issues) ?? null,
    actionType,
    before: readSnowflakeParam(query?.before, 'before', issues) ?? null,
    after: readSnowflakeParam(query?.after, 'after', issues) ?? null,
    limit: readIntegerParam(query?.limit, AUDIT_LOG_LIMIT, issues),
  };
}

/** The entry as the log lists it: v10's entry object (its guild is the log's). */
export function toWireAuditEntry(entry: AuditEntry): WirePayload<APIAuditLogEntry> {
  const { guild_id: _guild, ...wire } = entry;
  return wire satisfies APIAuditLogEntry;
}

/** GUILD_AUDIT_LOG_ENTRY_CREATE's `d`: the entry with its `guild_id`. */
export function auditEntryDispatchData(entry: AuditEntry): Record<string, unknown> {
  return { ...entry };
}

/** The users an entry names (who acted, and the target when the action is about a user). */
export function usersNamed(entry: AuditEntry): string[] {
  const ids = entry.user_id === null ? [] : [entry.user_id];
  if (entry.target_id !== null && isUserAction(entry.action_type) && !ids.includes(entry.target_id)) {
    ids.push(entry.target_id);
  }
  return ids;
}

/** The actions whose target is a user (v10 lists the user in `users`). */
const USER_TARGET_ACTIONS: ReadonlySet<number> = new Set([
  AuditLogEvent.MemberKick,
  AuditLogEvent.MemberBanAdd,
  AuditLogEvent.MemberBanRemove,
  AuditLogEvent.MemberUpdate,
  AuditLogEvent.MemberRoleUpdate,
  AuditLogEvent.MemberDisconnect,
  AuditLogEvent.MemberMove,
  AuditLogEvent.BotAdd,
]);

function isUserAction(actionType: number): boolean {
  return USER_TARGET_ACTIONS.has(actionType);
}

/** The log as v10 answers it: the entries, the users they name, and the other lists (slashd has none). */
export function toWireAuditLog(entries: readonly AuditEntry[], users: readonly APIUser[]) {
  const log = {
    audit_log_entries: entries.map(toWireAuditEntry),
    users,
    application_commands: [],
    auto_moderation_rules: [],
    guild_scheduled_events: [],
    integrations: [],
    threads: [],
    webhooks: [],
  };
  return log satisfies Record<keyof APIAuditLog, unknown>;
}
