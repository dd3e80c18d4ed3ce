/** A date-time as v10's bodies write one. */
import { DATE_TIME_TYPE_PARSE } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { readString } from '../../../core/io/read.js';
import { report, type Issues } from '../../../core/io/report.js';

/** An ISO 8601 date-time with its zone, as v10 takes it; epoch ms. */
export function readDateTime(value: unknown, path: IssuePath, issues: Issues): number | undefined {
  const text = readString(value, path, issues);
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
    ? Date.parse(text)
    : NaN;
  if (Number.isNaN(ms)) {
    report(issues, path, DATE_TIME_TYPE_PARSE, `Could not parse ${text}. Should be ISO8601.`);
    return undefined;
  }
  return ms;
}
