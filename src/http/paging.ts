/** The paging query parameters of the v10 reads, read once per request into a 50035 or a page. */
import { invalidFormBody } from '../core/io/errors.js';
import type { Issue } from '../core/io/issue.js';
import { readIntegerParam, readSnowflakeParam, type IntegerParam, type Page } from '../core/world/page-query.js';

/** `GET /channels/{id}/messages`: `limit` 1-100, default 50 (v10). */
export const MESSAGES_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 100, fallback: 50 };
/** `GET /guilds/{id}/members`: `limit` 1-1000, default 1 (v10). */
export const MEMBERS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 1000, fallback: 1 };
/** `GET /admin/guilds/{id}/members`: `limit` 1-1000 as v10's list, but 1000 by default (an operator reads pages whole). */
export const ADMIN_MEMBERS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 1000, fallback: 1000 };
/** `GET /users/@me/guilds`: `limit` 1-200, default 200 (v10). */
export const GUILDS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 200, fallback: 200 };

export type PagingQuery = Partial<Record<'limit' | 'before' | 'after' | 'around', unknown>>;

/** The page a query asks for; `cursors` names the cursors the endpoint reads (others are ignored). */
export function readPage(
  query: PagingQuery | undefined,
  limit: IntegerParam,
  cursors: readonly ('before' | 'after' | 'around')[],
): Page {
  const issues: Issue[] = [];
  const page: Page = { limit: readIntegerParam(query?.limit, limit, issues) };
  for (const cursor of cursors) {
    const value = readSnowflakeParam(query?.[cursor], cursor, issues);
    if (value !== undefined) page[cursor] = value;
  }
  if (issues.length > 0) throw invalidFormBody(issues);
  return page;
}
