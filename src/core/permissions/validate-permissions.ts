/**
 * Validation of the Edit Application Command Permissions body, `{permissions: [...]}`, against the
 * guild it targets. Every rule is one small function that returns an Issue or null; the validator
 * collects them all, so a client sees every problem of a body at once. It never throws, whatever
 * JSON it is given.
 */
import { issue, type Issue, type IssuePath } from '../io/issue.js';
import { isSnowflake } from '../snowflake.js';
import type { Guild } from '../world/types.js';
import { findChannel, isThread } from './channels.js';
import {
  CommandPermissionType,
  MAX_COMMAND_PERMISSIONS,
  allChannelsId,
  everyoneId,
  type CommandPermission,
  type CommandPermissionTypeValue,
} from './command-permissions.js';

/** The string codes this validator reports (docs/v10-behaviour.md#errors: v10 style, listed in docs/permissions.md). */
export const PermissionsBodyCode = {
  /** A required field is missing or null. */
  Required: 'BASE_TYPE_REQUIRED',
  /** The body, or an item of `permissions`, is not a JSON object. */
  NotAnObject: 'DICT_TYPE_CONVERT',
  /** `permissions` is not an array. */
  NotAList: 'LIST_TYPE_CONVERT',
  /** `permissions` has more than 100 items. */
  TooMany: 'BASE_TYPE_MAX_LENGTH',
  /** `type` is not an integer, or `id` is not a snowflake string (v10 reports both so). */
  NotANumber: 'NUMBER_TYPE_COERCE',
  /** `type` is an integer other than 1, 2 or 3. */
  NotAChoice: 'BASE_TYPE_CHOICES',
  /** `permission` is not a boolean. */
  NotABoolean: 'BOOLEAN_TYPE_COERCE',
  /** A ROLE overwrite names no role of the guild (the guild id is @everyone). */
  UnknownRole: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE',
  /** A USER overwrite names no member of the guild. */
  UnknownUser: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER',
  /** A CHANNEL overwrite names no channel of the guild (the guild id minus 1 is every channel). */
  UnknownChannel: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL',
  /** A CHANNEL overwrite names a thread: a thread always follows its parent, so it could never apply. */
  ThreadChannel: 'APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL',
  /** An id appears in more than one overwrite. */
  DuplicateId: 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID',
} as const;

/** The valid values of an overwrite's `type`. */
const PERMISSION_TYPES: ReadonlySet<number> = new Set(Object.values(CommandPermissionType));
/** How much of a bad value an error message quotes. */
const QUOTED_VALUE_MAX_LENGTH = 64;

export type PermissionsBodyResult = { ok: true; value: CommandPermission[] } | { ok: false; issues: Issue[] };

type JsonObject = Readonly<Record<string, unknown>>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, never-throwing rendering of a bad value for an error message. */
function quote(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, QUOTED_VALUE_MAX_LENGTH);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function notAnObject(path: IssuePath): Issue {
  return issue(path, PermissionsBodyCode.NotAnObject, 'Only dictionaries may be used in a DictType');
}

function checkPresent(value: unknown, path: IssuePath): Issue | null {
  return value === undefined || value === null
    ? issue(path, PermissionsBodyCode.Required, 'This field is required')
    : null;
}

function checkIsList(value: unknown, path: IssuePath): Issue | null {
  return Array.isArray(value)
    ? null
    : issue(path, PermissionsBodyCode.NotAList, 'Only iterables may be used in a ListType');
}

function checkListLength(list: unknown, path: IssuePath): Issue | null {
  return !Array.isArray(list) || list.length <= MAX_COMMAND_PERMISSIONS
    ? null
    : issue(path, PermissionsBodyCode.TooMany, `Must be ${MAX_COMMAND_PERMISSIONS} or fewer in length.`);
}

function checkSnowflake(value: unknown, path: IssuePath): Issue | null {
  return isSnowflake(value)
    ? null
    : issue(path, PermissionsBodyCode.NotANumber, `Value "${quote(value)}" is not snowflake.`);
}

function checkInteger(value: unknown, path: IssuePath): Issue | null {
  return Number.isInteger(value)
    ? null
    : issue(path, PermissionsBodyCode.NotANumber, `Value "${quote(value)}" is not int.`);
}

function checkPermissionType(value: unknown, path: IssuePath): Issue | null {
  return isPermissionType(value)
    ? null
    : issue(path, PermissionsBodyCode.NotAChoice, 'Value must be one of {1, 2, 3}.');
}

function checkBoolean(value: unknown, path: IssuePath): Issue | null {
  return typeof value === 'boolean'
    ? null
    : issue(path, PermissionsBodyCode.NotABoolean, `Value "${quote(value)}" is not bool.`);
}

