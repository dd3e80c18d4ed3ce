/**
 * `allowed_mentions`: which mentions in the content may notify. `parse` names whole kinds; `users`
 * and `roles` name ids, and a kind may not be given both ways (v10 refuses that).
 */
import type { IssuePath } from '../../../core/io/issue.js';
import { isSnowflake } from '../../../core/snowflake.js';
import { fieldOf, isAbsent, readBoolean, readList, readRecord, type JsonRecord } from '../../../core/io/read.js';
import { report, reportNotOneOf, reportNotSnowflake, reportTooLong, type Issues } from '../../../core/io/report.js';
import { MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE } from '../../../core/io/codes.js';
import { ALLOWED_MENTIONS_IDS_MAX } from './limits.js';

/** The mention kinds `parse` may name. */
const MENTION_KINDS = ['roles', 'users', 'everyone'] as const;

function readParse(record: JsonRecord, path: IssuePath, issues: Issues): string[] {
  const raw = fieldOf(record, 'parse');
  if (isAbsent(raw)) return [];
  const list = readList(raw, [...path, 'parse'], issues);
  if (!list) return [];
  const kinds: string[] = [];
  list.forEach((kind, index) => {
    if (typeof kind === 'string' && (MENTION_KINDS as readonly string[]).includes(kind)) kinds.push(kind);
    else reportNotOneOf(issues, [...path, 'parse', index], MENTION_KINDS);
  });
  return kinds;
}

/** An id list (`users` or `roles`); returns how many ids it names. */
function readIds(record: JsonRecord, key: string, path: IssuePath, issues: Issues): number {
  const raw = fieldOf(record, key);
  if (isAbsent(raw)) return 0;
  const listPath = [...path, key];
  const list = readList(raw, listPath, issues);
  if (!list) return 0;
  if (list.length > ALLOWED_MENTIONS_IDS_MAX) reportTooLong(issues, listPath, ALLOWED_MENTIONS_IDS_MAX);
  list.forEach((id, index) => {
    if (!isSnowflake(id)) reportNotSnowflake(issues, [...listPath, index], id);
  });
  return list.length;
}

function checkExclusive(
  kind: 'users' | 'roles',
  parse: readonly string[],
  count: number,
  path: IssuePath,
  issues: Issues,
): void {
  if (count === 0 || !parse.includes(kind)) return;
  report(
    issues,
    [...path, kind],
    MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE,
    `"${kind}" cannot be both in parse and listed by id.`,
  );
}

export function checkAllowedMentions(raw: unknown, path: IssuePath, issues: Issues): void {
  const record = readRecord(raw, path, issues);
  if (!record) return;
  const parse = readParse(record, path, issues);
  checkExclusive('users', parse, readIds(record, 'users', path, issues), path, issues);
  checkExclusive('roles', parse, readIds(record, 'roles', path, issues), path, issues);
  const repliedUser = fieldOf(record, 'replied_user');
  if (!isAbsent(repliedUser)) readBoolean(repliedUser, [...path, 'replied_user'], issues);
}
