/**
 * Commands of an app the user installed to their account (a user install, integration type 1),
 * used in a guild: v10 makes them available in any guild the command's `contexts` allow, whether
 * or not the app is in it. The guild has no integration of the app there, so it holds no command
 * permissions for it and `default_member_permissions` (a guild install's default) plays no part;
 * what still binds is the command's own availability (scope, contexts, integration types, entry
 * point, age restriction) and the channel's switch for all apps, USE_APPLICATION_COMMANDS.
 */
import {
  CommandType,
  IntegrationType,
  InteractionContext,
  hasActivities,
  type StoredCommand,
} from '../commands/model.js';
import type { Application, Channel, Guild, Member, User } from '../world/types.js';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { ATTACH_FILES, MENTION_EVERYONE, USE_APPLICATION_COMMANDS, USE_EXTERNAL_APPS, hasAll } from './bits.js';
import { canSendMessages, channelPermissions, isAdministrator } from './channel-permissions.js';
import { AccessReason } from './engine.js';
import { governingChannel } from './channels.js';

/**
 * `app_permissions` in the bot's DM (context 1), as v10 documents them: what a (group) DM gives
 * any app's messages (ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE), and USE_EXTERNAL_EMOJIS in the
 * DM with the app's own bot.
 */
export const BOT_DM_APP_PERMISSIONS =
  ATTACH_FILES | PermissionFlagsBits.EmbedLinks | MENTION_EVERYONE | PermissionFlagsBits.UseExternalEmojis;

/** The command is one a user install brings: global, with USER_INSTALL among its integration types. */
export function isUserInstallable(app: Pick<Application, 'integration_types'>, command: StoredCommand): boolean {
  if (command.guild_id !== null) return false;
  const types = command.definition.integration_types ?? app.integration_types;
  return types.includes(IntegrationType.UserInstall);
}

export interface UserInstallScene {
  readonly app: Application;
  readonly guild: Guild;
  readonly member: Member;
  readonly user: User;
  readonly channel: Channel;
}

/**
 * Why a command of an app the user installed is not in a guild channel's picker, or null when it
 * is: its own availability (scope and integration types, contexts holding GUILD, entry point,
 * age restriction; these bind the owner too), then the channel's switch for all apps,
 * USE_APPLICATION_COMMANDS (administrators hold it). The caller has checked that they installed
 * it, or asks why it would not be there if they had; and that they may view the channel.
 */
export function guildUserInstallRefusal(
  scene: UserInstallScene,
  command: StoredCommand,
): GuildUserInstallRefusal | null {
  const { app, user, guild, member, channel } = scene;
  if (!isUserInstallable(app, command)) return UserInstallReason.IntegrationType;
  const contexts = command.definition.contexts;
  if (contexts !== null && !contexts.includes(InteractionContext.Guild)) return UserInstallReason.Context;
  if (command.definition.type === CommandType.PrimaryEntryPoint && !hasActivities(app)) {
    return UserInstallReason.EntryPoint;
  }
  if (command.definition.nsfw && !user.age_verified) return UserInstallReason.AgeRestricted;
  if (command.definition.nsfw && !governingChannel(guild, channel).nsfw) return AccessReason.NsfwChannel;
  if (isAdministrator(guild, member)) return null;
  return hasAll(channelPermissions(guild, member, channel), USE_APPLICATION_COMMANDS)
    ? null
    : AccessReason.MissingUseApplicationCommands;
}

/**
 * May the member use (see in the picker) this command of an app they installed to their account,
 * in this guild channel? The caller has checked that they installed it and may view the channel.
 */
export function userInstallAllowsInGuild(scene: UserInstallScene, command: StoredCommand): boolean {
  return guildUserInstallRefusal(scene, command) === null;
}

/** May the member invoke it now: as `userInstallAllowsInGuild`, and a USER command needs to send messages there (v10). */
export function userInstallInvocationAllowed(scene: UserInstallScene, command: StoredCommand): boolean {
  if (!userInstallAllowsInGuild(scene, command)) return false;
  if (command.definition.type !== CommandType.User) return true;
  return canSendMessages(scene.guild, scene.member, scene.channel);
}

/**
 * v10: without USE_EXTERNAL_APPS, a member's apps that are only user-installed in the guild still
 * answer, but only to them: their responses are ephemeral. `memberPermissions` is the member's
 * bit set in the channel, as the interaction's `member.permissions` carries it.
 */
export function userInstallResponsesForcedEphemeral(memberPermissions: bigint): boolean {
  return !hasAll(memberPermissions, USE_EXTERNAL_APPS);
}

/**
 * `app_permissions` in a group DM (context 2), as v10 documents them: what a group DM gives any
 * app's messages (ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE); no bot is ever in one.
 */
export const GROUP_DM_APP_PERMISSIONS = ATTACH_FILES | PermissionFlagsBits.EmbedLinks | MENTION_EVERYONE;

/** "Why not?" of a command a user install would bring: the rule that decided (user-install.ts). */
export const UserInstallReason = {
  /** The app is not installed to the user's account: its user-install commands do not follow them. */
  NotInstalledForUser: 'user_install_missing',
  /** The command's integration types leave out USER_INSTALL (or it is a guild command). */
  IntegrationType: 'user_install_integration_type',
  /** The command's contexts leave out the place (GUILD in a guild, PRIVATE_CHANNEL in a group DM). */
  Context: 'user_install_context',
  /** An entry point command of an app without Activities. */
  EntryPoint: 'user_install_entry_point',
  /** An age-restricted command, and the user is not age-verified. */
  AgeRestricted: 'user_install_age_restricted',
  /** Shown: the user's own install brings it here. */
  Allowed: 'user_install_allowed',
} as const;
export type UserInstallReasonCode = (typeof UserInstallReason)[keyof typeof UserInstallReason];

/** Why a user-install command is not in a group DM's picker (null: it is). */
export type GroupDmRefusal = Exclude<UserInstallReasonCode, 'user_install_allowed' | 'user_install_missing'>;

/** Why a user-install command is not in a guild channel's picker: a group DM's reasons, and the channel's. */
export type GuildUserInstallRefusal =
  GroupDmRefusal | typeof AccessReason.NsfwChannel | typeof AccessReason.MissingUseApplicationCommands;

/**
 * The command's availability in a group DM the user is a recipient of, through their own install
 * of the app (the caller has checked that they installed it): a global USER_INSTALL command whose
 * `contexts` hold PRIVATE_CHANNEL (absent contexts: every context, as v10 defaults new commands).
 * A group DM has no permissions to check; an age-restricted command needs an age-verified user.
 */
export function groupDmRefusal(
  app: Pick<Application, 'integration_types' | 'flags'>,
  user: Pick<User, 'age_verified'>,
  command: StoredCommand,
): GroupDmRefusal | null {
  if (!isUserInstallable(app, command)) return UserInstallReason.IntegrationType;
  const contexts = command.definition.contexts;
  if (contexts !== null && !contexts.includes(InteractionContext.PrivateChannel)) return UserInstallReason.Context;
  if (command.definition.type === CommandType.PrimaryEntryPoint && !hasActivities(app)) {
    return UserInstallReason.EntryPoint;
  }
  if (command.definition.nsfw && !user.age_verified) return UserInstallReason.AgeRestricted;
  return null;
}

/** May the user see and invoke this command of an app they installed, in a group DM they are in? */
export function userInstallAllowsInGroupDm(
  app: Pick<Application, 'integration_types' | 'flags'>,
  user: Pick<User, 'age_verified'>,
  command: StoredCommand,
): boolean {
  return groupDmRefusal(app, user, command) === null;
}
