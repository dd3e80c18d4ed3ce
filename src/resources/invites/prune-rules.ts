/**
 * Prune (v10 Get Guild Prune Count, Begin Guild Prune): which members a prune of `days` removes,
 * and what its query and body may hold. Pure. slashd keeps no presence history, so a member is
 * inactive for `days` when it joined at least that long ago (docs/decisions.md, "Prune").
 */
import { fieldOf, isAbsent, isRecord, readBoolean, readInteger, readList, readSnowflake } from '../../core/io/read.js';
import { reportAboveMax, reportBelowMin, reportNotObject, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import type { Issue } from '../../core/io/issue.js';
import { readIntegerParam, readSnowflakeParam, type IntegerParam } from '../../core/world/page-query.js';
import type { Guild, Member } from '../../core/world/types.js';

/** `days`: 1 to 30, default 7 (v10). */
export const PRUNE_DAYS: IntegerParam = { name: 'days', min: 1, max: 30, fallback: 7 };
/** The most roles `include_roles` names (v10's role cap of a guild). */
export const MAX_PRUNE_ROLES = 250;
const DAY_MS = 86_400_000;

export interface PruneRequest {
  days: number;
  /** Members holding only these roles (or none) are pruned; a member with another role is kept. */
  includeRoles: string[];
  /** Whether the answer counts the members pruned (v10: `pruned` is null otherwise). */
  computeCount: boolean;
}

/** `GET /guilds/{id}/prune`'s query: `days`, `include_roles` (ids separated by commas). */
export function readPruneQuery(query: { days?: unknown; include_roles?: unknown }): Result<PruneRequest> {
  const issues: Issue[] = [];
  const days = readIntegerParam(query.days, PRUNE_DAYS, issues);
  const raw = typeof query.include_roles === 'string' ? query.include_roles : '';
  const includeRoles: string[] = [];
  for (const part of raw.split(',').filter((p) => p !== '')) {
    const id = readSnowflakeParam(part, 'include_roles', issues);
    if (id !== undefined && !includeRoles.includes(id)) includeRoles.push(id);
  }
  if (includeRoles.length > MAX_PRUNE_ROLES) reportAboveMax(issues, ['include_roles'], MAX_PRUNE_ROLES);
  return issues.length > 0 ? fail(issues) : ok({ days, includeRoles, computeCount: true });
}

/** `POST /guilds/{id}/prune`'s body: `days` 1-30 (default 7), `compute_prune_count` (default true), `include_roles`. */
export function readPruneBody(body: unknown): Result<PruneRequest> {
  const issues: Issues = [];
  if (!isAbsent(body) && !isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const record = isRecord(body) ? body : {};
  let days = PRUNE_DAYS.fallback;
  const daysValue = fieldOf(record, 'days');
  if (!isAbsent(daysValue)) {
    days = readInteger(daysValue, ['days'], issues) ?? days;
    if (days < PRUNE_DAYS.min) reportBelowMin(issues, ['days'], PRUNE_DAYS.min);
    else if (days > PRUNE_DAYS.max) reportAboveMax(issues, ['days'], PRUNE_DAYS.max);
  }
  const count = fieldOf(record, 'compute_prune_count');
  const computeCount = isAbsent(count) ? true : (readBoolean(count, ['compute_prune_count'], issues) ?? true);
  const includeRoles: string[] = [];
  const roles = fieldOf(record, 'include_roles');
  if (!isAbsent(roles)) {
    const list = readList(roles, ['include_roles'], issues);
    if (list && list.length > MAX_PRUNE_ROLES) reportAboveMax(issues, ['include_roles'], MAX_PRUNE_ROLES);
    list?.forEach((value, i) => {
      const id = readSnowflake(value, ['include_roles', i], issues);
      if (id !== undefined && !includeRoles.includes(id)) includeRoles.push(id);
    });
  }
  return issues.length > 0 ? fail(issues) : ok({ days, includeRoles, computeCount });
}

/**
 * The members a prune removes at `nowMs`: joined `days` or more ago, holding no role but those of
 * `includeRoles`; never the owner. (Bots are members through their installs, never pruned.)
 */
export function prunableMembers(guild: Guild, request: PruneRequest, nowMs: number): Member[] {
  const since = nowMs - request.days * DAY_MS;
  const allowed = new Set([guild.id, ...request.includeRoles]);
  return guild.members.filter(
    (member) =>
      member.user_id !== guild.owner_id &&
      Date.parse(member.joined_at) <= since &&
      member.roles.every((role) => allowed.has(role)),
  );
}
