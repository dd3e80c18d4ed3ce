/**
 * Who changes a guild's roles and channels, as the rules need them: the guild-level permissions,
 * the place in the role hierarchy, and whether it owns the guild. Today an app's bot (its listed
 * role, else just above @everyone); a member would be one the same way.
 */
import { apiError } from '../../../core/io/errors.js';
import { ADMINISTRATOR, ALL, hasAll } from '../../../core/permissions/bits.js';
import { botHighestRolePosition, rolePosition } from '../../../core/permissions/role-hierarchy.js';
import type { Channel, Guild } from '../../../core/world/types.js';
import { appChannelPermissions } from '../../../core/permissions/channel-permissions.js';
import { appBasePermissions } from '../../../core/world/v10-objects.js';

export interface StructureActor {
  /** The user id (a bot's is its application id). */
  readonly id: string;
  /** Guild-level permissions (everything for the owner or an administrator). */
  readonly bits: bigint;
  /** The position of the highest role. */
  readonly highest: number;
  readonly isOwner: boolean;
  /** Permissions in a channel of the guild (after its overwrites). */
  inChannel(channel: Channel): bigint;
}

export function botActor(guild: Guild, applicationId: string): StructureActor {
  return {
    id: applicationId,
    bits: appBasePermissions(guild, applicationId),
    highest: botHighestRolePosition(guild, applicationId),
    isOwner: false,
    inChannel: (channel) => appChannelPermissions(guild, applicationId, channel),
  };
}

export function isAdministratorActor(actor: StructureActor): boolean {
  return actor.isOwner || actor.bits === ALL || hasAll(actor.bits, ADMINISTRATOR);
}

/** 50013 unless the actor has every bit of `required` at guild level. */
export function requireGuildPermission(actor: StructureActor, required: bigint): void {
  if (!hasAll(actor.bits, required)) throw apiError('MissingPermissions');
}

/** Whether a role at `position` is below the actor's highest role (the owner is above every role). */
export function isBelowActor(actor: StructureActor, position: number): boolean {
  return actor.isOwner || position < actor.highest;
}

/** 50013 unless the actor may manage the role: below its highest (v10's hierarchy, administrators too). */
export function requireManageableRole(guild: Guild, actor: StructureActor, roleId: string): void {
  const position = rolePosition(guild, roleId);
  if (position === null) throw apiError('UnknownRole');
  if (roleId !== guild.id && !isBelowActor(actor, position)) throw apiError('MissingPermissions');
}

/** 50013 when `bits` grant what the actor lacks (an administrator may grant anything). */
export function requireGrantable(actor: StructureActor, bits: bigint): void {
  if (!isAdministratorActor(actor) && !hasAll(actor.bits, bits)) throw apiError('MissingPermissions');
}

/** 50013 unless the actor has every bit of `required` in the channel. */
export function requireChannelPermission(actor: StructureActor, channel: Channel, required: bigint): void {
  if (!hasAll(actor.inChannel(channel), required)) throw apiError('MissingPermissions');
}
