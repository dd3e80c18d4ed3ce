/**
 * The one JSON reader for everything a client or an operator hands in: request bodies, world
 * files, files given to `slashd lint`, an app's answers to interactions. secure-json-parse scans
 * for `__proto__` (and `constructor.prototype`) keys, which code downstream could turn into writes
 * to Object.prototype; a body holding one is refused as a field error naming the key's path.
 */
import secureJson from 'secure-json-parse';
import type { Issue, IssuePath } from './issue.js';
import { isRecord, type JsonRecord } from './read.js';
import { fail, ok, type Result } from './result.js';
import { reservedKeyIssue } from '../records.js';

/** Most poisoned keys reported for one text: the refusal names a few, not every one of thousands. */
export const POISONED_KEY_ISSUES_MAX = 10;

const GUARDED = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * The value of a JSON text, or the issues naming its poisoned keys. Text that is not JSON at all
 * throws a SyntaxError, as JSON.parse does: it has no path to report at.
 */
export function readJsonText(text: string): Result<unknown> {
  try {
    return ok(secureJson.parse(text, null, GUARDED) as unknown);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof SyntaxError) || !message.startsWith('Object contains forbidden')) {
      throw error instanceof SyntaxError ? error : new SyntaxError(message);
    }
    // JSON.parse keeps "__proto__" as an own key (it never sets a prototype): safe to walk for paths.
    return fail(findPoisonedKeys(JSON.parse(text) as unknown));
  }
}

/**
 * The value of a JSON text from a peer that gets no field errors back (an app's answer, a gateway
 * payload): undefined for text that is not JSON or holds a poisoned key.
 */
export function jsonValueOrUndefined(text: string): unknown {
  try {
    const read = readJsonText(text);
    return read.ok ? read.value : undefined;
  } catch {
    return undefined;
  }
}

/** A path as a chain back to the root: walking a deep body copies no arrays. */
interface PathLink {
  readonly segment: string | number;
  readonly parent: PathLink | null;
}

function toPath(link: PathLink | null): IssuePath {
  const path: (string | number)[] = [];
  for (let at = link; at; at = at.parent) path.push(at.segment);
  return path.reverse();
}

function isPoisonedKey(key: string, child: unknown): boolean {
  return key === '__proto__' || (key === 'constructor' && isRecord(child) && Object.hasOwn(child, 'prototype'));
}

/** The keys secure-json-parse refuses, with their paths, in document order; a loop, not recursion. */
export function findPoisonedKeys(root: unknown): Issue[] {
  const issues: Issue[] = [];
  const pending: { value: unknown; link: PathLink | null }[] = [{ value: root, link: null }];
  while (pending.length > 0 && issues.length < POISONED_KEY_ISSUES_MAX) {
    const { value, link } = pending.pop()!;
    // Arrays are walked too: a poisoned key inside a list is reported at its index.
    if (typeof value !== 'object' || value === null) continue;
    const container = value as JsonRecord;
    const keys = Object.keys(container);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i]!;
      const child = container[key];
      const childLink = { segment: Array.isArray(value) ? Number(key) : key, parent: link };
      if (isPoisonedKey(key, child)) issues.push(reservedKeyIssue(toPath(childLink)));
      else pending.push({ value: child, link: childLink });
    }
  }
  return issues.slice(0, POISONED_KEY_ISSUES_MAX);
}
