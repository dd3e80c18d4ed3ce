/**
 * Who may replace a command's (or the app's) permission overwrites in a guild. The v10 API leaves
 * the complete list "not shown"; slashd's list, in the order checked, is in docs/permissions.md.
 * The caller has already checked the token (a Bearer token with
 * `applications.commands.permissions.update` for a user) and validated the body.
 */
import type { StoredCommand } from '../commands/model.js';
import { apiError, type ApiError } from '../io/errors.js';
import type { Application, Guild, Member, User } from '../world/types.js';
import { MANAGE_GUILD, MANAGE_ROLES, hasAll } from './bits.js';
import { basePermissions, canViewChannel } from './channel-permissions.js';
import { canHostCommands, findChannel } from './channels.js';
import { CommandPermissionType, allChannelsId, type CommandPermission } from './command-permissions.js';
import { evaluateCommandAccess } from './engine.js';
import { canManageRole, rolePosition } from './role-hierarchy.js';
import { isMember } from '../world/member-index.js';

/** Why an editor is refused, in the order the checks run. */
export const EditorReason = {
  /** The user is not a member of the guild. */
  NotMember: 'not_member',
  /** Neither owner nor administrator, and without MANAGE_GUILD and MANAGE_ROLES. */
  MissingManageGuildAndRoles: 'missing_manage_guild_and_roles',
  /** The editor cannot use the command in any channel of the guild. */
  CannotUseCommand: 'cannot_use_command',
  /** An added, changed or removed overwrite names a role at or above the editor's highest role. */
  RoleNotManageable: 'role_not_manageable',
  /** An added or changed overwrite names a user who is not a member of the guild. */
  UserNotMember: 'user_not_member',
  /** An added, changed or removed overwrite names a channel the editor cannot view. */
  ChannelNotVisible: 'channel_not_visible',
} as const;
export type EditorReasonCode = (typeof EditorReason)[keyof typeof EditorReason];

/** The first refusal found, or null when the edit is allowed. */
export type EditorCheck = EditorReasonCode | null;

export interface PermissionEditorInput {
  readonly app: Application;
  readonly guild: Guild;
  /** The user the Bearer token acts for. */
  readonly user: User;
  /** The user's membership in the guild; null when not a member. */
  readonly member: Member | null;
  /** The command whose overwrites are edited; null for the app-level object. */
  readonly command: StoredCommand | null;
  /** The command's overwrites stored now (ignored for an app-level edit); null when none. */
  readonly commandPermissions: readonly CommandPermission[] | null;
  /** The app-level overwrites stored now; null when none. */
  readonly appPermissions: readonly CommandPermission[] | null;
  /** The new overwrites, already validated against the guild. */
  readonly permissions: readonly CommandPermission[];
  /** The app is installed in the guild with `applications.commands` or `bot`. */
  readonly installed: boolean;
}

const OK: EditorCheck = null;

/**
 * The v10 error of a refusal: 403 for all, 50001 Missing Access for a non-member (they cannot see
 * the guild), 50013 Missing Permissions for the rest.
 */
export function editorRefusal(reason: EditorReasonCode): ApiError {
  return apiError(reason === EditorReason.NotMember ? 'MissingAccess' : 'MissingPermissions');
}

/** Overwrites the edit sets (new, or with a new value) and those it removes. */
interface OverwriteChanges {
  readonly set: readonly CommandPermission[];
  readonly removed: readonly CommandPermission[];
}

const overwriteKey = (overwrite: CommandPermission): string => `${overwrite.type}:${overwrite.id}`;

/**
 * Only what changes is checked: an editor may keep an overwrite they could not have made (one for
 * a role above them, say) while editing the rest; a PUT must repeat it to keep it.
 */
function overwriteChanges(current: readonly CommandPermission[], next: readonly CommandPermission[]): OverwriteChanges {
  const currentByKey = new Map(current.map((overwrite) => [overwriteKey(overwrite), overwrite]));
  const nextKeys = new Set(next.map(overwriteKey));
  return {
    set: next.filter((overwrite) => currentByKey.get(overwriteKey(overwrite))?.permission !== overwrite.permission),
    removed: current.filter((overwrite) => !nextKeys.has(overwriteKey(overwrite))),
  };
}

