/**
 * Bans (v10 Guild Ban endpoints): what a ban request's body and query may hold, and who may ban
 * whom. Pure: the service reads the guild (with the members concerned) and writes the ban.
 */
import type { Refusal } from '../../core/refusals.js';
import { isRecord, readInteger, readList, readSnowflake, type JsonRecord } from '../../core/io/read.js';
import { reportAboveMax, reportBelowMin, reportNotObject, reportRequired, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { hasAll, BAN_MEMBERS, MANAGE_GUILD } from '../../core/permissions/bits.js';
import { UNLISTED_BOT_ROLE_POSITION } from '../../core/permissions/role-hierarchy.js';
import type { Guild } from '../../core/world/types.js';
import { botOutranks } from '../members/rules/member-rules.js';
import { appBasePermissions } from '../../core/world/v10-objects.js';
import type { IssuePath } from '../../core/io/issue.js';

/** The most history a ban may delete: 7 days, in seconds (v10). */
export const MAX_DELETE_MESSAGE_SECONDS = 604_800;
/** The most users one bulk ban names (v10). */
export const MAX_BULK_BAN_USERS = 200;
/** The most bans one page lists, and the default (v10). */
export const MAX_BANS_PAGE = 1000;
/** The longest `X-Audit-Log-Reason` kept (v10 truncates nothing: it refuses more; slashd keeps the first 512). */
export const MAX_AUDIT_LOG_REASON = 512;
/** Seconds in one of `delete_message_days` (the field v10 still reads beside `delete_message_seconds`). */
const SECONDS_PER_DAY = 86_400;
/** The most `delete_message_days` (v10). */
const MAX_DELETE_MESSAGE_DAYS = 7;

/**
 * The position of a bot's highest role when the world lists none of it (docs/decisions.md, "Bans"
 * and "Roles and channels"): just above @everyone, below every role the world lists.
 */
export const BOT_ROLE_POSITION = UNLISTED_BOT_ROLE_POSITION;

export interface BanRequest {
  deleteMessageSeconds: number;
}

export interface BulkBanRequest extends BanRequest {
  userIds: string[];
}

/** Why a ban (or its removal) is refused: both are v10's 50013 Missing Permissions. */
export type BanRefusal = Extract<Refusal, 'missing-permission' | 'hierarchy'>;

function readSeconds(body: JsonRecord, issues: Issues): number {
  const seconds = body.delete_message_seconds;
  if (seconds !== undefined && seconds !== null) {
    return boundedInteger(seconds, ['delete_message_seconds'], MAX_DELETE_MESSAGE_SECONDS, issues);
  }
  const days = body.delete_message_days;
  if (days !== undefined && days !== null) {
    return boundedInteger(days, ['delete_message_days'], MAX_DELETE_MESSAGE_DAYS, issues) * SECONDS_PER_DAY;
  }
  return 0;
}

function boundedInteger(value: unknown, path: IssuePath, max: number, issues: Issues): number {
  const read = readInteger(value, path, issues);
  if (read === undefined) return 0;
  if (read < 0) reportBelowMin(issues, path, 0);
  else if (read > max) reportAboveMax(issues, path, max);
  return read;
}

/** The body of `PUT /guilds/{g}/bans/{u}`: absent or an object, `delete_message_seconds` 0 to 604800. */
export function readBanBody(body: unknown): Result<BanRequest> {
  const issues: Issues = [];
  if (body === undefined || body === null) return ok({ deleteMessageSeconds: 0 });
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const deleteMessageSeconds = readSeconds(body, issues);
  return issues.length > 0 ? fail(issues) : ok({ deleteMessageSeconds });
}

/** The body of `POST /guilds/{g}/bulk-ban`: `user_ids`, 1 to 200 snowflakes. */
export function readBulkBanBody(body: unknown): Result<BulkBanRequest> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const userIds: string[] = [];
  if (body.user_ids === undefined || body.user_ids === null) reportRequired(issues, ['user_ids']);
  else {
    const list = readList(body.user_ids, ['user_ids'], issues);
    if (list && list.length === 0) reportBelowMin(issues, ['user_ids'], 1);
    else if (list && list.length > MAX_BULK_BAN_USERS) reportAboveMax(issues, ['user_ids'], MAX_BULK_BAN_USERS);
    else
      list?.forEach((value, index) => {
        const id = readSnowflake(value, ['user_ids', index], issues);
        if (id !== undefined && !userIds.includes(id)) userIds.push(id);
      });
  }
  const deleteMessageSeconds = readSeconds(body, issues);
  return issues.length > 0 ? fail(issues) : ok({ userIds, deleteMessageSeconds });
}

/** The reason a request gives in `X-Audit-Log-Reason` (URL-encoded, as client libraries send it). */
export function auditLogReason(header: string | string[] | undefined): string | null {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw === '') return null;
  let reason = raw;
  try {
    reason = decodeURIComponent(raw);
  } catch {
    // Not URL-encoded: kept as sent.
  }
  return reason.slice(0, MAX_AUDIT_LOG_REASON);
}

/** Whether the app's bot may ban or unban at all in the guild (BAN_MEMBERS; bulk bans need MANAGE_GUILD too). */
export function botMayBan(guild: Guild, applicationId: string, bulk = false): boolean {
  const bits = appBasePermissions(guild, applicationId);
  return hasAll(bits, bulk ? BAN_MEMBERS | MANAGE_GUILD : BAN_MEMBERS);
}

/**
 * Whether the app's bot may ban this user: BAN_MEMBERS, and the one hierarchy rule every member
 * action follows (`botOutranks`: never the owner or itself, nobody at or above the bot, another
 * app's bot included). `guild` holds the user's member, if any.
 */
export function botBanRefusal(guild: Guild, applicationId: string, userId: string): BanRefusal | null {
  if (!botMayBan(guild, applicationId)) return 'missing-permission';
  return botOutranks(guild, applicationId, userId) ? null : 'hierarchy';
}
