/**
 * "Why not?": for one member in one channel, every command of an app with its verdict and the
 * reason as data (the deciding rule and the overwrites, roles, channel and permissions it read).
 *
 * The verdict is never worked out here: it is the decision of `evaluateCommandAccessFast`, the
 * function the command picker (visible-commands.ts) filters with, on the same scene and the same
 * indexed overwrites, then the invocation rule of invocation.ts. So a command is `shown` or
 * `refused` exactly when the picker lists it (property-tested in test/permissions-explain.test.ts).
 * What follows the decision only names what the deciding rule looked at, for the wording
 * (explain-wording.ts) and the console.
 */
import type { StoredCommand } from '../commands/model.js';
import { CommandType, InteractionContext } from '../commands/model.js';
import type { Application, Channel, Guild, User } from '../world/types.js';
import { ADMINISTRATOR, USE_APPLICATION_COMMANDS, VIEW_CHANNEL, hasAll, parsePermissions } from './bits.js';
import { canSendMessages, sendMessagesFlag } from './channel-permissions.js';
import {
  CommandPermissionType,
  allChannelsId,
  everyoneId,
  findOverwrite,
  type CommandPermission,
  type GuildCommandPermissions,
} from './command-permissions.js';
import { AccessReason, type AccessDecision, type AccessReasonCode } from './engine.js';
import { AccessScene, evaluateCommandAccessFast, type AccessSceneInput } from './fast-access.js';
import { flagNames } from './flag-names.js';
import { InvocationReason, type InvocationReasonCode } from './invocation.js';
import { indexGuildPermissions, indexOverwrites } from './overwrite-index.js';
import {
  groupDmRefusal,
  guildUserInstallRefusal,
  UserInstallReason,
  type GuildUserInstallRefusal,
  type UserInstallReasonCode,
  type UserInstallScene,
} from './user-install.js';
import { governingChannel } from './channels.js';

/** What the member gets: the command in the picker, not there, or there but refused when invoked. */
export const Verdict = {
  Shown: 'shown',
  Hidden: 'hidden',
  /** In the picker, but invoking it fails (a USER command without permission to send messages). */
  Refused: 'refused',
} as const;
export type VerdictValue = (typeof Verdict)[keyof typeof Verdict];

/** The rule that decided: the engine's reason code, the invocation rule's, or a user install's. */
export type ExplanationKind = AccessReasonCode | InvocationReasonCode | UserInstallReasonCode;

/** Where an overwrite is stored: the command's own permissions object, or the app-level one. */
export type OverwriteLevel = 'command' | 'app';
/** What an overwrite names; `everyone` and `all_channels` are the two id constants. */
export type OverwriteTarget = 'channel' | 'all_channels' | 'user' | 'role' | 'everyone';

/** Something of the guild a reason names; `name` is null when the world has none for the id. */
export interface NamedEntity {
  readonly id: string;
  readonly name: string | null;
}

/** One stored overwrite the deciding rule read. */
export interface ExplainedOverwrite extends NamedEntity {
  readonly level: OverwriteLevel;
  readonly target: OverwriteTarget;
  readonly permission: boolean;
}

/** The reason as data: the rule, and only the entities that rule read (absent fields: none). */
export interface ExplanationReason {
  readonly kind: ExplanationKind;
  /** The overwrites that decided (several for the member's roles). */
  readonly overwrites?: readonly ExplainedOverwrite[];
  /** Permission flags the member lacks in the channel. */
  readonly missing_permissions?: readonly string[];
  /** The command's `default_member_permissions`, as flag names. */
  readonly required_permissions?: readonly string[];
  /** The member's roles that matter (those granting ADMINISTRATOR). */
  readonly roles?: readonly NamedEntity[];
  /** The channel the rule read: the channel itself, or a thread's parent for overwrites and age restriction. */
  readonly channel?: NamedEntity;
  /** The global command's `contexts`, when they leave out GUILD. */
  readonly contexts?: readonly number[];
  /** The integration types that applied, when they leave out GUILD_INSTALL (USER_INSTALL for a user install's). */
  readonly integration_types?: readonly number[];
  /** Where a user install's rule was read: the interaction context of the place (0 a guild, 2 a group DM). */
  readonly context?: number;
}

export interface CommandExplanation {
  readonly command: {
    readonly id: string;
    readonly name: string;
    readonly type: number;
    /** null for a global command. */
    readonly guild_id: string | null;
  };
  readonly verdict: VerdictValue;
  readonly reason: ExplanationReason;
}

