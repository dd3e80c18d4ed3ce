/**
 * Which users an invocation can name, so that only those are read from the store (never the whole
 * world's users): every id the request's data holds (option values, the target), and every id in
 * the message it targets (its author, its interaction's user). A superset is harmless: an id that
 * names no user is simply not found.
 */
import { isSnowflake } from '../../../core/snowflake.js';

/** Every snowflake-shaped string (or integer, as its text) anywhere in `value`. */
export function snowflakesIn(value: unknown, into = new Set<string>()): Set<string> {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string' || (typeof next === 'number' && Number.isInteger(next))) {
      const text = String(next);
      if (isSnowflake(text)) into.add(text);
    } else if (next !== null && typeof next === 'object') {
      pending.push(...(Object.values(next) as unknown[]));
    }
  }
  return into;
}

/** The user ids an invocation's data may resolve, with the messages it may target (by id) looked into. */
export function userIdsNamedBy(data: unknown, messages: readonly { id: string }[]): string[] {
  const ids = snowflakesIn(data);
  for (const message of messages) if (ids.has(message.id)) snowflakesIn(message, ids);
  return [...ids];
}
