/**
 * Expected against observed: which parts of an observed value (a message, a modal, an event's
 * data) differ from a scenario's expectation, each at its path, and the words of the diff a failed
 * step reports. Pure: the runner observes, this judges.
 */
import { isSnowflake } from '../snowflake.js';
import { isMatcher } from './validate.js';
import type { Expected } from './types.js';
import { linearPattern } from './patterns.js';

/** One difference: where, what was expected (in words), what was there. */
export interface Mismatch {
  path: string;
  expected: string;
  observed: unknown;
}

/** An ISO 8601 time as v10 writes them (`2026-01-02T03:04:05.678000+00:00`). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Observed text longer than this is cut in a diff: the diff stays readable. */
const SHOWN_CHARS = 300;

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

/** Deep equality of JSON values (what YAML and v10 bodies hold). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (key) =>
        Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

function matchMatcher(matcher: Record<string, unknown>, observed: unknown, path: string): Mismatch[] {
  const miss = (expected: string): Mismatch[] => [{ path, expected, observed }];
  if (Object.hasOwn(matcher, 'contains')) {
    const text = String(matcher.contains);
    return typeof observed === 'string' && observed.includes(text) ? [] : miss(`a text containing ${shown(text)}`);
  }
  if (Object.hasOwn(matcher, 'matches')) {
    const pattern = String(matcher.matches);
    const compiled = linearPattern(pattern);
    return typeof observed === 'string' && compiled instanceof RegExp && compiled.test(observed)
      ? []
      : miss(`a text matching /${pattern}/`);
  }
  if (Object.hasOwn(matcher, 'equals'))
    return jsonEqual(observed, matcher.equals) ? [] : miss(`exactly ${shown(matcher.equals)}`);
  if (matcher.any === 'id')
    return typeof observed === 'string' && isSnowflake(observed) ? [] : miss('an id (a snowflake)');
  if (matcher.any === 'timestamp')
    return typeof observed === 'string' && ISO_TIMESTAMP.test(observed) ? [] : miss('an ISO 8601 timestamp');
  return observed === undefined || observed === null ? miss('a value') : [];
}

/** Each expected item matches a distinct observed item, in any order. */
function matchList(expected: Expected[], observed: unknown, path: string): Mismatch[] {
  if (!Array.isArray(observed)) return [{ path, expected: `a list like ${shown(expected)}`, observed }];
  const used = new Set<number>();
  const mismatches: Mismatch[] = [];
  expected.forEach((item, index) => {
    const found = observed.findIndex((candidate, at) => !used.has(at) && matchExpected(item, candidate).length === 0);
    if (found >= 0) used.add(found);
    else mismatches.push(...closestItemMismatches(item, observed, join(path, index)));
  });
  return mismatches;
}

/** Why no observed item matched: the differences from the closest one (or that there was none). */
function closestItemMismatches(item: Expected, observed: readonly unknown[], path: string): Mismatch[] {
  const tries = observed.map((candidate) => matchExpected(item, candidate, path));
  const closest = tries.sort((a, b) => a.length - b.length)[0];
  return closest ?? [{ path, expected: shown(item), observed: undefined }];
}

/** The differences between `observed` and what `expected` asks of it; none when it matches. */
export function matchExpected(expected: Expected, observed: unknown, path = ''): Mismatch[] {
  if (isMatcher(expected)) return matchMatcher(expected, observed, path);
  if (Array.isArray(expected)) return matchList(expected, observed, path);
  if (expected !== null && typeof expected === 'object') {
    if (observed === null || typeof observed !== 'object' || Array.isArray(observed))
      return [{ path, expected: `an object like ${shown(expected)}`, observed }];
    return Object.entries(expected).flatMap(([key, value]) =>
      matchExpected(
        value as Expected,
        Object.hasOwn(observed, key) ? (observed as Record<string, unknown>)[key] : undefined,
        join(path, key),
      ),
    );
  }
  return observed === expected ? [] : [{ path, expected: shown(expected), observed }];
}

/** The candidate that matches (null mismatches), or the closest one's mismatches; `[]` candidates: null. */
export function bestCandidate<T>(
  candidates: readonly T[],
  judge: (candidate: T) => Mismatch[],
): { candidate: T; mismatches: Mismatch[] } | null {
  let best: { candidate: T; mismatches: Mismatch[] } | null = null;
  for (const candidate of candidates) {
    const mismatches = judge(candidate);
    if (mismatches.length === 0) return { candidate, mismatches };
    if (!best || mismatches.length < best.mismatches.length) best = { candidate, mismatches };
  }
  return best;
}

/** The diff in lines: `- expected` and `+ observed` at each path. */
export function diffLines(mismatches: readonly Mismatch[]): string[] {
  return mismatches.flatMap((mismatch) => [
    `  at ${mismatch.path === '' ? '(the value)' : mismatch.path}:`,
    `    - expected: ${mismatch.expected}`,
    `    + observed: ${shown(mismatch.observed)}`,
  ]);
}
