/**
 * The one outcome of reading or checking untrusted input: the value, or every issue found. Every
 * parser and rule of the core returns this shape; the edge turns a failure into a 50035 with
 * `orThrow`.
 */
import { invalidFormBody } from './errors.js';
import type { Issue } from './issue.js';

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly Issue[] };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(issues: readonly Issue[]): Result<T> {
  return { ok: false, issues };
}

/** The value when one was read and nothing is wrong; otherwise the issues. */
export function resultOf<T>(value: T | undefined, issues: readonly Issue[]): Result<T> {
  return issues.length > 0 || value === undefined ? fail(issues) : ok(value);
}

/** The value, or the 50035 error naming every issue. */
export function orThrow<T>(result: Result<T>): T {
  if (!result.ok) throw invalidFormBody(result.issues);
  return result.value;
}
