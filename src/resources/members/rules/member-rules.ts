/**
 * Who may act on whom (v10's role hierarchy, as a bot sees it), what a member edit needs, the
 * member it makes, and the audit changes it records. Pure: the time is passed in.
 */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { Refusal } from '../../../core/refusals.js';
import { AuditLogEvent, type AuditChange } from '../../audit-log/rules.js';
import { isAdministrator } from '../../../core/permissions/channel-permissions.js';
import {
  hasAll,
  KICK_MEMBERS,
  MANAGE_NICKNAMES,
  MANAGE_ROLES,
  MODERATE_MEMBERS,
  DEAFEN_MEMBERS,
  MUTE_MEMBERS,
  NONE,
  READ_MESSAGE_HISTORY,
  VIEW_CHANNEL,
} from '../../../core/permissions/bits.js';
import { botHighestRolePosition, highestRolePosition, rolePosition } from '../../../core/permissions/role-hierarchy.js';
import { botInGuild } from '../../../core/world/guild-members.js';
import { memberOf } from '../../../core/world/member-index.js';
import type { Guild, Member } from '../../../core/world/types.js';
import { appBasePermissions } from '../../../core/world/v10-objects.js';
import type { MemberEdit } from './member-edits.js';

/** Why an action on a member is refused: v10 answers each with 50013 Missing Permissions. */
export type MemberRefusal = Extract<Refusal, 'missing-permission' | 'hierarchy' | 'administrator'>;

/**
 * The one rule of who a bot may act on (kick, ban, bulk ban, every member edit, a role given or
 * taken): never the owner or itself, and only someone whose highest role is strictly below the
 * bot's. The target's place is read from the guild whoever it is: a member of the world by its
 * roles, another app's bot by its own (its listed role, else just above @everyone); a user who is
 * no member has no role. `guild` must hold the target's member (members are rows).
 */
export function botOutranks(guild: Guild, applicationId: string, userId: string): boolean {
  if (userId === guild.owner_id || userId === applicationId) return false;
  const target = targetPosition(guild, userId);
  return target === null || target < botHighestRolePosition(guild, applicationId);
}

/** The target's highest role position: a world member's, a bot's; null for a user who is no member. */
function targetPosition(guild: Guild, userId: string): number | null {
  const member = memberOf(guild, userId);
  if (member) return highestRolePosition(guild, member);
  return botInGuild(guild, userId) ? botHighestRolePosition(guild, userId) : null;
}

/** Whether the bot may give or take the role: a role of the guild (not @everyone, no bot's) below its own. */
export function botMayManageRole(guild: Guild, applicationId: string, roleId: string): boolean {
  if (roleId === guild.id || guild.roles.some((role) => role.id === roleId && role.bot_id !== undefined)) return false;
  const position = rolePosition(guild, roleId);
  return position !== null && position < botHighestRolePosition(guild, applicationId);
}

/** Whether the member's timeout is in force at `nowMs`. */
export function timedOutAt(member: Member, nowMs: number): boolean {
  const until = member.communication_disabled_until;
  return typeof until === 'string' && Date.parse(until) > nowMs;
}

/** What a timed-out member keeps (v10): seeing channels and reading their history. */
const TIMED_OUT_KEEPS = VIEW_CHANNEL | READ_MESSAGE_HISTORY;

/** Whether a timeout holds the member at `nowMs`: the owner and administrators are never held (v10). */
export function heldByTimeout(guild: Guild, member: Member, nowMs: number): boolean {
  return timedOutAt(member, nowMs) && !isAdministrator(guild, member);
}

/**
 * The member's permissions with its timeout in force at `nowMs`: only VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY of `bits`, unless it is the owner or an administrator (who cannot be timed out).
 */
export function permissionsInForce(guild: Guild, member: Member | undefined, bits: bigint, nowMs: number): bigint {
  return member && heldByTimeout(guild, member, nowMs) ? bits & TIMED_OUT_KEEPS : bits;
}

/** The permission each field of an edit needs (v10). */
function editBits(edit: MemberEdit): bigint {
  let bits = NONE;
  if (edit.nick !== undefined) bits |= MANAGE_NICKNAMES;
  if (edit.roles !== undefined) bits |= MANAGE_ROLES;
  if (edit.communication_disabled_until !== undefined) bits |= MODERATE_MEMBERS;
  if (edit.mute !== undefined) bits |= MUTE_MEMBERS;
  if (edit.deaf !== undefined) bits |= DEAFEN_MEMBERS;
  if (edit.channel_id !== undefined) bits |= PermissionFlagsBits.MoveMembers;
  return bits;
}

