/**
 * The engine's fast path, for deciding many commands for one member in one channel (the command
 * picker). It gives exactly the decisions of `evaluateCommandAccess` (engine.ts, the reference,
 * in the order of docs/permissions.md; property-tested in test/permissions-fast-path.test.ts),
 * but splits the work:
 *
 * - what is the same for every command (the governing channel, owner, the role set, and, when a
 *   command first reaches the rule that reads it, administrator and the member's permissions in
 *   the channel) is computed once per scene rather than once per command;
 * - overwrites are looked up in an index (overwrite-index.ts) rather than scanned.
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
import { allChannelsId, everyoneId } from './command-permissions.js';
import { AccessReason, type AccessDecision, type AccessReasonCode, type CommandAccessInput } from './engine.js';
import type { OverwriteIndex } from './overwrite-index.js';

/** The part of an engine input that does not depend on the command. */
export type AccessSceneInput = Omit<CommandAccessInput, 'command' | 'commandPermissions' | 'appPermissions'>;

/**
 * One member in one channel, for one app: the facts every command's decision reads, each
 * computed at most once. Immutable once built; lazily filled caches are private.
 */
export class AccessScene {
  readonly app: Application;
  readonly guild: Guild;
  readonly member: Member;
  readonly user: User;
  readonly channel: Channel;
  readonly installed: boolean;
  /** The channel overwrites and nsfw are read from: a thread's parent. */
  readonly commandChannel: Channel;
  readonly isOwner: boolean;
  /** The member's roles but @everyone (which has its own rule), each once. */
  readonly roleIds: readonly string[];

  private administrator: boolean | undefined;
  private bitsInChannel: bigint | undefined;
  private allChannels: string | undefined;
  /** default_member_permissions strings parsed so far: most commands share a few values. */
  private readonly requiredBits = new Map<string, bigint>();

  constructor(input: AccessSceneInput) {
    this.app = input.app;
    this.guild = input.guild;
    this.member = input.member;
    this.user = input.user;
    this.channel = input.channel;
    this.installed = input.installed;
    this.commandChannel = governingChannel(input.guild, input.channel);
    this.isOwner = input.member.user_id === input.guild.owner_id;
    const everyone = everyoneId(input.guild.id);
    this.roleIds = [...new Set(input.member.roles)].filter((roleId) => roleId !== everyone);
  }

  /** ADMINISTRATOR from @everyone or a role (or ownership), as `isAdministrator` says. */
  get isAdministrator(): boolean {
    this.administrator ??= isAdministrator(this.guild, this.member);
    return this.administrator;
  }

  /** The member's permissions in the channel, after its (or its parent's) overwrites. */
  get channelBits(): bigint {
    this.bitsInChannel ??= channelPermissions(this.guild, this.member, this.channel);
    return this.bitsInChannel;
  }

  /** The id of the all-channels constant of this guild. */
  get allChannelsId(): string {
    this.allChannels ??= allChannelsId(this.guild.id);
    return this.allChannels;
  }

  /** A bit set of `default_member_permissions`, parsed once per distinct string. */
  requiredBitsOf(required: string): bigint {
    let bits = this.requiredBits.get(required);
    if (bits === undefined) {
      bits = parsePermissions(required);
      this.requiredBits.set(required, bits);
    }
    return bits;
  }
}

/** The decisions as shared frozen objects: the picker evaluates thousands of commands per second. */
function decisionsOf(allowed: boolean): Readonly<Record<AccessReasonCode, AccessDecision>> {
  const entries = Object.values(AccessReason).map((reason) => [reason, Object.freeze({ allowed, reason })] as const);
  return Object.freeze(Object.fromEntries(entries) as Record<AccessReasonCode, AccessDecision>);
}
const ALLOWED = decisionsOf(true);
const DENIED = decisionsOf(false);
const allow = (reason: AccessReasonCode): AccessDecision => ALLOWED[reason];
const deny = (reason: AccessReasonCode): AccessDecision => DENIED[reason];

// ---- Availability (rules 1 to 7): per command, cheap, in the reference's order ----

function availability(scene: AccessScene, command: StoredCommand): AccessDecision | undefined {
  const definition = command.definition;
  const global = command.guild_id === null;
  if (!global && command.guild_id !== scene.guild.id) return deny(AccessReason.OtherGuild);
  if (global && definition.contexts !== null && !definition.contexts.includes(InteractionContext.Guild)) {
    return deny(AccessReason.Context);
  }
  // A global command without its own list has the app's, as it would have got at creation.
  if (global && !(definition.integration_types ?? scene.app.integration_types).includes(IntegrationType.GuildInstall)) {
    return deny(AccessReason.IntegrationType);
  }
  if (!scene.installed) return deny(AccessReason.NotInstalled);
  if (definition.type === CommandType.PrimaryEntryPoint && !hasActivities(scene.app)) {
    return deny(AccessReason.EntryPointWithoutActivities);
  }
  if (definition.nsfw && !scene.user.age_verified) return deny(AccessReason.NsfwUser);
  if (definition.nsfw && !scene.commandChannel.nsfw) return deny(AccessReason.NsfwChannel);
  return undefined;
}

// ---- Who bypasses overwrites, and the channel switch (rules 8 to 10): the same for every command ----

function memberGate(scene: AccessScene): AccessDecision | undefined {
  if (scene.isOwner) return allow(AccessReason.Owner);
  if (scene.isAdministrator) return allow(AccessReason.Administrator);
  return hasAll(scene.channelBits, USE_APPLICATION_COMMANDS)
    ? undefined
    : deny(AccessReason.MissingUseApplicationCommands);
}

