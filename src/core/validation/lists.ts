/** Lists of enumeration members: `contexts`, `integration_types`, `channel_types`. */
import type { IssuePath } from '../io/issue.js';
import { readInteger, readList } from '../io/read.js';
import { reportDuplicateValue, reportNotOneOf, reportTooShort, type Issues } from '../io/report.js';

/**
 * The list's valid members in order. Each entry must be a member of `allowed` and appear once;
 * the list must hold at least `minLength` entries.
 */
export function readEnumList(
  value: unknown,
  path: IssuePath,
  allowed: readonly number[],
  minLength: number,
  issues: Issues,
): number[] | undefined {
  const list = readList(value, path, issues);
  if (!list) return undefined;
  if (list.length < minLength) reportTooShort(issues, path, minLength);
  const members: number[] = [];
  for (let index = 0; index < list.length; index++) {
    const entryPath = [...path, index];
    const member = readInteger(list[index], entryPath, issues);
    if (member === undefined) continue;
    if (!allowed.includes(member)) reportNotOneOf(issues, entryPath, allowed);
    else if (members.includes(member)) reportDuplicateValue(issues, entryPath, member);
    else members.push(member);
  }
  return members;
}
