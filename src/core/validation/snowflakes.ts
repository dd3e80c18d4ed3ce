/** Snowflake ids in request bodies: decimal strings of an unsigned 64-bit integer (docs/v10-behaviour.md#conventions). */
import type { IssuePath } from '../io/issue.js';
import { isAbsent } from '../io/read.js';
import { reportNotSnowflake, type Issues } from '../io/report.js';

const DECIMAL_UP_TO_20_DIGITS = /^\d{1,20}$/;
const UINT64_MAX = '18446744073709551615';

export function isSnowflake(value: string): boolean {
  if (!DECIMAL_UP_TO_20_DIGITS.test(value)) return false;
  // Equal-length decimal strings compare like their numbers.
  return value.length < UINT64_MAX.length || value <= UINT64_MAX;
}

/** Null when omitted or null. JSON numbers are refused: ids past 2^53 lose digits in them. */
export function readOptionalSnowflake(value: unknown, path: IssuePath, issues: Issues): string | null {
  if (isAbsent(value)) return null;
  if (typeof value === 'string' && isSnowflake(value)) return value;
  reportNotSnowflake(issues, path, value);
  return null;
}
