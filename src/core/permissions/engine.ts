/**
 * The command access engine: may this member use this command in this channel? It applies the
 * availability rules (scope, contexts, integration types, install, entry point, age restriction),
 * then the permission rules of docs/v10-behaviour.md#permissions in their exact order. Every branch has a reason
 * code of its own, so a decision explains itself (docs/permissions.md lists them in order).
 */
import {
  CommandType,
  IntegrationType,
  InteractionContext,
  hasActivities,
  type StoredCommand,
} from '../commands/model.js';
import type { Application, Channel, Guild, Member, User } from '../world/types.js';
import { USE_APPLICATION_COMMANDS, hasAll, parsePermissions } from './bits.js';
import { channelPermissions, isAdministrator } from './channel-permissions.js';
import { governingChannel } from './channels.js';
import {
  CommandPermissionType,
  allChannelsId,
  everyoneId,
  findOverwrite,
  type CommandPermission,
} from './command-permissions.js';

/** Why the engine decided as it did: one code per branch, in evaluation order. */
export const AccessReason = {
  /** The command is a guild command of another guild. */
  OtherGuild: 'other_guild',
  /** The global command's `contexts` leaves out GUILD (0). */
  Context: 'context',
  /** The global command's `integration_types` leaves out GUILD_INSTALL (0). */
  IntegrationType: 'integration_type',
  /** The app is not installed in the guild with `applications.commands` or `bot`. */
  NotInstalled: 'not_installed',
  /** A PRIMARY_ENTRY_POINT command of an app without the EMBEDDED flag (no Activity to launch). */
  EntryPointWithoutActivities: 'entry_point_without_activities',
  /** An age-restricted command and a user who is not age-verified. */
  NsfwUser: 'nsfw_user',
  /** An age-restricted command in a channel (or a thread's parent) that is not age-restricted. */
  NsfwChannel: 'nsfw_channel',
  /** The guild owner: every command, whatever the overwrites. */
  Owner: 'owner',
  /** A member with ADMINISTRATOR: every command, whatever the overwrites. */
  Administrator: 'administrator',
  /** The member lacks USE_APPLICATION_COMMANDS in the channel: no command, whatever the overwrites. */
  MissingUseApplicationCommands: 'missing_use_application_commands',
  /** Step 1: the command's overwrite for this channel is false. */
  ChannelDenied: 'channel_denied',
  /** Step 1: the command's all-channels overwrite is false (and it has none for this channel). */
  AllChannelsDenied: 'all_channels_denied',
  /** Step 1: the app-level overwrite for this channel is false (the command has no channel overwrite). */
  AppChannelDenied: 'app_channel_denied',
  /** Step 1: the app-level all-channels overwrite is false. */
  AppAllChannelsDenied: 'app_all_channels_denied',
  /** Step 2: the command's overwrite for the member is true: allowed, final. */
  UserAllowed: 'user_allowed',
  /** Step 2: the command's overwrite for the member is false. */
  UserDenied: 'user_denied',
  /** Step 2: one of the command's overwrites for the member's roles is true: allowed, final. */
  RoleAllowed: 'role_allowed',
  /** Step 2: the command has overwrites for some of the member's roles, all false. */
  RoleDenied: 'role_denied',
  /** Step 2: the command's @everyone overwrite is true: allowed, final. */
  EveryoneAllowed: 'everyone_allowed',
  /** Step 2: the command's @everyone overwrite is false. */
  EveryoneDenied: 'everyone_denied',
  /** Step 2, app level: the app-level overwrite for the member is false. */
  AppUserDenied: 'app_user_denied',
  /** Step 2, app level: app-level overwrites for some of the member's roles, all false. */
  AppRoleDenied: 'app_role_denied',
  /** Step 2, app level: the app-level @everyone overwrite is false. */
  AppEveryoneDenied: 'app_everyone_denied',
  /** Step 3: `default_member_permissions` is null: allowed. */
  DefaultMemberPermissionsNull: 'default_member_permissions_null',
  /** Step 3: the deprecated `default_permission` is false (and no bit set is given): as "0". */
  DefaultPermissionFalse: 'default_permission_false',
  /** Step 3: `default_member_permissions` is "0" (or malformed): administrators only. */
  DefaultMemberPermissionsZero: 'default_member_permissions_zero',
  /** Step 3: the member has every bit of `default_member_permissions` in the channel: allowed. */
  DefaultMemberPermissionsMet: 'default_member_permissions_met',
  /** Step 3: the member lacks a bit of `default_member_permissions` in the channel. */
  MissingDefaultMemberPermissions: 'missing_default_member_permissions',
} as const;
export type AccessReasonCode = (typeof AccessReason)[keyof typeof AccessReason];

export interface AccessDecision {
  readonly allowed: boolean;
  readonly reason: AccessReasonCode;
}

