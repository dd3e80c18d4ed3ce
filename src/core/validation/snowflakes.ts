/** Snowflake ids in request bodies: decimal strings of an unsigned 64-bit integer (docs/v10-behaviour.md#conventions). */
import type { IssuePath } from '../io/issue.js';
import { readOptional, readSnowflake } from '../io/read.js';
import type { Issues } from '../io/report.js';

/** Null when omitted or null. JSON numbers are refused: ids past 2^53 lose digits in them. */
export function readOptionalSnowflake(value: unknown, path: IssuePath, issues: Issues): string | null {
  return readOptional<string | null>(value, path, issues, readSnowflake, null);
}
