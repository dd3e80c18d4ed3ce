/**
 * What a member edit may hold (v10 Modify Guild Member, Modify Current Member, Search Guild
 * Members), read into a request or a 50035 tree at the field. Pure: the current time is passed in.
 */
import { COMMUNICATION_DISABLED_TOO_LONG, DATE_TIME_TYPE_PARSE } from '../../../core/io/codes.js';
import {
  fieldOf,
  isAbsent,
  isRecord,
  readBoolean,
  readList,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import {
  report,
  reportAboveMax,
  reportNotObject,
  reportRequired,
  reportTooLong,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { Issue } from '../../../core/io/issue.js';
import { readIntegerParam, type IntegerParam } from '../../../core/world/page-query.js';

/** The longest nickname (v10). */
export const MAX_NICK_LENGTH = 32;
/** The most roles one edit may name: v10's 250 roles per guild. */
export const MAX_EDIT_ROLES = 250;
/** The longest timeout: 28 days from now (v10). */
export const MAX_TIMEOUT_MS = 28 * 24 * 60 * 60 * 1000;
/** `GET /guilds/{id}/members/search`: `limit` 1-1000, default 1 (v10). */
export const SEARCH_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 1000, fallback: 1 };
/** The longest search query kept (a username is at most 32 characters, a nickname too). */
export const MAX_SEARCH_QUERY_LENGTH = 100;

/**
 * A member edit: each field present is changed (`nick: null` and `""` reset the nickname,
 * `communication_disabled_until: null` ends a timeout); absent ones are left as they are.
 */
export interface MemberEdit {
  nick?: string | null;
  roles?: string[];
  communication_disabled_until?: string | null;
  mute?: boolean;
  deaf?: boolean;
  /** A voice channel to move the member to (null: disconnect); slashd has no one in voice. */
  channel_id?: string | null;
}

function readNick(value: unknown, issues: Issues): string | null | undefined {
  if (isAbsent(value)) return null;
  const nick = readString(value, ['nick'], issues);
  if (nick !== undefined && nick.length > MAX_NICK_LENGTH) reportTooLong(issues, ['nick'], MAX_NICK_LENGTH);
  return nick === '' ? null : nick;
}

function readRoles(value: unknown, issues: Issues): string[] | undefined {
  if (isAbsent(value)) return [];
  const list = readList(value, ['roles'], issues);
  if (list === undefined) return undefined;
  if (list.length > MAX_EDIT_ROLES) {
    reportAboveMax(issues, ['roles'], MAX_EDIT_ROLES);
    return undefined;
  }
  const roles: string[] = [];
  list.forEach((item, index) => {
    const id = readSnowflake(item, ['roles', index], issues);
    if (id !== undefined && !roles.includes(id)) roles.push(id);
  });
  return roles;
}

/** An ISO 8601 time no more than 28 days ahead of `nowMs`, normalized; null ends the timeout. */
function readTimeout(value: unknown, nowMs: number, issues: Issues): string | null | undefined {
  if (isAbsent(value)) return null;
  const path = ['communication_disabled_until'];
  const text = readString(value, path, issues);
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(ms)) {
    report(
      issues,
      path,
      DATE_TIME_TYPE_PARSE,
      `Could not parse ${JSON.stringify(text.slice(0, 64))}. Should be ISO8601.`,
    );
    return undefined;
  }
  if (ms - nowMs > MAX_TIMEOUT_MS) {
    report(issues, path, COMMUNICATION_DISABLED_TOO_LONG, 'Timeouts can be at most 28 days from now.');
    return undefined;
  }
  return new Date(ms).toISOString();
}

function readFlag(body: JsonRecord, key: 'mute' | 'deaf', issues: Issues): boolean | undefined {
  const value = fieldOf(body, key);
  return isAbsent(value) ? false : readBoolean(value, [key], issues);
}

/** Sets `edit[key]` when the body names the field (null included), from `read`. */
function take<K extends keyof MemberEdit>(
  body: JsonRecord,
  key: K,
  edit: MemberEdit,
  read: (value: unknown) => MemberEdit[K] | undefined,
): void {
  if (!Object.hasOwn(body, key)) return;
  const value = read(body[key]);
  if (value !== undefined) edit[key] = value;
}

/** The body of `PATCH /guilds/{g}/members/{u}`. */
export function readMemberEdit(body: unknown, nowMs: number): Result<MemberEdit> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const edit: MemberEdit = {};
  take(body, 'nick', edit, (value) => readNick(value, issues));
  take(body, 'roles', edit, (value) => readRoles(value, issues));
  take(body, 'communication_disabled_until', edit, (value) => readTimeout(value, nowMs, issues));
  take(body, 'mute', edit, () => readFlag(body, 'mute', issues));
  take(body, 'deaf', edit, () => readFlag(body, 'deaf', issues));
  take(body, 'channel_id', edit, (value) => (isAbsent(value) ? null : readSnowflake(value, ['channel_id'], issues)));
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** The body of `PATCH /guilds/{g}/members/@me`: only `nick`. */
export function readOwnNickEdit(body: unknown): Result<Pick<MemberEdit, 'nick'>> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const edit: Pick<MemberEdit, 'nick'> = {};
  take(body, 'nick', edit, (value) => readNick(value, issues));
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** The query of `GET /guilds/{g}/members/search`: `query` required, `limit` 1-1000. */
export function readSearchQuery(
  query: Partial<Record<'query' | 'limit', unknown>> | undefined,
  issues: Issue[],
): { query: string; limit: number } {
  const limit = readIntegerParam(query?.limit, SEARCH_LIMIT, issues);
  const text = query?.query;
  if (typeof text !== 'string') {
    reportRequired(issues, ['query']);
    return { query: '', limit };
  }
  if (text.length > MAX_SEARCH_QUERY_LENGTH) reportTooLong(issues, ['query'], MAX_SEARCH_QUERY_LENGTH);
  return { query: text, limit };
}