export interface CommandAccessInput {
  readonly app: Application;
  readonly command: StoredCommand;
  /** The command's own overwrites in this guild; null (or []) when it has none. */
  readonly commandPermissions: readonly CommandPermission[] | null;
  /** The app-level overwrites in this guild (the object whose id is the app id); null when none. */
  readonly appPermissions: readonly CommandPermission[] | null;
  readonly guild: Guild;
  readonly member: Member;
  /** The member's user: `age_verified` decides age-restricted commands. */
  readonly user: User;
  /** Where the command would run; a thread counts as its parent for overwrites and nsfw. */
  readonly channel: Channel;
  /** The app is installed in the guild with `applications.commands` or `bot` (see install.ts). */
  readonly installed: boolean;
}

/** What the rules read: the input, plus what is derived from it once. */
interface AccessContext extends CommandAccessInput {
  /** The channel that command channel overwrites and nsfw are read from: a thread's parent. */
  readonly commandChannel: Channel;
  readonly commandOverwrites: readonly CommandPermission[];
  readonly appOverwrites: readonly CommandPermission[];
  /** The member's roles but @everyone, which step 2 treats on its own. */
  readonly roleIds: readonly string[];
}

/** A rule decides, or returns undefined to hand over to the next rule. */
type AccessRule = (context: AccessContext) => AccessDecision | undefined;

const allow = (reason: AccessReasonCode): AccessDecision => ({ allowed: true, reason });
const deny = (reason: AccessReasonCode): AccessDecision => ({ allowed: false, reason });

function isGlobal(command: StoredCommand): boolean {
  return command.guild_id === null;
}

// ---- Availability: outside the overwrite order; they bind owners and administrators too ----

function commandBelongsToThisGuild({ command, guild }: AccessContext): AccessDecision | undefined {
  return isGlobal(command) || command.guild_id === guild.id ? undefined : deny(AccessReason.OtherGuild);
}

function commandAllowsGuildContext({ command }: AccessContext): AccessDecision | undefined {
  const contexts = command.definition.contexts;
  if (!isGlobal(command) || contexts === null) return undefined;
  return contexts.includes(InteractionContext.Guild) ? undefined : deny(AccessReason.Context);
}

function commandAllowsGuildInstall({ command, app }: AccessContext): AccessDecision | undefined {
  if (!isGlobal(command)) return undefined;
  // A global command without its own list has the app's, as it would have got at creation.
  const integrationTypes = command.definition.integration_types ?? app.integration_types;
  return integrationTypes.includes(IntegrationType.GuildInstall) ? undefined : deny(AccessReason.IntegrationType);
}

function appIsInstalled({ installed }: AccessContext): AccessDecision | undefined {
  return installed ? undefined : deny(AccessReason.NotInstalled);
}

function entryPointNeedsActivity({ command, app }: AccessContext): AccessDecision | undefined {
  if (command.definition.type !== CommandType.PrimaryEntryPoint) return undefined;
  return hasActivities(app) ? undefined : deny(AccessReason.EntryPointWithoutActivities);
}

function ageRestrictedNeedsVerifiedUser({ command, user }: AccessContext): AccessDecision | undefined {
  return command.definition.nsfw && !user.age_verified ? deny(AccessReason.NsfwUser) : undefined;
}

function ageRestrictedNeedsAgeRestrictedChannel({
  command,
  commandChannel,
}: AccessContext): AccessDecision | undefined {
  return command.definition.nsfw && !commandChannel.nsfw ? deny(AccessReason.NsfwChannel) : undefined;
}

// ---- Permissions ----

function ownerMayUseEverything({ guild, member }: AccessContext): AccessDecision | undefined {
  return member.user_id === guild.owner_id ? allow(AccessReason.Owner) : undefined;
}

function administratorMayUseEverything({ guild, member }: AccessContext): AccessDecision | undefined {
  return isAdministrator(guild, member) ? allow(AccessReason.Administrator) : undefined;
}

function memberNeedsUseApplicationCommands({ guild, member, channel }: AccessContext): AccessDecision | undefined {
  const bits = channelPermissions(guild, member, channel);
  return hasAll(bits, USE_APPLICATION_COMMANDS) ? undefined : deny(AccessReason.MissingUseApplicationCommands);
}

/** The channel overwrite that applies at one level: this channel's, else the all-channels one. */
function channelOverwrite(
  overwrites: readonly CommandPermission[],
  context: AccessContext,
): { permission: boolean; allChannels: boolean } | undefined {
  const specific = findOverwrite(overwrites, CommandPermissionType.Channel, context.commandChannel.id);
  if (specific) return { permission: specific.permission, allChannels: false };
  const all = findOverwrite(overwrites, CommandPermissionType.Channel, allChannelsId(context.guild.id));
  return all ? { permission: all.permission, allChannels: true } : undefined;
}

/** Step 1: a command-level channel overwrite, true or false, settles the channel question alone. */
function channelOverwrites(context: AccessContext): AccessDecision | undefined {
  const commandLevel = channelOverwrite(context.commandOverwrites, context);
  if (commandLevel) {
    if (commandLevel.permission) return undefined;
    return deny(commandLevel.allChannels ? AccessReason.AllChannelsDenied : AccessReason.ChannelDenied);
  }
  const appLevel = channelOverwrite(context.appOverwrites, context);
  if (!appLevel || appLevel.permission) return undefined;
  return deny(appLevel.allChannels ? AccessReason.AppAllChannelsDenied : AccessReason.AppChannelDenied);
}

