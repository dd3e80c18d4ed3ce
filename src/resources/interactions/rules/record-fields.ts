/**
 * The field readers the message rules share (components, embeds): a text within bounds, a flag, a
 * whole number within bounds, a field a kind of component never carries. Omitted and null mean
 * "not given", as for every optional field of a v10 body.
 */
import { COMPONENT_FIELD_NOT_ALLOWED } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import {
  fieldOf,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import {
  report,
  reportAboveMax,
  reportBadLength,
  reportBelowMin,
  reportRequired,
  type Issues,
} from '../../../core/io/report.js';
import { checkLength } from '../../../core/validation/text.js';

export interface TextBounds {
  min: number;
  max: number;
}

/** An optional text field within `bounds`; undefined when absent or wrong. */
export function optionalText(
  record: JsonRecord,
  key: string,
  bounds: TextBounds,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  const raw = fieldOf(record, key);
  if (isAbsent(raw)) return undefined;
  const fieldPath = [...path, key];
  const text = readString(raw, fieldPath, issues);
  if (text === undefined) return undefined;
  const before = issues.length;
  checkLength(text, bounds.min, bounds.max, fieldPath, issues);
  return issues.length === before ? text : undefined;
}

/** A required text field within `bounds`: absent is BASE_TYPE_REQUIRED. */
export function requiredText(
  record: JsonRecord,
  key: string,
  bounds: TextBounds,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  if (isAbsent(fieldOf(record, key))) {
    reportRequired(issues, [...path, key]);
    return undefined;
  }
  return optionalText(record, key, bounds, path, issues);
}

/** An optional boolean field (`disabled`, `required`, `default`, `spoiler`). */
export function optionalFlag(record: JsonRecord, key: string, path: IssuePath, issues: Issues): boolean | undefined {
  const raw = fieldOf(record, key);
  return isAbsent(raw) ? undefined : readBoolean(raw, [...path, key], issues);
}

/** An optional whole number within `min..max`; undefined when absent or wrong. */
export function optionalInteger(
  record: JsonRecord,
  key: string,
  min: number,
  max: number,
  path: IssuePath,
  issues: Issues,
): number | undefined {
  const raw = fieldOf(record, key);
  if (isAbsent(raw)) return undefined;
  const fieldPath = [...path, key];
  const value = readInteger(raw, fieldPath, issues);
  if (value === undefined) return undefined;
  if (value < min) reportBelowMin(issues, fieldPath, min);
  else if (value > max) reportAboveMax(issues, fieldPath, max);
  else return value;
  return undefined;
}

/** A required list at `key` holding `min`..`max` entries (a layout's children); undefined when absent or wrong. */
export function requiredList(
  record: JsonRecord,
  key: string,
  bounds: { min: number; max: number },
  path: IssuePath,
  issues: Issues,
): readonly unknown[] | undefined {
  const raw = fieldOf(record, key);
  const listPath = [...path, key];
  if (isAbsent(raw)) {
    reportRequired(issues, listPath);
    return undefined;
  }
  const list = readList(raw, listPath, issues);
  if (!list) return undefined;
  if (list.length < bounds.min || list.length > bounds.max) {
    reportBadLength(issues, listPath, bounds.min, bounds.max);
    return undefined;
  }
  return list;
}

/** A field this kind of component never carries, given anyway. */
export function forbidField(record: JsonRecord, key: string, why: string, path: IssuePath, issues: Issues): void {
  if (!isAbsent(fieldOf(record, key))) report(issues, [...path, key], COMPONENT_FIELD_NOT_ALLOWED, why);
}

/** True when the record gives the field (not omitted, not null). */
export function hasField(record: JsonRecord, key: string): boolean {
  return !isAbsent(fieldOf(record, key));
}
