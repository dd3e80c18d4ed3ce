/**
 * Bounds on what a user may enter: `min_value`/`max_value` on INTEGER and NUMBER options,
 * `min_length`/`max_length` on STRING options. Each bound has its own range, and min ≤ max.
 */
import type { IssuePath } from '../io/issue.js';
import { APPLICATION_COMMAND_OPTION_RANGE_INVALID } from '../io/codes.js';
import { fieldOf, isAbsent, readInteger, type JsonRecord } from '../io/read.js';
import { MAX_LENGTH_HIGHEST, MAX_LENGTH_LOWEST, MIN_LENGTH_HIGHEST, MIN_LENGTH_LOWEST } from './limits.js';
import { checkRange, readOptionNumber, type NumericOptionType } from './numbers.js';
import { report, type Issues } from '../io/report.js';

export interface Bounds {
  min?: number | undefined;
  max?: number | undefined;
}

function reportMinAboveMax(issues: Issues, path: IssuePath, minField: string, maxField: string): void {
  report(
    issues,
    path,
    APPLICATION_COMMAND_OPTION_RANGE_INVALID,
    `${maxField} must be greater than or equal to ${minField}.`,
  );
}

function readLength(
  value: unknown,
  path: IssuePath,
  lowest: number,
  highest: number,
  issues: Issues,
): number | undefined {
  if (isAbsent(value)) return undefined;
  const length = readInteger(value, path, issues);
  if (length !== undefined) checkRange(length, lowest, highest, path, issues);
  return length;
}

export function readLengthBounds(record: JsonRecord, path: IssuePath, issues: Issues): Bounds {
  const min = readLength(
    fieldOf(record, 'min_length'),
    [...path, 'min_length'],
    MIN_LENGTH_LOWEST,
    MIN_LENGTH_HIGHEST,
    issues,
  );
  const max = readLength(
    fieldOf(record, 'max_length'),
    [...path, 'max_length'],
    MAX_LENGTH_LOWEST,
    MAX_LENGTH_HIGHEST,
    issues,
  );
  if (min !== undefined && max !== undefined && min > max) {
    reportMinAboveMax(issues, [...path, 'max_length'], 'min_length', 'max_length');
  }
  return { min, max };
}

function readValue(value: unknown, path: IssuePath, type: NumericOptionType, issues: Issues): number | undefined {
  return isAbsent(value) ? undefined : readOptionNumber(value, path, type, issues);
}

export function readValueBounds(record: JsonRecord, path: IssuePath, type: NumericOptionType, issues: Issues): Bounds {
  const min = readValue(fieldOf(record, 'min_value'), [...path, 'min_value'], type, issues);
  const max = readValue(fieldOf(record, 'max_value'), [...path, 'max_value'], type, issues);
  if (min !== undefined && max !== undefined && min > max) {
    reportMinAboveMax(issues, [...path, 'max_value'], 'min_value', 'max_value');
  }
  return { min, max };
}