/** Which overwrite of step 2 applies at one level: the member's, else the roles', else @everyone's. */
type MemberTarget = 'user' | 'role' | 'everyone';

function memberOverwrite(
  overwrites: readonly CommandPermission[],
  context: AccessContext,
): { target: MemberTarget; permission: boolean } | undefined {
  const own = findOverwrite(overwrites, CommandPermissionType.User, context.member.user_id);
  if (own) return { target: 'user', permission: own.permission };
  const roles = overwrites.filter(
    (overwrite) => overwrite.type === CommandPermissionType.Role && context.roleIds.includes(overwrite.id),
  );
  if (roles.length > 0) return { target: 'role', permission: roles.some((overwrite) => overwrite.permission) };
  const everyone = findOverwrite(overwrites, CommandPermissionType.Role, everyoneId(context.guild.id));
  return everyone ? { target: 'everyone', permission: everyone.permission } : undefined;
}

const COMMAND_LEVEL_REASONS: Readonly<Record<MemberTarget, { allowed: AccessReasonCode; denied: AccessReasonCode }>> = {
  user: { allowed: AccessReason.UserAllowed, denied: AccessReason.UserDenied },
  role: { allowed: AccessReason.RoleAllowed, denied: AccessReason.RoleDenied },
  everyone: { allowed: AccessReason.EveryoneAllowed, denied: AccessReason.EveryoneDenied },
};

const APP_LEVEL_DENIALS: Readonly<Record<MemberTarget, AccessReasonCode>> = {
  user: AccessReason.AppUserDenied,
  role: AccessReason.AppRoleDenied,
  everyone: AccessReason.AppEveryoneDenied,
};

/** Step 2, command level: an applying overwrite decides, and an allow is final (step 3 is skipped). */
function commandMemberOverwrites(context: AccessContext): AccessDecision | undefined {
  const found = memberOverwrite(context.commandOverwrites, context);
  if (!found) return undefined;
  const reasons = COMMAND_LEVEL_REASONS[found.target];
  return found.permission ? allow(reasons.allowed) : deny(reasons.denied);
}

/** Step 2, app level: consulted only without a command-level one; an allow still goes on to step 3. */
function appMemberOverwrites(context: AccessContext): AccessDecision | undefined {
  const found = memberOverwrite(context.appOverwrites, context);
  return found && !found.permission ? deny(APP_LEVEL_DENIALS[found.target]) : undefined;
}

/** Step 3: the command's default_member_permissions against the member's permissions in the channel. */
function defaultMemberPermissions({ command, guild, member, channel }: AccessContext): AccessDecision {
  const { default_member_permissions: required, default_permission: enabledByDefault } = command.definition;
  if (required === null) {
    return enabledByDefault === false
      ? deny(AccessReason.DefaultPermissionFalse)
      : allow(AccessReason.DefaultMemberPermissionsNull);
  }
  // "0" means administrators only; a malformed bit set parses as 0 and so fails closed.
  const requiredBits = parsePermissions(required);
  if (requiredBits === 0n) return deny(AccessReason.DefaultMemberPermissionsZero);
  return hasAll(channelPermissions(guild, member, channel), requiredBits)
    ? allow(AccessReason.DefaultMemberPermissionsMet)
    : deny(AccessReason.MissingDefaultMemberPermissions);
}

/** The rules in evaluation order; `defaultMemberPermissions` decides whatever they leave open. */
const ACCESS_RULES: readonly AccessRule[] = [
  commandBelongsToThisGuild,
  commandAllowsGuildContext,
  commandAllowsGuildInstall,
  appIsInstalled,
  entryPointNeedsActivity,
  ageRestrictedNeedsVerifiedUser,
  ageRestrictedNeedsAgeRestrictedChannel,
  ownerMayUseEverything,
  administratorMayUseEverything,
  memberNeedsUseApplicationCommands,
  channelOverwrites,
  commandMemberOverwrites,
  appMemberOverwrites,
];

function accessContext(input: CommandAccessInput): AccessContext {
  return {
    ...input,
    commandChannel: governingChannel(input.guild, input.channel),
    commandOverwrites: input.commandPermissions ?? [],
    appOverwrites: input.appPermissions ?? [],
    roleIds: input.member.roles.filter((roleId) => roleId !== everyoneId(input.guild.id)),
  };
}

/** May the member use the command in the channel? Pure; the reason names the deciding branch. */
export function evaluateCommandAccess(input: CommandAccessInput): AccessDecision {
  const context = accessContext(input);
  for (const rule of ACCESS_RULES) {
    const decision = rule(context);
    if (decision) return decision;
  }
  return defaultMemberPermissions(context);
}
