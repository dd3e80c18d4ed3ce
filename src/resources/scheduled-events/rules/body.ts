/**
 * What a scheduled event's create and edit bodies may hold (v10 Guild Scheduled Event endpoints):
 * one small reader per field, each limit a named constant. Pure: the service decides with the guild
 * and the clock in hand; these only read what the body says.
 */
import {
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
} from 'discord-api-types/v10';
import { GUILD_SCHEDULED_EVENT_STATUS_INVALID } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isAbsent, isRecord, readInteger, readSnowflake, readString, type JsonRecord } from '../../../core/io/read.js';
import {
  report,
  reportBadLength,
  reportNotObject,
  reportNotOneOf,
  reportNotString,
  reportRequired,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { readDateTime } from './date-time.js';
import { readImageDataUri, type ImageData } from '../../../core/image-data.js';
import { readRecurrenceRule, type RecurrenceRule } from './recurrence.js';

/** The longest event name (v10). */
export const EVENT_NAME_MAX = 100;
/** The longest description (v10). */
export const EVENT_DESCRIPTION_MAX = 1000;
/** The largest cover image taken, decoded (v10's upload limit for an event cover). */
export const EVENT_IMAGE_BYTES_MAX = 10 * 1024 * 1024;
/** The longest `entity_metadata.location` of an external event (v10). */
export const EVENT_LOCATION_MAX = 100;

const ENTITY_TYPES = [
  GuildScheduledEventEntityType.StageInstance,
  GuildScheduledEventEntityType.Voice,
  GuildScheduledEventEntityType.External,
] as const;
const STATUSES = [
  GuildScheduledEventStatus.Scheduled,
  GuildScheduledEventStatus.Active,
  GuildScheduledEventStatus.Completed,
  GuildScheduledEventStatus.Canceled,
] as const;

/** The fields a body set (an edit leaves out what it does not change). */
export interface EventFields {
  name?: string;
  description?: string | null;
  scheduledStartTime?: number;
  scheduledEndTime?: number | null;
  privacyLevel?: GuildScheduledEventPrivacyLevel;
  entityType?: GuildScheduledEventEntityType;
  channelId?: string | null;
  location?: string | null;
  recurrenceRule?: RecurrenceRule | null;
  image?: ImageData | null;
  status?: GuildScheduledEventStatus;
}

function readName(value: unknown, issues: Issues): string | undefined {
  const name = readString(value, ['name'], issues);
  if (name !== undefined && (name.trim().length === 0 || name.length > EVENT_NAME_MAX)) {
    reportBadLength(issues, ['name'], 1, EVENT_NAME_MAX);
  }
  return name;
}

function readDescription(value: unknown, issues: Issues): string | null | undefined {
  if (value === null) return null;
  const text = readString(value, ['description'], issues);
  if (text !== undefined && text.length > EVENT_DESCRIPTION_MAX)
    reportBadLength(issues, ['description'], 0, EVENT_DESCRIPTION_MAX);
  return text === '' ? null : text;
}

function readChoice<T extends number>(
  value: unknown,
  path: IssuePath,
  choices: readonly T[],
  issues: Issues,
): T | undefined {
  const n = readInteger(value, path, issues);
  if (n === undefined) return undefined;
  if (!choices.includes(n as T)) {
    reportNotOneOf(issues, path, choices);
    return undefined;
  }
  return n as T;
}

/** `entity_metadata`: null, or `{location}` (1-100 characters). */
function readLocation(value: unknown, issues: Issues): string | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) {
    reportNotObject(issues, ['entity_metadata']);
    return undefined;
  }
  if (isAbsent(value.location)) return null;
  const path = ['entity_metadata', 'location'];
  if (typeof value.location !== 'string') {
    reportNotString(issues, path, value.location);
    return undefined;
  }
  if (value.location.length < 1 || value.location.length > EVENT_LOCATION_MAX)
    reportBadLength(issues, path, 1, EVENT_LOCATION_MAX);
  return value.location;
}

/** Reads each field the body holds; `undefined` where it holds none. */
function readFields(body: JsonRecord, issues: Issues): EventFields {
  const fields: EventFields = {};
  const set = <K extends keyof EventFields>(key: K, value: EventFields[K] | undefined) => {
    if (value !== undefined) fields[key] = value;
  };
  if (body.name !== undefined) set('name', readName(body.name, issues));
  if (body.description !== undefined) set('description', readDescription(body.description, issues));
  if (body.scheduled_start_time !== undefined) {
    set('scheduledStartTime', readDateTime(body.scheduled_start_time, ['scheduled_start_time'], issues));
  }
  if (body.scheduled_end_time !== undefined) {
    const path = ['scheduled_end_time'];
    set(
      'scheduledEndTime',
      body.scheduled_end_time === null ? null : readDateTime(body.scheduled_end_time, path, issues),
    );
  }
  if (body.privacy_level !== undefined) {
    set(
      'privacyLevel',
      readChoice(body.privacy_level, ['privacy_level'], [GuildScheduledEventPrivacyLevel.GuildOnly], issues),
    );
  }
  if (!isAbsent(body.entity_type))
    set('entityType', readChoice(body.entity_type, ['entity_type'], ENTITY_TYPES, issues));
  if (body.channel_id !== undefined) {
    set('channelId', body.channel_id === null ? null : readSnowflake(body.channel_id, ['channel_id'], issues));
  }
  if (body.entity_metadata !== undefined) set('location', readLocation(body.entity_metadata, issues));
  if (body.recurrence_rule !== undefined) {
    set('recurrenceRule', body.recurrence_rule === null ? null : readRecurrenceRule(body.recurrence_rule, issues));
  }
  if (body.image !== undefined)
    set('image', body.image === null ? null : readImageDataUri(body.image, ['image'], issues, EVENT_IMAGE_BYTES_MAX));
  if (!isAbsent(body.status)) set('status', readChoice(body.status, ['status'], STATUSES, issues));
  return fields;
}

/** The body of `POST /guilds/{g}/scheduled-events`: name, start time, privacy level and entity type required. */
export function readCreateBody(body: unknown): Result<EventFields> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const fields = readFields(body, issues);
  for (const key of ['name', 'scheduled_start_time', 'privacy_level', 'entity_type'] as const) {
    if (isAbsent(body[key])) reportRequired(issues, [key]);
  }
  if (body.status !== undefined)
    report(
      issues,
      ['status'],
      GUILD_SCHEDULED_EVENT_STATUS_INVALID,
      'A new event is scheduled: its status cannot be set.',
    );
  return issues.length > 0 ? fail(issues) : ok(fields);
}

/** The body of `PATCH /guilds/{g}/scheduled-events/{e}`: any of the fields, `status` too. */
export function readEditBody(body: unknown): Result<EventFields> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const fields = readFields(body, issues);
  return issues.length > 0 ? fail(issues) : ok(fields);
}
