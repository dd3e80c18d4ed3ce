/**
 * The query parameters of the paged reads (members, the bot's guilds, channel messages): bounded
 * integers and snowflake cursors, read from a query string into issues at the parameter's name
 * (a v10 50035 body whose tree names the parameter), never into a 5xx.
 */
import { issue, type Issue } from '../errors.js';
import { isSnowflake } from '../snowflake.js';
import { NUMBER_TYPE_COERCE, NUMBER_TYPE_MAX, NUMBER_TYPE_MIN } from '../validation/codes.js';

/** The most characters a query value may have before it is refused unread (a snowflake has 20). */
const QUERY_VALUE_LENGTH_MAX = 32;

export interface IntegerParam {
  name: string;
  min: number;
  max: number;
  /** The value when the parameter is absent. */
  fallback: number;
}

function asText(raw: unknown): string | undefined {
  // A repeated parameter arrives as a list: v10 reads one value, so a list is no number.
  return typeof raw === 'string' && raw.length <= QUERY_VALUE_LENGTH_MAX ? raw : undefined;
}

/** An integer within `[min, max]`; absent (or empty) gives the fallback. */
export function readIntegerParam(raw: unknown, param: IntegerParam, issues: Issue[]): number {
  if (raw === undefined || raw === '') return param.fallback;
  const text = asText(raw);
  if (text === undefined || !/^-?\d+$/.test(text)) {
    issues.push(issue([param.name], NUMBER_TYPE_COERCE, `Value "${text ?? ''}" is not int.`));
    return param.fallback;
  }
  const value = Number(text);
  if (value < param.min) {
    issues.push(issue([param.name], NUMBER_TYPE_MIN, `Value should be greater than or equal to ${param.min}.`));
    return param.fallback;
  }
  if (value > param.max) {
    issues.push(issue([param.name], NUMBER_TYPE_MAX, `Value should be less than or equal to ${param.max}.`));
    return param.fallback;
  }
  return value;
}

/** A snowflake cursor (`before`, `after`, `around`); absent (or empty) gives undefined. */
export function readSnowflakeParam(raw: unknown, name: string, issues: Issue[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = asText(raw);
  if (text === undefined || !isSnowflake(text)) {
    issues.push(issue([name], NUMBER_TYPE_COERCE, `Value "${text ?? ''}" is not snowflake.`));
    return undefined;
  }
  return text;
}

/** Compares two snowflakes as the 64-bit numbers they are. */
export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** A page of a list ordered by id: at most `limit`, after / before the cursors, or around one. */
export interface Page {
  limit: number;
  before?: string;
  after?: string;
  around?: string;
}

/**
 * The page of `items` (any order) as v10 returns messages: newest first. `around` takes precedence
 * and gives the message itself with the older half and the newer half of the limit; otherwise
 * `after` alone gives the oldest `limit` newer than it, and `before` (with or without `after`) the
 * newest `limit` in range.
 */
export function selectPage<T>(items: readonly T[], page: Page, id: (item: T) => string): T[] {
  const newestFirst = (a: T, b: T) => compareSnowflakes(id(b), id(a));
  if (page.around !== undefined) {
    const around = page.around;
    const newerCount = Math.floor(page.limit / 2);
    const newer = items
      .filter((m) => compareSnowflakes(id(m), around) > 0)
      .sort((a, b) => -newestFirst(a, b))
      .slice(0, newerCount);
    const older = items
      .filter((m) => compareSnowflakes(id(m), around) <= 0)
      .sort(newestFirst)
      .slice(0, page.limit - newer.length);
    return [...newer.reverse(), ...older];
  }
  const inRange = items.filter(
    (m) =>
      (page.before === undefined || compareSnowflakes(id(m), page.before) < 0) &&
      (page.after === undefined || compareSnowflakes(id(m), page.after) > 0),
  );
  if (page.after !== undefined && page.before === undefined) {
    return inRange
      .sort((a, b) => -newestFirst(a, b))
      .slice(0, page.limit)
      .reverse();
  }
  return inRange.sort(newestFirst).slice(0, page.limit);
}
