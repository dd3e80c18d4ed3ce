/**
 * What the thread endpoints' bodies may hold (v10 Start Thread from Message / without Message,
 * Modify Channel for a thread): one small reader per field, each limit a named constant. Pure.
 */
import { ChannelType } from 'discord-api-types/v10';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isRecord, readBoolean, readInteger, readString, type JsonRecord } from '../../../core/io/read.js';
import {
  reportAboveMax,
  reportBadLength,
  reportBelowMin,
  reportNotObject,
  reportNotOneOf,
  reportRequired,
  type Issues,
} from '../../../core/io/report.js';
import { resultOf, type Result } from '../../../core/io/result.js';

/** A thread's name: 1 to 100 characters (v10). */
export const THREAD_NAME_MAX = 100;
/** The auto-archive durations v10 accepts, in minutes. */
export const AUTO_ARCHIVE_DURATIONS: readonly number[] = [60, 1440, 4320, 10080];
/** The longest slowmode, in seconds (v10). */
export const MAX_RATE_LIMIT_PER_USER = 21_600;
/** The thread types `POST /channels/{id}/threads` may ask for: announcement, public, private. */
export const CREATABLE_THREAD_TYPES: readonly number[] = [
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
];
/** v10's default type for a thread started without a message. */
export const DEFAULT_THREAD_TYPE = ChannelType.PrivateThread;

/** A new thread's fields as asked for (the type only without a message). */
export interface ThreadCreateRequest {
  name: string;
  type: number | null;
  auto_archive_duration: number | null;
  invitable: boolean | null;
  rate_limit_per_user: number | null;
}

/** A thread's edit: only the fields given. */
export interface ThreadEditRequest {
  name?: string;
  archived?: boolean;
  locked?: boolean;
  auto_archive_duration?: number;
  invitable?: boolean;
  rate_limit_per_user?: number;
}

function readName(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const name = readString(value, path, issues);
  if (name === undefined) return undefined;
  if (name.length < 1 || name.length > THREAD_NAME_MAX) {
    reportBadLength(issues, path, 1, THREAD_NAME_MAX);
    return undefined;
  }
  return name;
}

function readOneOf(allowed: readonly number[]) {
  return (value: unknown, path: IssuePath, issues: Issues): number | undefined => {
    const read = readInteger(value, path, issues);
    if (read === undefined) return undefined;
    if (!allowed.includes(read)) {
      reportNotOneOf(issues, path, allowed);
      return undefined;
    }
    return read;
  };
}

function readRateLimit(value: unknown, path: IssuePath, issues: Issues): number | undefined {
  const read = readInteger(value, path, issues);
  if (read === undefined) return undefined;
  if (read < 0) reportBelowMin(issues, path, 0);
  else if (read > MAX_RATE_LIMIT_PER_USER) reportAboveMax(issues, path, MAX_RATE_LIMIT_PER_USER);
  else return read;
  return undefined;
}

/** A field read when given (null counts as not given); undefined otherwise. */
function given<T>(
  body: JsonRecord,
  key: string,
  read: (v: unknown, p: IssuePath, i: Issues) => T | undefined,
  issues: Issues,
): T | undefined {
  const value = fieldOf(body, key);
  return value === undefined || value === null ? undefined : read(value, [key], issues);
}

/** `POST /channels/{c}/threads` (`withType`) or `POST /channels/{c}/messages/{m}/threads`. */
export function readThreadCreate(body: unknown, withType: boolean): Result<ThreadCreateRequest> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return resultOf<ThreadCreateRequest>(undefined, issues);
  }
  const rawName = fieldOf(body, 'name');
  if (rawName === undefined || rawName === null) reportRequired(issues, ['name']);
  const name = rawName === undefined || rawName === null ? undefined : readName(rawName, ['name'], issues);
  const request: ThreadCreateRequest = {
    name: name ?? '',
    type: withType ? (given(body, 'type', readOneOf(CREATABLE_THREAD_TYPES), issues) ?? null) : null,
    auto_archive_duration: given(body, 'auto_archive_duration', readOneOf(AUTO_ARCHIVE_DURATIONS), issues) ?? null,
    invitable: withType ? (given(body, 'invitable', readBoolean, issues) ?? null) : null,
    rate_limit_per_user: given(body, 'rate_limit_per_user', readRateLimit, issues) ?? null,
  };
  return resultOf(request, issues);
}

/** `PATCH /channels/{t}` on a thread. */
export function readThreadEdit(body: unknown): Result<ThreadEditRequest> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return resultOf<ThreadEditRequest>(undefined, issues);
  }
  const edit: ThreadEditRequest = {};
  const name = given(body, 'name', readName, issues);
  if (name !== undefined) edit.name = name;
  const archived = given(body, 'archived', readBoolean, issues);
  if (archived !== undefined) edit.archived = archived;
  const locked = given(body, 'locked', readBoolean, issues);
  if (locked !== undefined) edit.locked = locked;
  const duration = given(body, 'auto_archive_duration', readOneOf(AUTO_ARCHIVE_DURATIONS), issues);
  if (duration !== undefined) edit.auto_archive_duration = duration;
  const invitable = given(body, 'invitable', readBoolean, issues);
  if (invitable !== undefined) edit.invitable = invitable;
  const rateLimit = given(body, 'rate_limit_per_user', readRateLimit, issues);
  if (rateLimit !== undefined) edit.rate_limit_per_user = rateLimit;
  return resultOf(edit, issues);
}
