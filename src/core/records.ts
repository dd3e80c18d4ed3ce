/**
 * Objects keyed by strings a client chose (error trees, localization maps, resolved maps). A plain
 * `{}` inherits from Object.prototype: writing its `__proto__` key reaches the prototype every
 * object in the process shares, and reading `constructor` finds a function nobody sent. Records
 * made here have no prototype, so every key is an ordinary own property.
 */
import { DICT_TYPE_INVALID_KEY } from './io/codes.js';
import type { Issue, IssuePath } from './io/issue.js';

/** An empty record with no prototype. */
export function nullRecord<V = unknown>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** `Object.fromEntries` into a record with no prototype. */
export function nullRecordFrom<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const record = nullRecord<V>();
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** Keys that name JavaScript's prototype machinery: refused wherever a client chooses keys. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

/** The issue for a reserved key; `path` ends with the key itself. */
export function reservedKeyIssue(path: IssuePath): Issue {
  const key = String(path[path.length - 1] ?? '');
  return { path, code: DICT_TYPE_INVALID_KEY, message: `The key "${key}" is reserved and cannot be used.` };
}
