/**
 * Validation of the Edit Application Command Permissions body, `{permissions: [...]}`, against the
 * guild it targets. Every rule is one small function that returns an Issue or null; the validator
 * collects them all, so a client sees every problem of a body at once. It never throws, whatever
 * JSON it is given.
 */
import { enumValues } from '../enum-values.js';
import { isMember } from '../world/member-index.js';
import {
  APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID,
  APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL,
  APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL,
  APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE,
  APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER,
  BOOLEAN_TYPE_COERCE,
} from '../io/codes.js';
import { issue, type Issue, type IssuePath } from '../io/issue.js';
import { fieldOf, readInteger, readList, readRecord, readRequired, readSnowflake } from '../io/read.js';
import { report, reportNotOneOf, reportTooLong, type Issues } from '../io/report.js';
import { fail, ok, type Result } from '../io/result.js';
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

/** The valid values of an overwrite's `type`. */
const PERMISSION_TYPES: readonly number[] = enumValues(CommandPermissionType);

function isPermissionType(value: unknown): value is CommandPermissionTypeValue {
  return typeof value === 'number' && PERMISSION_TYPES.includes(value);
}

function readPermissionType(value: unknown, path: IssuePath, issues: Issues): CommandPermissionTypeValue | undefined {
  const type = readInteger(value, path, issues);
  if (type === undefined || isPermissionType(type)) return type;
  reportNotOneOf(issues, path, PERMISSION_TYPES);
  return undefined;
}

/** `permission` is a boolean; v10 names a wrong type here BOOLEAN_TYPE_COERCE (docs/permissions.md). */
function readPermissionFlag(value: unknown, path: IssuePath, issues: Issues): boolean | undefined {
  if (typeof value === 'boolean') return value;
  report(issues, path, BOOLEAN_TYPE_COERCE, 'Must be either true or false.');
  return undefined;
}

function checkRoleExists(id: string, guild: Guild, path: IssuePath): Issue | null {
  const exists = id === everyoneId(guild.id) || guild.roles.some((role) => role.id === id);
  return exists ? null : issue(path, APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE, `Unknown role: ${id}`);
}

function checkMemberExists(id: string, guild: Guild, path: IssuePath): Issue | null {
  const exists = isMember(guild, id);
  return exists ? null : issue(path, APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER, `Unknown user: ${id}`);
}

function checkChannelTarget(id: string, guild: Guild, path: IssuePath): Issue | null {
  if (id === allChannelsId(guild.id)) return null;
  const channel = findChannel(guild, id);
  if (!channel) return issue(path, APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL, `Unknown channel: ${id}`);
  return isThread(channel)
    ? issue(
        path,
        APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL,
        'Threads follow the command permissions of their parent channel',
      )
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
  return seen.has(id)
    ? issue(path, APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID, `Duplicate overwrite for id ${id}`)
    : null;
}

/** One item; `seen` collects the ids of earlier items for the duplicate rule. Issues are listed id, type, permission. */
function validateItem(
  item: unknown,
  index: number,
  guild: Guild,
  seen: Set<string>,
  issues: Issues,
): CommandPermission | undefined {
  const path: IssuePath = ['permissions', index];
  const record = readRecord(item, path, issues);
  if (!record) return undefined;
  const idPath = [...path, 'id'];
  const idIssues: Issues = [];
  const typeIssues: Issues = [];
  const permissionIssues: Issues = [];
  const id = readRequired(fieldOf(record, 'id'), idPath, idIssues, readSnowflake);
  const type = readRequired(fieldOf(record, 'type'), [...path, 'type'], typeIssues, readPermissionType);
  const permission = readRequired(
    fieldOf(record, 'permission'),
    [...path, 'permission'],
    permissionIssues,
    readPermissionFlag,
  );
  if (id !== undefined) {
    const targetIssue = seen.has(id)
      ? checkNotSeen(id, seen, idPath)
      : type === undefined
        ? null
        : checkTargetExists(id, type, guild, idPath);
    if (targetIssue) idIssues.push(targetIssue);
    seen.add(id);
  }
  issues.push(...idIssues, ...typeIssues, ...permissionIssues);
  if (id === undefined || type === undefined || permission === undefined) return undefined;
  return idIssues.length + typeIssues.length + permissionIssues.length > 0 ? undefined : { id, type, permission };
}

/**
 * Validates a PUT command permissions body for `guild`. The value holds the overwrites with only
 * their three fields (unknown fields are ignored, docs/v10-behaviour.md#compatibility-decisions). A list over the limit is
 * reported once, without checking its items: their number is already the problem.
 */
export function validatePermissionsBody(body: unknown, guild: Guild): Result<CommandPermission[]> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const permissions = readRequired(fieldOf(record, 'permissions'), ['permissions'], issues, readList);
  if (!permissions) return fail(issues);
  if (permissions.length > MAX_COMMAND_PERMISSIONS) {
    reportTooLong(issues, ['permissions'], MAX_COMMAND_PERMISSIONS);
    return fail(issues);
  }
  const value: CommandPermission[] = [];
  const seen = new Set<string>();
  permissions.forEach((item: unknown, index) => {
    const read = validateItem(item, index, guild, seen, issues);
    if (read) value.push(read);
  });
  return issues.length > 0 ? fail(issues) : ok(value);
}
