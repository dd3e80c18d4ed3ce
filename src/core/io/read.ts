/**
 * The one reader of untrusted JSON (request bodies, world files, answers to interactions): each
 * function checks one JSON type and reports at the field's path when it is wrong, so a wrong type
 * is an issue and never an exception, worded the same wherever it is found (./report.ts).
 */
import { isSnowflake } from '../snowflake.js';
import type { IssuePath } from './issue.js';
import {
  reportNotBoolean,
  reportNotSnowflake,
  reportRequired,
  reportNotInteger,
  reportNotList,
  reportNotNumber,
  reportNotObject,
  reportNotString,
  type Issues,
} from './report.js';

export type JsonRecord = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Omitted and null mean the same for every optional field (the field's default applies). */
export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** A field's own value; inherited properties (a crafted prototype) never count as given. */
export function fieldOf(record: JsonRecord, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function readString(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (typeof value === 'string') return value;
  reportNotString(issues, path, value);
  return undefined;
}

export function readBoolean(value: unknown, path: IssuePath, issues: Issues): boolean | undefined {
  if (typeof value === 'boolean') return value;
  reportNotBoolean(issues, path);
  return undefined;
}

export function readInteger(value: unknown, path: IssuePath, issues: Issues): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  reportNotInteger(issues, path, value);
  return undefined;
}

export function readNumber(value: unknown, path: IssuePath, issues: Issues): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  reportNotNumber(issues, path, value);
  return undefined;
}

export function readList(value: unknown, path: IssuePath, issues: Issues): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  reportNotList(issues, path);
  return undefined;
}

export function readRecord(value: unknown, path: IssuePath, issues: Issues): JsonRecord | undefined {
  if (isRecord(value)) return value;
  reportNotObject(issues, path);
  return undefined;
}

/** A snowflake id: a decimal string of an unsigned 64-bit integer (JSON numbers lose digits past 2^53). */
export function readSnowflake(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (isSnowflake(value)) return value;
  reportNotSnowflake(issues, path, value);
  return undefined;
}

/** One of the readers above. */
export type FieldReader<T> = (value: unknown, path: IssuePath, issues: Issues) => T | undefined;

/** A required field: omitted or null is BASE_TYPE_REQUIRED, anything else is up to `read`. */
export function readRequired<T>(value: unknown, path: IssuePath, issues: Issues, read: FieldReader<T>): T | undefined {
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return undefined;
  }
  return read(value, path, issues);
}

/** An optional field: omitted or null is `fallback`, anything else is up to `read`. */
export function readOptional<T>(value: unknown, path: IssuePath, issues: Issues, read: FieldReader<T>, fallback: T): T {
  return isAbsent(value) ? fallback : (read(value, path, issues) ?? fallback);
}