/** Whether the bot may edit this member so: the permissions, the hierarchy, no timeout of an administrator. */
export function memberEditRefusal(
  guild: Guild,
  applicationId: string,
  member: Member,
  edit: MemberEdit,
): MemberRefusal | null {
  if (!hasAll(appBasePermissions(guild, applicationId), editBits(edit))) return 'missing-permission';
  if (!botOutranks(guild, applicationId, member.user_id)) return 'hierarchy';
  if (edit.communication_disabled_until && isAdministrator(guild, member)) return 'administrator';
  return null;
}

/** Whether the bot may kick the member: KICK_MEMBERS and the hierarchy. */
export function kickRefusal(guild: Guild, applicationId: string, member: Member): MemberRefusal | null {
  if (!hasAll(appBasePermissions(guild, applicationId), KICK_MEMBERS)) return 'missing-permission';
  return botOutranks(guild, applicationId, member.user_id) ? null : 'hierarchy';
}

/**
 * The roles a member is given, less @everyone (the guild's id): every member holds it, discord.js
 * keeps it in a member's cached roles and sends it back in `roles.set`, and v10 ignores it there.
 */
export function withoutEveryone(guild: Guild, roles: readonly string[]): string[] {
  return roles.filter((id) => id !== guild.id);
}

/** The roles an edit gives and takes. */
export function roleChanges(before: Member, roles: readonly string[]): { added: string[]; removed: string[] } {
  return {
    added: roles.filter((id) => !before.roles.includes(id)),
    removed: before.roles.filter((id) => !roles.includes(id)),
  };
}

/** The member after the edit (a voice move changes nothing: no one is in voice). */
export function editedMember(member: Member, edit: MemberEdit): Member {
  const edited: Member = { ...member };
  if (edit.nick !== undefined) edited.nick = edit.nick;
  if (edit.roles !== undefined) edited.roles = [...edit.roles];
  if (edit.communication_disabled_until !== undefined) {
    edited.communication_disabled_until = edit.communication_disabled_until;
  }
  if (edit.mute !== undefined) edited.mute = edit.mute;
  if (edit.deaf !== undefined) edited.deaf = edit.deaf;
  return edited;
}

/** One audit change when the value changed (v10 leaves out an absent side). */
function change(key: string, before: unknown, after: unknown): AuditChange[] {
  if (before === after) return [];
  const entry: Record<string, unknown> = { key };
  if (before !== null && before !== undefined) entry.old_value = before;
  if (after !== null && after !== undefined) entry.new_value = after;
  return [entry as unknown as AuditChange];
}

/** MEMBER_UPDATE's changes: nickname, timeout, mute and deaf. */
export function memberUpdateChanges(before: Member, after: Member): AuditChange[] {
  return [
    ...change('nick', before.nick, after.nick),
    ...change(
      'communication_disabled_until',
      before.communication_disabled_until ?? null,
      after.communication_disabled_until ?? null,
    ),
    ...change('mute', before.mute ?? false, after.mute ?? false),
    ...change('deaf', before.deaf ?? false, after.deaf ?? false),
  ];
}

/** MEMBER_ROLE_UPDATE's changes: `$add` and `$remove`, each a list of `{id, name}`. */
export function memberRoleChanges(guild: Guild, before: Member, after: Member): AuditChange[] {
  const { added, removed } = roleChanges(before, after.roles);
  const named = (ids: string[]) => ids.map((id) => ({ id, name: guild.roles.find((r) => r.id === id)?.name ?? '' }));
  const changes: AuditChange[] = [];
  if (added.length > 0) changes.push({ key: '$add', new_value: named(added) });
  if (removed.length > 0) changes.push({ key: '$remove', new_value: named(removed) });
  return changes;
}

/** The audit entries' actions of a member edit, with their changes (none when nothing changed). */
export function memberEditAudit(
  guild: Guild,
  before: Member,
  after: Member,
): { action: AuditLogEvent; changes: AuditChange[] }[] {
  const entries = [
    { action: AuditLogEvent.MemberUpdate, changes: memberUpdateChanges(before, after) },
    { action: AuditLogEvent.MemberRoleUpdate, changes: memberRoleChanges(guild, before, after) },
  ];
  return entries.filter((entry) => entry.changes.length > 0);
}