function checkRoleExists(id: string, guild: Guild, path: IssuePath): Issue | null {
  const exists = id === everyoneId(guild.id) || guild.roles.some((role) => role.id === id);
  return exists ? null : issue(path, PermissionsBodyCode.UnknownRole, `Unknown role: ${id}`);
}

function checkMemberExists(id: string, guild: Guild, path: IssuePath): Issue | null {
  const exists = guild.members.some((member) => member.user_id === id);
  return exists ? null : issue(path, PermissionsBodyCode.UnknownUser, `Unknown user: ${id}`);
}

function checkChannelTarget(id: string, guild: Guild, path: IssuePath): Issue | null {
  if (id === allChannelsId(guild.id)) return null;
  const channel = findChannel(guild, id);
  if (!channel) return issue(path, PermissionsBodyCode.UnknownChannel, `Unknown channel: ${id}`);
  return isThread(channel)
    ? issue(path, PermissionsBodyCode.ThreadChannel, 'Threads follow the command permissions of their parent channel')
    : null;
}

function checkTargetExists(id: string, type: CommandPermissionTypeValue, guild: Guild, path: IssuePath): Issue | null {
  switch (type) {
    case CommandPermissionType.Role:
      return checkRoleExists(id, guild, path);
    case CommandPermissionType.User:
      return checkMemberExists(id, guild, path);
    case CommandPermissionType.Channel:
      return checkChannelTarget(id, guild, path);
  }
}

function checkNotSeen(id: string, seen: ReadonlySet<string>, path: IssuePath): Issue | null {
  return seen.has(id) ? issue(path, PermissionsBodyCode.DuplicateId, `Duplicate overwrite for id ${id}`) : null;
}

/** The first issue of a chain of checks, each run only when the ones before it passed. */
function firstIssue(...checks: (() => Issue | null)[]): Issue | null {
  for (const check of checks) {
    const found = check();
    if (found) return found;
  }
  return null;
}

function isPermissionType(value: unknown): value is CommandPermissionTypeValue {
  return typeof value === 'number' && PERMISSION_TYPES.has(value);
}

/** The issues of one item; `seen` collects the ids of earlier items for the duplicate rule. */
function validateItem(
  item: unknown,
  index: number,
  guild: Guild,
  seen: Set<string>,
): { issues: Issue[]; value?: CommandPermission } {
  const path: IssuePath = ['permissions', index];
  if (!isJsonObject(item)) return { issues: [notAnObject(path)] };

  const idPath = [...path, 'id'];
  const typePath = [...path, 'type'];
  const permissionPath = [...path, 'permission'];
  const { id, type, permission } = item;

  const idIssue = firstIssue(
    () => checkPresent(id, idPath),
    () => checkSnowflake(id, idPath),
  );
  const typeIssue = firstIssue(
    () => checkPresent(type, typePath),
    () => checkInteger(type, typePath),
    () => checkPermissionType(type, typePath),
  );
  const permissionIssue = firstIssue(
    () => checkPresent(permission, permissionPath),
    () => checkBoolean(permission, permissionPath),
  );
  const targetIssue = isSnowflake(id)
    ? firstIssue(
        () => checkNotSeen(id, seen, idPath),
        () => (isPermissionType(type) ? checkTargetExists(id, type, guild, idPath) : null),
      )
    : null;
  if (isSnowflake(id)) seen.add(id);

  const issues = [idIssue, targetIssue, typeIssue, permissionIssue].filter((found): found is Issue => found !== null);
  if (issues.length > 0 || !isSnowflake(id) || !isPermissionType(type) || typeof permission !== 'boolean')
    return { issues };
  return { issues, value: { id, type, permission } };
}

/**
 * Validates a PUT command permissions body for `guild`. The value holds the overwrites with only
 * their three fields (unknown fields are ignored, docs/v10-behaviour.md#compatibility-decisions). A list over the limit is
 * reported once, without checking its items: their number is already the problem.
 */
export function validatePermissionsBody(body: unknown, guild: Guild): PermissionsBodyResult {
  if (!isJsonObject(body)) return { ok: false, issues: [notAnObject([])] };

  const permissions = body.permissions;
  const listIssue = firstIssue(
    () => checkPresent(permissions, ['permissions']),
    () => checkIsList(permissions, ['permissions']),
    () => checkListLength(permissions, ['permissions']),
  );
  if (listIssue || !Array.isArray(permissions)) return { ok: false, issues: listIssue ? [listIssue] : [] };

  const issues: Issue[] = [];
  const value: CommandPermission[] = [];
  const seen = new Set<string>();
  permissions.forEach((item: unknown, index) => {
    const result = validateItem(item, index, guild, seen);
    issues.push(...result.issues);
    if (result.value) value.push(result.value);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}