// ---- Step 1: channel overwrites (rules 11 to 14) ----

/** The channel overwrite of one level: this channel's, else the all-channels one. */
function channelOverwrite(
  scene: AccessScene,
  overwrites: OverwriteIndex,
): { permission: boolean; allChannels: boolean } | undefined {
  const specific = overwrites.channels.get(scene.commandChannel.id);
  if (specific !== undefined) return { permission: specific, allChannels: false };
  // No channel overwrite at all (most lists): spare the all-channels id, a BigInt subtraction.
  if (overwrites.channels.size === 0) return undefined;
  const all = overwrites.channels.get(scene.allChannelsId);
  return all === undefined ? undefined : { permission: all, allChannels: true };
}

function channelStep(
  scene: AccessScene,
  commandOverwrites: OverwriteIndex,
  appOverwrites: OverwriteIndex,
): AccessDecision | undefined {
  const commandLevel = channelOverwrite(scene, commandOverwrites);
  if (commandLevel) {
    if (commandLevel.permission) return undefined;
    return commandLevel.allChannels ? deny(AccessReason.AllChannelsDenied) : deny(AccessReason.ChannelDenied);
  }
  const appLevel = channelOverwrite(scene, appOverwrites);
  if (!appLevel || appLevel.permission) return undefined;
  return appLevel.allChannels ? deny(AccessReason.AppAllChannelsDenied) : deny(AccessReason.AppChannelDenied);
}

// ---- Step 2: member overwrites (rules 15 to 20) ----

type MemberTarget = 'user' | 'role' | 'everyone';

/** The combined permission of the overwrites for the member's roles; undefined when none names one. */
function rolesPermission(scene: AccessScene, overwrites: OverwriteIndex): boolean | undefined {
  if (overwrites.roles.size === 0) return undefined;
  let found = false;
  for (const roleId of scene.roleIds) {
    const entry = overwrites.roles.get(roleId);
    if (entry === undefined) continue;
    if (entry.anyAllows) return true;
    found = true;
  }
  return found ? false : undefined;
}

/** Which overwrite of step 2 applies at one level: the member's, else the roles', else @everyone's. */
function memberOverwrite(
  scene: AccessScene,
  overwrites: OverwriteIndex,
): { target: MemberTarget; permission: boolean } | undefined {
  const own = overwrites.users.get(scene.member.user_id);
  if (own !== undefined) return { target: 'user', permission: own };
  const roles = rolesPermission(scene, overwrites);
  if (roles !== undefined) return { target: 'role', permission: roles };
  const everyone = overwrites.roles.get(everyoneId(scene.guild.id));
  return everyone === undefined ? undefined : { target: 'everyone', permission: everyone.first };
}

const COMMAND_LEVEL: Readonly<Record<MemberTarget, { allowed: AccessDecision; denied: AccessDecision }>> = {
  user: { allowed: allow(AccessReason.UserAllowed), denied: deny(AccessReason.UserDenied) },
  role: { allowed: allow(AccessReason.RoleAllowed), denied: deny(AccessReason.RoleDenied) },
  everyone: { allowed: allow(AccessReason.EveryoneAllowed), denied: deny(AccessReason.EveryoneDenied) },
};

const APP_LEVEL_DENIALS: Readonly<Record<MemberTarget, AccessDecision>> = {
  user: deny(AccessReason.AppUserDenied),
  role: deny(AccessReason.AppRoleDenied),
  everyone: deny(AccessReason.AppEveryoneDenied),
};

/** Command level decides either way (an allow is final); app level only denies. */
function memberStep(
  scene: AccessScene,
  commandOverwrites: OverwriteIndex,
  appOverwrites: OverwriteIndex,
): AccessDecision | undefined {
  const commandLevel = memberOverwrite(scene, commandOverwrites);
  if (commandLevel) {
    const decisions = COMMAND_LEVEL[commandLevel.target];
    return commandLevel.permission ? decisions.allowed : decisions.denied;
  }
  const appLevel = memberOverwrite(scene, appOverwrites);
  return appLevel && !appLevel.permission ? APP_LEVEL_DENIALS[appLevel.target] : undefined;
}

// ---- Step 3: default_member_permissions (rules 21 to 25) ----

function defaultMemberPermissionsStep(scene: AccessScene, command: StoredCommand): AccessDecision {
  const { default_member_permissions: required, default_permission: enabledByDefault } = command.definition;
  if (required === null) {
    return enabledByDefault === false
      ? deny(AccessReason.DefaultPermissionFalse)
      : allow(AccessReason.DefaultMemberPermissionsNull);
  }
  // "0" means administrators only; a malformed bit set parses as 0 and so fails closed.
  const requiredBits = scene.requiredBitsOf(required);
  if (requiredBits === 0n) return deny(AccessReason.DefaultMemberPermissionsZero);
  return hasAll(scene.channelBits, requiredBits)
    ? allow(AccessReason.DefaultMemberPermissionsMet)
    : deny(AccessReason.MissingDefaultMemberPermissions);
}

/**
 * May the scene's member use `command`? The same decision as `evaluateCommandAccess` given the
 * scene's input, the command, and the overwrite lists the two indexes were built from.
 */
export function evaluateCommandAccessFast(
  scene: AccessScene,
  command: StoredCommand,
  commandOverwrites: OverwriteIndex,
  appOverwrites: OverwriteIndex,
): AccessDecision {
  return (
    availability(scene, command) ??
    memberGate(scene) ??
    channelStep(scene, commandOverwrites, appOverwrites) ??
    memberStep(scene, commandOverwrites, appOverwrites) ??
    defaultMemberPermissionsStep(scene, command)
  );
}
