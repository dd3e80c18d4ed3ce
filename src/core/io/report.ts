/**
 * Issue builders for the base-type rules, so every rule words the same violation the same way.
 * Messages follow real v10 responses where one is known.
 */
import { issue, type Issue, type IssuePath } from './issue.js';
import {
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_CHOICES,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_MIN_LENGTH,
  BASE_TYPE_REQUIRED,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  LIST_TYPE_DUPLICATE_VALUE,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
  STRING_TYPE_CONVERT,
} from './codes.js';

/** Where a rule puts what it finds; rules only ever append. */
export type Issues = Issue[];

export function report(issues: Issues, path: IssuePath, code: string, message: string): void {
  issues.push(issue(path, code, message));
}

/** How a value appears inside a message: primitives as they are, containers elided. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 64 ? `${value.slice(0, 64)}…` : value;
  if (Array.isArray(value)) return '[…]';
  if (value !== null && typeof value === 'object') return '{…}';
  return String(value);
}

export function reportRequired(issues: Issues, path: IssuePath): void {
  report(issues, path, BASE_TYPE_REQUIRED, 'This field is required');
}

export function reportNotOneOf(issues: Issues, path: IssuePath, allowed: readonly (string | number)[]): void {
  report(issues, path, BASE_TYPE_CHOICES, `Value must be one of {${allowed.join(', ')}}.`);
}

/** A length outside `min..max`; with no lower bound worth naming (0) it reads as a maximum. */
export function reportBadLength(issues: Issues, path: IssuePath, min: number, max: number): void {
  if (min <= 0) report(issues, path, BASE_TYPE_MAX_LENGTH, `Must be ${max} or fewer in length.`);
  else report(issues, path, BASE_TYPE_BAD_LENGTH, `Must be between ${min} and ${max} in length.`);
}

export function reportTooLong(issues: Issues, path: IssuePath, max: number): void {
  report(issues, path, BASE_TYPE_MAX_LENGTH, `Must be ${max} or fewer in length.`);
}

export function reportTooShort(issues: Issues, path: IssuePath, min: number): void {
  report(issues, path, BASE_TYPE_MIN_LENGTH, `Must be ${min} or more in length.`);
}

export function reportNotString(issues: Issues, path: IssuePath, value: unknown): void {
  report(issues, path, STRING_TYPE_CONVERT, `Could not interpret "${describeValue(value)}" as string.`);
}

export function reportNotInteger(issues: Issues, path: IssuePath, value: unknown): void {
  report(issues, path, NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not int.`);
}

export function reportNotNumber(issues: Issues, path: IssuePath, value: unknown): void {
  report(issues, path, NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not a number.`);
}

export function reportNotSnowflake(issues: Issues, path: IssuePath, value: unknown): void {
  report(issues, path, NUMBER_TYPE_COERCE, `Value "${describeValue(value)}" is not snowflake.`);
}

export function reportAboveMax(issues: Issues, path: IssuePath, max: number | bigint): void {
  report(issues, path, NUMBER_TYPE_MAX, `Value should be less than or equal to ${max}.`);
}

export function reportBelowMin(issues: Issues, path: IssuePath, min: number): void {
  report(issues, path, NUMBER_TYPE_MIN, `Value should be greater than or equal to ${min}.`);
}

export function reportNotBoolean(issues: Issues, path: IssuePath): void {
  report(issues, path, BOOLEAN_TYPE_CONVERT, 'Must be either true or false.');
}

export function reportNotObject(issues: Issues, path: IssuePath): void {
  report(issues, path, DICT_TYPE_CONVERT, 'Only dictionaries may be used in a DictType');
}

export function reportNotList(issues: Issues, path: IssuePath): void {
  report(issues, path, LIST_TYPE_CONVERT, 'Only iterables may be used in a ListType');
}

export function reportDuplicateValue(issues: Issues, path: IssuePath, value: unknown): void {
  report(issues, path, LIST_TYPE_DUPLICATE_VALUE, `Value "${describeValue(value)}" appears more than once.`);
}