function ofType(overwrites: readonly CommandPermission[], type: CommandPermission['type']): CommandPermission[] {
  return overwrites.filter((overwrite) => overwrite.type === type);
}

function checkManagesGuildAndRoles(guild: Guild, member: Member): EditorCheck {
  // Owners and administrators have every bit in their base permissions.
  return hasAll(basePermissions(guild, member), MANAGE_GUILD | MANAGE_ROLES)
    ? OK
    : EditorReason.MissingManageGuildAndRoles;
}

/** The editor must be able to use the command somewhere in the guild: app-level edits need no command. */
function checkCanUseCommand(input: PermissionEditorInput, member: Member): EditorCheck {
  const { command, guild } = input;
  if (!command) return OK;
  const usableSomewhere = guild.channels.some(
    (channel) => canHostCommands(channel) && evaluateCommandAccess({ ...input, command, member, channel }).allowed,
  );
  return usableSomewhere ? OK : EditorReason.CannotUseCommand;
}

function checkRoles(guild: Guild, member: Member, changes: OverwriteChanges): EditorCheck {
  const setRoles = ofType(changes.set, CommandPermissionType.Role);
  // A removed overwrite for a role deleted since is no one's role: removing it harms no hierarchy.
  const removedRoles = ofType(changes.removed, CommandPermissionType.Role).filter(
    (overwrite) => rolePosition(guild, overwrite.id) !== null,
  );
  const allManageable = [...setRoles, ...removedRoles].every((overwrite) => canManageRole(guild, member, overwrite.id));
  return allManageable ? OK : EditorReason.RoleNotManageable;
}

function checkUsers(guild: Guild, changes: OverwriteChanges): EditorCheck {
  const allMembers = ofType(changes.set, CommandPermissionType.User).every((overwrite) =>
    isMember(guild, overwrite.id),
  );
  return allMembers ? OK : EditorReason.UserNotMember;
}

function checkChannels(guild: Guild, member: Member, changes: OverwriteChanges): EditorCheck {
  const touched = [
    ...ofType(changes.set, CommandPermissionType.Channel),
    ...ofType(changes.removed, CommandPermissionType.Channel),
  ];
  const allVisible = touched.every((overwrite) => {
    if (overwrite.id === allChannelsId(guild.id)) return true;
    const channel = findChannel(guild, overwrite.id);
    // A channel deleted since can only be removed; one being set must exist and be visible.
    if (!channel) return !changes.set.includes(overwrite);
    return canViewChannel(guild, member, channel);
  });
  return allVisible ? OK : EditorReason.ChannelNotVisible;
}

/**
 * May this user read and manage command permissions in the guild at all (checks 1 and 2)? What a
 * user session needs to read them, and to list the guild's commands for the editor.
 */
export function checkPermissionManager(guild: Guild, member: Member | null): EditorCheck {
  if (!member) return EditorReason.NotMember;
  return checkManagesGuildAndRoles(guild, member);
}

/** May this user replace these overwrites? Checks run in order; the first refusal's reason is returned. */
export function checkPermissionEditor(input: PermissionEditorInput): EditorCheck {
  const { guild, member } = input;
  if (!member) return EditorReason.NotMember;
  const current = (input.command ? input.commandPermissions : input.appPermissions) ?? [];
  const changes = overwriteChanges(current, input.permissions);
  const checks: readonly (() => EditorCheck)[] = [
    () => checkManagesGuildAndRoles(guild, member),
    () => checkCanUseCommand(input, member),
    () => checkRoles(guild, member, changes),
    () => checkUsers(guild, changes),
    () => checkChannels(guild, member, changes),
  ];
  for (const check of checks) {
    const refusal = check();
    if (refusal) return refusal;
  }
  return OK;
}
