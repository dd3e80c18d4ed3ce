/**
 * `POST /channels/{id}/messages/bulk-delete` (v10): the body names 2 to 100 distinct message ids,
 * none older than 14 days by its snowflake's time. Ids that name no message count toward the bounds
 * and are skipped (v10's documented behaviour).
 */
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, readList, readRecord, readRequired, readSnowflake } from '../../../core/io/read.js';
import { reportDuplicateValue, reportTooLong, reportTooShort, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { snowflakeTimestampMs } from '../../../core/snowflake.js';
import { BULK_DELETE_MAX_AGE_MS, BULK_DELETE_MESSAGES_MAX, BULK_DELETE_MESSAGES_MIN } from './limits.js';

function readIds(raw: unknown, path: IssuePath, issues: Issues): string[] | undefined {
  const list = readList(raw, path, issues);
  if (!list) return undefined;
  if (list.length < BULK_DELETE_MESSAGES_MIN) reportTooShort(issues, path, BULK_DELETE_MESSAGES_MIN);
  if (list.length > BULK_DELETE_MESSAGES_MAX) {
    reportTooLong(issues, path, BULK_DELETE_MESSAGES_MAX);
    return undefined;
  }
  const seen = new Set<string>();
  const ids: string[] = [];
  list.forEach((item, index) => {
    const id = readSnowflake(item, [...path, index], issues);
    if (id === undefined) return;
    if (seen.has(id)) reportDuplicateValue(issues, [...path, index], id);
    seen.add(id);
    ids.push(id);
  });
  return ids;
}

/** The ids of a bulk delete's body, or the 50035 issues (at `messages`). */
export function readBulkDelete(body: unknown): Result<string[]> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  const ids = record ? readRequired(fieldOf(record, 'messages'), ['messages'], issues, readIds) : undefined;
  return issues.length > 0 || !ids ? fail(issues) : ok(ids);
}

/** True when the message of this id is too old for a bulk delete at `nowMs` (v10: 50034). */
export function tooOldToBulkDelete(id: string, nowMs: number): boolean {
  return snowflakeTimestampMs(id) < nowMs - BULK_DELETE_MAX_AGE_MS;
}
