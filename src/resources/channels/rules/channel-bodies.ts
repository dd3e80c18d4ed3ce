/**
 * What a guild channel's create or edit body may hold (v10 `POST /guilds/{g}/channels`, `PATCH
 * /channels/{c}`), and a permission overwrite's (`PUT /channels/{c}/permissions/{id}`). Pure.
 */
import { fieldOf, isAbsent, isRecord, readList, readSnowflake, type JsonRecord } from '../../../core/io/read.js';
import {
  reportAboveMax,
  reportNotObject,
  reportNotOneOf,
  reportRequired,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { IssuePath } from '../../../core/io/issue.js';
import type { PermissionOverwrite } from '../../../core/world/types.js';
import { optionalBoolean, optionalInteger, optionalText, readBitSet } from '../../guild-structure/rules/fields.js';

/** The channel types a bot creates: text, voice, category, announcement, forum. */
export const CREATABLE_CHANNEL_TYPES = [0, 2, 4, 5, 15] as const;
/** The longest channel name (v10). */
export const MAX_CHANNEL_NAME_LENGTH = 100;
/** The longest topic of a text or announcement channel (v10). */
export const MAX_TOPIC_LENGTH = 1024;
/** The longest topic of a forum channel (v10). */
export const MAX_FORUM_TOPIC_LENGTH = 4096;
/** The longest slowmode, in seconds: six hours (v10). */
export const MAX_RATE_LIMIT_PER_USER = 21600;
/** The most overwrites a channel holds, and a body may name (v10). */
export const MAX_OVERWRITES = 100;
/** The largest position a body may name: v10's int32. */
const MAX_POSITION = 2 ** 31 - 1;
/** v10's forum channel type: its topic may be longer. */
const FORUM_CHANNEL_TYPE = 15;

/** What a body sets; absent fields are left as they are (or default). */
export interface ChannelFields {
  name?: string;
  type?: number;
  topic?: string | null;
  nsfw?: boolean;
  rate_limit_per_user?: number;
  position?: number;
  /** null: no category. */
  parent_id?: string | null;
  permission_overwrites?: PermissionOverwrite[];
}

function readType(body: JsonRecord, issues: Issues): number | undefined {
  const value = fieldOf(body, 'type');
  if (isAbsent(value)) return undefined;
  if ((CREATABLE_CHANNEL_TYPES as readonly unknown[]).includes(value)) return value as number;
  reportNotOneOf(issues, ['type'], CREATABLE_CHANNEL_TYPES);
  return undefined;
}

/** A topic: null clears it; its bound depends on the channel's type. */
function readTopic(body: JsonRecord, type: number, issues: Issues): string | null | undefined {
  if (!Object.hasOwn(body, 'topic')) return undefined;
  if (body.topic === null) return null;
  const max = type === FORUM_CHANNEL_TYPE ? MAX_FORUM_TOPIC_LENGTH : MAX_TOPIC_LENGTH;
  return optionalText(body, 'topic', 0, max, issues);
}

function readParent(body: JsonRecord, issues: Issues): string | null | undefined {
  if (!Object.hasOwn(body, 'parent_id')) return undefined;
  return body.parent_id === null ? null : readSnowflake(body.parent_id, ['parent_id'], issues);
}

/** One overwrite: `id` and `type` (0 role, 1 member), `allow` and `deny` (absent: none). */
export function readOverwrite(value: unknown, path: IssuePath, issues: Issues): PermissionOverwrite | undefined {
  if (!isRecord(value)) {
    reportNotObject(issues, path);
    return undefined;
  }
  const id = isAbsent(value.id)
    ? reportRequired(issues, [...path, 'id'])
    : readSnowflake(value.id, [...path, 'id'], issues);
  const type = readOverwriteFields(value, path, issues);
  return id === undefined || type === undefined ? undefined : { id, ...type };
}

/** An overwrite's `type`, `allow` and `deny` (a PUT's body has no `id`: the path names it). */
export function readOverwriteFields(
  value: JsonRecord,
  path: IssuePath,
  issues: Issues,
): Omit<PermissionOverwrite, 'id'> | undefined {
  const type = fieldOf(value, 'type');
  let kind: 0 | 1 | undefined;
  if (isAbsent(type)) reportRequired(issues, [...path, 'type']);
  else if (type === 0 || type === 1 || type === '0' || type === '1') kind = Number(type) as 0 | 1;
  else reportNotOneOf(issues, [...path, 'type'], [0, 1]);
  const allow = isAbsent(value.allow) ? '0' : readBitSet(value.allow, [...path, 'allow'], issues);
  const deny = isAbsent(value.deny) ? '0' : readBitSet(value.deny, [...path, 'deny'], issues);
  return kind === undefined || allow === undefined || deny === undefined ? undefined : { type: kind, allow, deny };
}

function readOverwrites(body: JsonRecord, issues: Issues): PermissionOverwrite[] | undefined {
  const value = fieldOf(body, 'permission_overwrites');
  if (isAbsent(value)) return undefined;
  const list = readList(value, ['permission_overwrites'], issues);
  if (!list) return undefined;
  if (list.length > MAX_OVERWRITES) {
    reportAboveMax(issues, ['permission_overwrites'], MAX_OVERWRITES);
    return undefined;
  }
  const overwrites = new Map<string, PermissionOverwrite>();
  list.forEach((item, index) => {
    const overwrite = readOverwrite(item, ['permission_overwrites', index], issues);
    // v10 keeps one overwrite per id: the last one named.
    if (overwrite) overwrites.set(overwrite.id, overwrite);
  });
  return [...overwrites.values()];
}

/**
 * A create body (`name` required) or an edit body (everything optional); `currentType` is the
 * edited channel's, which bounds its topic.
 */
export function readChannelBody(body: unknown, edit: { currentType: number } | null): Result<ChannelFields> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    if (edit && isAbsent(body)) return ok({});
    reportNotObject(issues, []);
    return fail(issues);
  }
  const fields: ChannelFields = {};
  if (!edit && isAbsent(fieldOf(body, 'name'))) reportRequired(issues, ['name']);
  const name = optionalText(body, 'name', 1, MAX_CHANNEL_NAME_LENGTH, issues);
  if (name !== undefined) fields.name = name;
  const type = readType(body, issues);
  if (type !== undefined) fields.type = type;
  const topic = readTopic(body, type ?? edit?.currentType ?? 0, issues);
  if (topic !== undefined) fields.topic = topic;
  const nsfw = optionalBoolean(body, 'nsfw', issues);
  if (nsfw !== undefined) fields.nsfw = nsfw;
  const slowmode = optionalInteger(body, 'rate_limit_per_user', 0, MAX_RATE_LIMIT_PER_USER, issues);
  if (slowmode !== undefined) fields.rate_limit_per_user = slowmode;
  const position = optionalInteger(body, 'position', 0, MAX_POSITION, issues);
  if (position !== undefined) fields.position = position;
  const parent = readParent(body, issues);
  if (parent !== undefined) fields.parent_id = parent;
  const overwrites = readOverwrites(body, issues);
  if (overwrites !== undefined) fields.permission_overwrites = overwrites;
  return issues.length > 0 ? fail(issues) : ok(fields);
}