export interface ExplainCommandsInput extends AccessSceneInput {
  /** The app's global commands and its guild commands (other apps' are left out, as the picker does). */
  readonly commands: readonly StoredCommand[];
  /** The app's permissions objects in this guild, as stored. */
  readonly guildPermissions: readonly GuildCommandPermissions[];
}

/** What naming an entity needs: the scene, and the two overwrite lists as stored. */
interface Facts {
  readonly scene: AccessScene;
  readonly command: StoredCommand;
  readonly commandOverwrites: readonly CommandPermission[];
  readonly appOverwrites: readonly CommandPermission[];
}

function roleName(guild: Guild, id: string): string | null {
  return guild.roles.find((role) => role.id === id)?.name ?? null;
}

function named(channel: Channel): NamedEntity {
  return { id: channel.id, name: channel.name };
}

function levelOf(kind: ExplanationKind): OverwriteLevel {
  return kind.startsWith('app_') ? 'app' : 'command';
}

function overwritesAt(facts: Facts, level: OverwriteLevel): readonly CommandPermission[] {
  return level === 'app' ? facts.appOverwrites : facts.commandOverwrites;
}

function explained(
  facts: Facts,
  level: OverwriteLevel,
  target: OverwriteTarget,
  overwrite: CommandPermission,
): ExplainedOverwrite {
  const { guild, commandChannel, user } = facts.scene;
  const names: Record<OverwriteTarget, string | null> = {
    channel: commandChannel.name,
    all_channels: null,
    user: user.username,
    role: roleName(guild, overwrite.id),
    everyone: '@everyone',
  };
  return { level, target, id: overwrite.id, name: names[target], permission: overwrite.permission };
}

/** The overwrite a single-target rule read (the first of its type and id, as the engine reads it). */
function singleOverwrite(facts: Facts, kind: ExplanationKind, target: OverwriteTarget): ExplanationReason {
  const level = levelOf(kind);
  const { scene } = facts;
  const ids: Record<Exclude<OverwriteTarget, 'role'>, [CommandPermission['type'], string]> = {
    channel: [CommandPermissionType.Channel, scene.commandChannel.id],
    all_channels: [CommandPermissionType.Channel, allChannelsId(scene.guild.id)],
    user: [CommandPermissionType.User, scene.member.user_id],
    everyone: [CommandPermissionType.Role, everyoneId(scene.guild.id)],
  };
  const [type, id] = ids[target as Exclude<OverwriteTarget, 'role'>];
  const found = findOverwrite(overwritesAt(facts, level), type, id);
  const overwrites = found ? [explained(facts, level, target, found)] : [];
  const channel = target === 'channel' || target === 'all_channels' ? named(scene.commandChannel) : undefined;
  return { kind, overwrites, ...(channel ? { channel } : {}) };
}

/** The overwrites for the member's roles a role rule read: the allowing ones if one allowed, else all. */
function roleOverwrites(facts: Facts, kind: ExplanationKind, allowed: boolean): ExplanationReason {
  const level = levelOf(kind);
  const roleIds = new Set(facts.scene.roleIds);
  const overwrites = overwritesAt(facts, level)
    .filter((o) => o.type === CommandPermissionType.Role && roleIds.has(o.id) && (!allowed || o.permission))
    .map((o) => explained(facts, level, 'role', o));
  return { kind, overwrites };
}

/** The member's roles (and @everyone) whose permissions hold ADMINISTRATOR. */
function administratorRoles({ scene }: Facts): NamedEntity[] {
  const { guild } = scene;
  return [everyoneId(guild.id), ...scene.roleIds]
    .map((id) => guild.roles.find((role) => role.id === id))
    .filter((role) => role !== undefined && hasAll(parsePermissions(role.permissions), ADMINISTRATOR))
    .map((role) => ({ id: role!.id, name: role!.name }));
}

function missingUseApplicationCommands(facts: Facts, kind: ExplanationKind): ExplanationReason {
  const { scene } = facts;
  const missing = hasAll(scene.channelBits, VIEW_CHANNEL)
    ? USE_APPLICATION_COMMANDS
    : VIEW_CHANNEL | USE_APPLICATION_COMMANDS;
  return { kind, missing_permissions: flagNames(missing), channel: named(scene.channel) };
}

