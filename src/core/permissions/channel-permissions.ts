/**
 * The v10 channel permission algorithm (docs/v10-behaviour.md#permissions): guild-level base permissions from
 * @everyone and the member's roles, then the channel's overwrites in their fixed order. Pure: it
 * reads the guild it is given and nothing else.
 */
import {
  PRIVATE_THREAD_TYPE,
  type Channel,
  type Guild,
  type Member,
  type PermissionOverwrite,
  type Role,
} from '../world/types.js';
import {
  ADMINISTRATOR,
  ALL,
  MANAGE_THREADS,
  NONE,
  READ_MESSAGE_HISTORY,
  SEND_MESSAGES,
  SEND_MESSAGES_IN_THREADS,
  VIEW_CHANNEL,
  applyOverwrite,
  hasAll,
  parsePermissions,
} from './bits.js';
import { memoizeFrozen } from '../frozen-memo.js';
import { governingChannel, isThread } from './channels.js';
import { findInstall } from './install.js';
import { botRoleIds } from './role-hierarchy.js';

/** v10 overwrite type of a role overwrite (the @everyone one included). */
export const ROLE_OVERWRITE = 0;
/** v10 overwrite type of a member overwrite. */
export const MEMBER_OVERWRITE = 1;

/**
 * Who the algorithm computes for: a member, or an app's bot, whose role bit set comes from its
 * install rather than from a role of the guild.
 */
interface PermissionSubject {
  readonly userId: string;
  readonly roleIds: readonly string[];
  /** Bits granted on top of @everyone and the roles, as a role would grant them. */
  readonly extraRoleBits: bigint;
  readonly isOwner: boolean;
}

function memberSubject(guild: Guild, member: Member): PermissionSubject {
  return {
    userId: member.user_id,
    roleIds: member.roles,
    extraRoleBits: NONE,
    isOwner: member.user_id === guild.owner_id,
  };
}

/** Per frozen role list: each role's bit set by id, parsed once (a member's roles are looked up on every check). */
const roleBitsIndexes = new WeakMap<readonly Role[], ReadonlyMap<string, bigint>>();

function indexRoleBits(roles: readonly Role[]): ReadonlyMap<string, bigint> {
  const bits = new Map<string, bigint>();
  // The first role with an id wins, as `find` would return it.
  for (const role of roles) if (!bits.has(role.id)) bits.set(role.id, parsePermissions(role.permissions));
  return bits;
}

function rolePermissions(guild: Guild, roleId: string): bigint {
  const { roles } = guild;
  // A list that is not frozen may still change: it is scanned (see member-index.ts).
  if (!Object.isFrozen(roles)) {
    const role = roles.find((candidate) => candidate.id === roleId);
    return role ? parsePermissions(role.permissions) : NONE;
  }
  return memoizeFrozen(roleBitsIndexes, roles, indexRoleBits).get(roleId) ?? NONE;
}

/** The @everyone role's permissions: the role whose id is the guild id. */
export function everyonePermissions(guild: Guild): bigint {
  return rolePermissions(guild, guild.id);
}

function subjectBasePermissions(guild: Guild, subject: PermissionSubject): bigint {
  if (subject.isOwner) return ALL;
  let bits = everyonePermissions(guild) | subject.extraRoleBits;
  for (const roleId of subject.roleIds) bits |= rolePermissions(guild, roleId);
  return hasAll(bits, ADMINISTRATOR) ? ALL : bits;
}

/** A member's guild-level permissions: all of them for the owner or an administrator. */
export function basePermissions(guild: Guild, member: Member): bigint {
  return subjectBasePermissions(guild, memberSubject(guild, member));
}

/** True for the guild owner and for a member with ADMINISTRATOR from @everyone or any role. */
export function isAdministrator(guild: Guild, member: Member): boolean {
  return basePermissions(guild, member) === ALL;
}

function everyoneOverwrite(guild: Guild, overwrites: readonly PermissionOverwrite[]): PermissionOverwrite | undefined {
  return overwrites.find((overwrite) => overwrite.type === ROLE_OVERWRITE && overwrite.id === guild.id);
}

function memberOverwrite(userId: string, overwrites: readonly PermissionOverwrite[]): PermissionOverwrite | undefined {
  return overwrites.find((overwrite) => overwrite.type === MEMBER_OVERWRITE && overwrite.id === userId);
}

