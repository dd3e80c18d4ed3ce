/**
 * Command permissions (Permissions v2) in their wire shape, and the two id constants v10 defines
 * (v10 API, "Application command permission"; docs/v10-behaviour.md#permissions).
 */
import { ApplicationCommandPermissionType } from 'discord-api-types/v10';

/**
 * What a command permission overwrite names (wire `type`): a role of the guild (the guild id stands
 * for @everyone), a member, or a channel (the guild id minus 1 stands for every channel).
 */
export const CommandPermissionType = ApplicationCommandPermissionType;
export type CommandPermissionTypeValue = ApplicationCommandPermissionType;

/** One overwrite: `permission` true allows, false disallows. */
export interface CommandPermission {
  readonly id: string;
  readonly type: CommandPermissionTypeValue;
  readonly permission: boolean;
}

/**
 * The guild application command permissions object. `id` is a command id (that command's
 * overwrites) or the application id (the app-level overwrites, for commands without their own).
 */
export interface GuildCommandPermissions {
  readonly id: string;
  readonly application_id: string;
  readonly guild_id: string;
  readonly permissions: readonly CommandPermission[];
}

/** At most this many overwrites per command (and per app-level object) in a guild. */
export const MAX_COMMAND_PERMISSIONS = 100;

/** The id that stands for @everyone in a ROLE overwrite: the guild id itself. */
export function everyoneId(guildId: string): string {
  return guildId;
}

/**
 * The id that stands for every channel of the guild in a CHANNEL overwrite: the guild id minus 1.
 * Guild ids reach the core validated, so BigInt cannot fail here.
 */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** The overwrite of `type` for `id`, if the list has one. */
export function findOverwrite(
  permissions: readonly CommandPermission[],
  type: CommandPermissionTypeValue,
  id: string,
): CommandPermission | undefined {
  return permissions.find((overwrite) => overwrite.type === type && overwrite.id === id);
}

/**
 * The overwrites stored under `id` (a command id, or the application id for the app level) among
 * a guild's permissions objects; null when there is no such object.
 */
export function overwritesFor(
  guildPermissions: readonly GuildCommandPermissions[],
  id: string,
): readonly CommandPermission[] | null {
  return guildPermissions.find((object) => object.id === id)?.permissions ?? null;
}

/** True when `id` names the app-level object of `applicationId` rather than a command's. */
export function isAppLevel(permissions: Pick<GuildCommandPermissions, 'id' | 'application_id'>): boolean {
  return permissions.id === permissions.application_id;
}