function defaultMemberPermissions(facts: Facts, kind: ExplanationKind): ExplanationReason {
  const { scene, command } = facts;
  const required = scene.requiredBitsOf(command.definition.default_member_permissions ?? '0');
  const reason = { kind, required_permissions: flagNames(required), channel: named(scene.channel) };
  if (kind !== AccessReason.MissingDefaultMemberPermissions) return reason;
  return { ...reason, missing_permissions: flagNames(required & ~scene.channelBits) };
}

/** What each rule read, by the reason code it decided with. */
function reasonOf(facts: Facts, decision: AccessDecision): ExplanationReason {
  const { scene, command } = facts;
  const kind = decision.reason;
  switch (kind) {
    case AccessReason.Context:
      return { kind, contexts: command.definition.contexts ?? [] };
    case AccessReason.IntegrationType:
      return { kind, integration_types: command.definition.integration_types ?? scene.app.integration_types };
    case AccessReason.NsfwChannel:
      return { kind, channel: named(scene.commandChannel) };
    case AccessReason.Administrator:
      return { kind, roles: administratorRoles(facts) };
    case AccessReason.MissingUseApplicationCommands:
      return missingUseApplicationCommands(facts, kind);
    case AccessReason.ChannelDenied:
    case AccessReason.AppChannelDenied:
      return singleOverwrite(facts, kind, 'channel');
    case AccessReason.AllChannelsDenied:
    case AccessReason.AppAllChannelsDenied:
      return singleOverwrite(facts, kind, 'all_channels');
    case AccessReason.UserAllowed:
    case AccessReason.UserDenied:
    case AccessReason.AppUserDenied:
      return singleOverwrite(facts, kind, 'user');
    case AccessReason.RoleAllowed:
    case AccessReason.RoleDenied:
    case AccessReason.AppRoleDenied:
      return roleOverwrites(facts, kind, decision.allowed);
    case AccessReason.EveryoneAllowed:
    case AccessReason.EveryoneDenied:
    case AccessReason.AppEveryoneDenied:
      return singleOverwrite(facts, kind, 'everyone');
    case AccessReason.DefaultMemberPermissionsMet:
    case AccessReason.MissingDefaultMemberPermissions:
      return defaultMemberPermissions(facts, kind);
    default:
      // other_guild, not_installed, entry point, nsfw_user, owner, the null/"0" defaults: the code says it all.
      return { kind };
  }
}

/** The invocation rule (invocation.ts) on an allowed command: a USER command needs to send messages. */
function invocationRefusal({ scene, command }: Facts): ExplanationReason | undefined {
  if (command.definition.type !== CommandType.User) return undefined;
  const flag = sendMessagesFlag(scene.channel);
  if (hasAll(scene.channelBits, flag)) return undefined;
  return {
    kind: InvocationReason.MissingSendMessages,
    missing_permissions: flagNames(flag),
    channel: named(scene.channel),
  };
}

function explainOne(facts: Facts, decision: AccessDecision): CommandExplanation {
  const { command } = facts;
  const summary = {
    id: command.id,
    name: command.definition.name,
    type: command.definition.type,
    guild_id: command.guild_id,
  };
  if (!decision.allowed) return { command: summary, verdict: Verdict.Hidden, reason: reasonOf(facts, decision) };
  const refusal = invocationRefusal(facts);
  if (refusal) return { command: summary, verdict: Verdict.Refused, reason: refusal };
  return { command: summary, verdict: Verdict.Shown, reason: reasonOf(facts, decision) };
}

/** Every command of the app given (in the order given), with its verdict and reason. */
export function explainCommands(input: ExplainCommandsInput): CommandExplanation[] {
  const { app, guild } = input;
  // The picker's own steps (visible-commands.ts): one scene, this app's objects in this guild, indexed.
  const scene = new AccessScene(input);
  const permissions = indexGuildPermissions(input.guildPermissions, app.id, guild.id);
  const appList = permissions.overwritesOf(app.id);
  const appIndex = indexOverwrites(appList);
  return input.commands
    .filter((command) => command.application_id === app.id)
    .map((command) => {
      const commandList = permissions.overwritesOf(command.id);
      const decision = evaluateCommandAccessFast(scene, command, indexOverwrites(commandList), appIndex);
      const facts = { scene, command, commandOverwrites: commandList ?? [], appOverwrites: appList ?? [] };
      return explainOne(facts, decision);
    });
}

/** A command's summary as an explanation names it. */
function summaryOf(command: StoredCommand): CommandExplanation['command'] {
  return { id: command.id, name: command.definition.name, type: command.definition.type, guild_id: command.guild_id };
}

