/**
 * The body and answer of `POST /attachments/refresh-urls` (v10: `{"attachment_urls": [...]}` answers
 * `{"refreshed_urls": [{"original", "refreshed"}]}`; discord-api-types has no type for either).
 */
import type { IssuePath } from '../../../core/io/issue.js';
import { readList, readRecord, readRequired, readString } from '../../../core/io/read.js';
import { reportTooLong, type Issues } from '../../../core/io/report.js';
import { resultOf, type Result } from '../../../core/io/result.js';

/** Most URLs one request renews (v10 documents none; Discord's clients send them in batches of 50). */
export const REFRESH_URLS_MAX = 50;

/** One renewed URL, as v10 answers it. */
export interface RefreshedUrl {
  readonly original: string;
  readonly refreshed: string;
}

/** The answer's shape, v10's. */
export interface RefreshedUrls {
  readonly refreshed_urls: readonly RefreshedUrl[];
}

function readUrls(value: unknown, path: IssuePath, issues: Issues): string[] | undefined {
  const list = readList(value, path, issues);
  if (list === undefined) return undefined;
  if (list.length > REFRESH_URLS_MAX) {
    reportTooLong(issues, path, REFRESH_URLS_MAX);
    return undefined;
  }
  const urls: string[] = [];
  list.forEach((item, index) => {
    const url = readString(item, [...path, index], issues);
    if (url !== undefined) urls.push(url);
  });
  return urls;
}

/** The URLs a body asks to renew, or the 50035 issues of `attachment_urls`. */
export function readRefreshRequest(body: unknown): Result<string[]> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  const urls = record ? readRequired(record.attachment_urls, ['attachment_urls'], issues, readUrls) : undefined;
  return resultOf(urls, issues);
}