/** The subject's role overwrites merged into one: a deny of any of them, an allow of any of them. */
function mergedRoleOverwrite(
  guild: Guild,
  subject: PermissionSubject,
  overwrites: readonly PermissionOverwrite[],
): { allow: bigint; deny: bigint } {
  let allow = NONE;
  let deny = NONE;
  for (const overwrite of overwrites) {
    const isOwnRole =
      overwrite.type === ROLE_OVERWRITE && overwrite.id !== guild.id && subject.roleIds.includes(overwrite.id);
    if (!isOwnRole) continue;
    allow |= parsePermissions(overwrite.allow);
    deny |= parsePermissions(overwrite.deny);
  }
  return { allow, deny };
}

function applyOptionalOverwrite(bits: bigint, overwrite: PermissionOverwrite | undefined): bigint {
  if (!overwrite) return bits;
  return applyOverwrite(bits, parsePermissions(overwrite.allow), parsePermissions(overwrite.deny));
}

function subjectChannelPermissions(guild: Guild, subject: PermissionSubject, channel: Channel): bigint {
  const base = subjectBasePermissions(guild, subject);
  if (base === ALL) return ALL;
  // A missing list (a world file may omit it) means no overwrites, not an error.
  const overwrites = governingChannel(guild, channel).permission_overwrites ?? [];
  let bits = applyOptionalOverwrite(base, everyoneOverwrite(guild, overwrites));
  const roles = mergedRoleOverwrite(guild, subject, overwrites);
  bits = applyOverwrite(bits, roles.allow, roles.deny);
  bits = applyOptionalOverwrite(bits, memberOverwrite(subject.userId, overwrites));
  // v10: a channel one cannot view grants nothing else in it (administrators returned above).
  if (!hasAll(bits, VIEW_CHANNEL) || outsidePrivateThread(subject, channel, bits)) return NONE;
  return bits;
}

/** A private thread is seen by its members and by those who may manage threads, nobody else. */
function outsidePrivateThread(subject: PermissionSubject, channel: Channel, bits: bigint): boolean {
  if (channel.type !== PRIVATE_THREAD_TYPE || hasAll(bits, MANAGE_THREADS)) return false;
  return !(channel.thread_member_ids ?? []).includes(subject.userId);
}

/** A member's permissions in a channel; a thread takes its parent channel's overwrites. */
export function channelPermissions(guild: Guild, member: Member, channel: Channel): bigint {
  return subjectChannelPermissions(guild, memberSubject(guild, member), channel);
}

/**
 * An app's permissions in a channel (the interaction's `app_permissions`): its bot is a member
 * whose user id is the application id, with @everyone plus one role holding the install's
 * `permissions`, and the roles the world lists as the bot's (`bot_id`), whose overwrites apply; a
 * member overwrite for the bot's user id applies. An app without bot permissions (or not installed) gets
 * what a member without roles gets.
 */
export function appChannelPermissions(guild: Guild, applicationId: string, channel: Channel): bigint {
  const install = findInstall(guild, applicationId);
  const subject: PermissionSubject = {
    userId: applicationId,
    // The bot's role the world lists (`bot_id`), if any: its bits and its overwrites apply too.
    roleIds: botRoleIds(guild, applicationId),
    extraRoleBits: parsePermissions(install?.permissions ?? null),
    isOwner: false,
  };
  return subjectChannelPermissions(guild, subject, channel);
}

/** True when the member can see the channel (VIEW_CHANNEL after overwrites). */
export function canViewChannel(guild: Guild, member: Member, channel: Channel): boolean {
  return hasAll(channelPermissions(guild, member, channel), VIEW_CHANNEL);
}

/**
 * True when the member may read the channel's messages: v10 needs VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY to read history, and slashd's messages are all history.
 */
export function canReadMessages(guild: Guild, member: Member, channel: Channel): boolean {
  return hasAll(channelPermissions(guild, member, channel), VIEW_CHANNEL | READ_MESSAGE_HISTORY);
}

/** The same for an app's bot, from its install's role bits. */
export function appCanReadMessages(guild: Guild, applicationId: string, channel: Channel): boolean {
  return hasAll(appChannelPermissions(guild, applicationId, channel), VIEW_CHANNEL | READ_MESSAGE_HISTORY);
}

/** The flag that lets a member send messages in `channel`: a thread has its own. */
export function sendMessagesFlag(channel: Channel): bigint {
  return isThread(channel) ? SEND_MESSAGES_IN_THREADS : SEND_MESSAGES;
}

/** True when the member may send messages in the channel (invoking a USER command needs it). */
export function canSendMessages(guild: Guild, member: Member, channel: Channel): boolean {
  return hasAll(channelPermissions(guild, member, channel), sendMessagesFlag(channel));
}