/** What a user install's refusal read: the command's contexts or integration types, or the channel. */
function userInstallRefusalReason(
  app: Pick<Application, 'integration_types'>,
  command: StoredCommand,
  refusal: GuildUserInstallRefusal,
  context: number,
  place: { guild: Guild; channel: Channel } | null,
): ExplanationReason {
  switch (refusal) {
    case UserInstallReason.Context:
      return { kind: refusal, contexts: command.definition.contexts ?? [], context };
    case UserInstallReason.IntegrationType:
      return { kind: refusal, integration_types: command.definition.integration_types ?? app.integration_types };
    case AccessReason.NsfwChannel:
      return place
        ? { kind: refusal, channel: named(governingChannel(place.guild, place.channel)) }
        : { kind: refusal };
    case AccessReason.MissingUseApplicationCommands:
      return {
        kind: refusal,
        missing_permissions: flagNames(USE_APPLICATION_COMMANDS),
        ...(place ? { channel: named(place.channel) } : {}),
      };
    default:
      return { kind: refusal };
  }
}

/**
 * "Why not?" in a group DM, for one app's global commands: no app is installed there, so only the
 * user's own install brings commands (`installed`: whether they installed the app to their
 * account), those the group-DM rule of user-install.ts allows (the picker's own filter).
 */
export function explainGroupDmCommands(
  app: Pick<Application, 'integration_types' | 'flags'>,
  user: Pick<User, 'age_verified'>,
  installed: boolean,
  commands: readonly StoredCommand[],
): CommandExplanation[] {
  const context = InteractionContext.PrivateChannel;
  return commands.map((command) => {
    const refusal = groupDmRefusal(app, user, command);
    const summary = summaryOf(command);
    if (refusal !== null) {
      const reason = userInstallRefusalReason(app, command, refusal, context, null);
      return { command: summary, verdict: Verdict.Hidden, reason };
    }
    if (!installed) {
      return { command: summary, verdict: Verdict.Hidden, reason: { kind: UserInstallReason.NotInstalledForUser } };
    }
    return { command: summary, verdict: Verdict.Shown, reason: { kind: UserInstallReason.Allowed, context } };
  });
}

/**
 * "Why not?" in a guild channel, for one app's global commands through the user's own install
 * (`installed`: whether they installed the app to their account; the app there or not): the rule
 * the picker filters with (`guildUserInstallRefusal`), then the install, then the invocation rule
 * (a USER command needs to send messages in the channel, as through a guild install).
 */
export function explainGuildUserInstallCommands(
  scene: UserInstallScene,
  installed: boolean,
  commands: readonly StoredCommand[],
): CommandExplanation[] {
  const context = InteractionContext.Guild;
  const { app, guild, member, channel } = scene;
  return commands.map((command) => {
    const refusal = guildUserInstallRefusal(scene, command);
    const summary = summaryOf(command);
    if (refusal !== null) {
      const reason = userInstallRefusalReason(app, command, refusal, context, scene);
      return { command: summary, verdict: Verdict.Hidden, reason };
    }
    if (!installed) {
      return { command: summary, verdict: Verdict.Hidden, reason: { kind: UserInstallReason.NotInstalledForUser } };
    }
    if (command.definition.type === CommandType.User && !canSendMessages(guild, member, channel)) {
      const reason: ExplanationReason = {
        kind: InvocationReason.MissingSendMessages,
        missing_permissions: flagNames(sendMessagesFlag(channel)),
        channel: named(channel),
      };
      return { command: summary, verdict: Verdict.Refused, reason };
    }
    return { command: summary, verdict: Verdict.Shown, reason: { kind: UserInstallReason.Allowed, context } };
  });
}

/**
 * An app installed in the guild that the user installed to their account too: the picker lists a
 * command either install brings (the guild's first), so a command the guild install hides takes
 * the user install's explanation when that one does not hide it; otherwise the guild's reason stays.
 */
export function withUserInstallExplanations(
  guildSide: readonly CommandExplanation[],
  userSide: readonly CommandExplanation[],
): CommandExplanation[] {
  const byId = new Map(userSide.map((explanation) => [explanation.command.id, explanation]));
  return guildSide.map((explanation) => {
    if (explanation.verdict !== Verdict.Hidden) return explanation;
    const user = byId.get(explanation.command.id);
    return user && user.verdict !== Verdict.Hidden ? user : explanation;
  });
}
