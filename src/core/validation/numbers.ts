/**
 * Values of INTEGER and NUMBER options (`min_value`, `max_value`, choice values): an INTEGER is an
 * integer within ±(2^53 − 1), a NUMBER any finite number within ±2^53 (v10 API, Option types).
 */
import { OptionType } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { readInteger, readNumber } from '../io/read.js';
import { INTEGER_VALUE_MAX, INTEGER_VALUE_MIN, NUMBER_VALUE_MAX, NUMBER_VALUE_MIN } from './limits.js';
import { reportAboveMax, reportBelowMin, type Issues } from '../io/report.js';

export type NumericOptionType = typeof OptionType.Integer | typeof OptionType.Number;

export function checkRange(value: number, min: number, max: number, path: IssuePath, issues: Issues): void {
  if (value < min) reportBelowMin(issues, path, min);
  else if (value > max) reportAboveMax(issues, path, max);
}

/** The value, or undefined when it has the wrong type; an out-of-range value is reported and kept. */
export function readOptionNumber(
  value: unknown,
  path: IssuePath,
  type: NumericOptionType,
  issues: Issues,
): number | undefined {
  if (type === OptionType.Integer) {
    const integer = readInteger(value, path, issues);
    if (integer !== undefined) checkRange(integer, INTEGER_VALUE_MIN, INTEGER_VALUE_MAX, path, issues);
    return integer;
  }
  const number = readNumber(value, path, issues);
  if (number !== undefined) checkRange(number, NUMBER_VALUE_MIN, NUMBER_VALUE_MAX, path, issues);
  return number;
}
