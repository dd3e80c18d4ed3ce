/**
 * Readers of the fields role and channel bodies share (v10 Guild and Channel resources): each
 * reads one optional field, reports at its path, and answers undefined when it is absent or wrong.
 */
import { fieldOf, isAbsent, readBoolean, readInteger, readString, type JsonRecord } from '../../../core/io/read.js';
import {
  reportAboveMax,
  reportBadLength,
  reportBelowMin,
  reportNotInteger,
  type Issues,
} from '../../../core/io/report.js';
import { isDecimalBitSet } from '../../../core/permissions/bits.js';
import type { IssuePath } from '../../../core/io/issue.js';

/** The widest permission bit set v10 reads: far past every flag it defines. */
const MAX_BIT_SET_DIGITS = 40;

/** A string field of `min` to `max` characters. */
export function optionalText(body: JsonRecord, key: string, min: number, max: number, issues: Issues) {
  const value = fieldOf(body, key);
  if (isAbsent(value)) return undefined;
  const text = readString(value, [key], issues);
  if (text !== undefined && (text.length < min || text.length > max)) {
    reportBadLength(issues, [key], min, max);
    return undefined;
  }
  return text;
}

/** An integer field from `min` to `max`. */
export function optionalInteger(body: JsonRecord, key: string, min: number, max: number, issues: Issues) {
  const value = fieldOf(body, key);
  if (isAbsent(value)) return undefined;
  return boundedInteger(value, [key], min, max, issues);
}

export function boundedInteger(value: unknown, path: IssuePath, min: number, max: number, issues: Issues) {
  const read = readInteger(value, path, issues);
  if (read === undefined) return undefined;
  if (read < min) reportBelowMin(issues, path, min);
  else if (read > max) reportAboveMax(issues, path, max);
  else return read;
  return undefined;
}

export function optionalBoolean(body: JsonRecord, key: string, issues: Issues) {
  const value = fieldOf(body, key);
  return isAbsent(value) ? undefined : readBoolean(value, [key], issues);
}

/**
 * A permission bit set: a decimal string, as v10 serializes them, or a non-negative integer (what
 * the OpenAPI document types it as), normalized to its decimal string.
 */
export function readBitSet(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (isDecimalBitSet(value) && value.length <= MAX_BIT_SET_DIGITS) return BigInt(value).toString();
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  reportNotInteger(issues, path, value);
  return undefined;
}

export function optionalBitSet(body: JsonRecord, key: string, issues: Issues) {
  const value = fieldOf(body, key);
  return isAbsent(value) ? undefined : readBitSet(value, [key], issues);
}
