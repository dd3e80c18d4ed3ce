/**
 * Ids in options and targets must name something the user could have picked: USER a user of the
 * world (a member of the guild or not), ROLE a role of the guild, CHANNEL a channel of the guild
 * (outside a guild only the current channel), MENTIONABLE a user or a role. Every id that resolves
 * is recorded for `data.resolved`.
 *
 * Decision: ATTACHMENT accepts any snowflake. slashd has no upload endpoint for invocations, so an
 * attachment id stands for a file the client uploaded; it resolves to a placeholder attachment
 * object (see `resolved.ts`) unless the caller supplies the attachment.
 */
import { OptionType, type OptionDefinition } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import type { Channel, Role, User } from '../../../core/world/types.js';
import { report, type Issues } from '../../../core/io/report.js';
import {
  INTERACTION_OPTION_CHANNEL_TYPE_INVALID,
  INTERACTION_UNKNOWN_CHANNEL,
  INTERACTION_UNKNOWN_MENTIONABLE,
  INTERACTION_UNKNOWN_ROLE,
  INTERACTION_UNKNOWN_USER,
} from '../../../core/io/codes.js';
import type { InvocationTarget, ReferencedIds } from './invocation-types.js';
import { addReference } from '../../messages/rules/references.js';
import { isMember } from '../../../core/world/member-index.js';

/** Where ids are looked up and where what they name is recorded. */
export interface ResolutionScope {
  readonly target: InvocationTarget;
  readonly references: ReferencedIds;
}

function findUser(scope: ResolutionScope, id: string): User | undefined {
  return scope.target.users.find((user) => user.id === id);
}

function findRole(scope: ResolutionScope, id: string): Role | undefined {
  return scope.target.guild?.roles.find((role) => role.id === id);
}

/** The channels a CHANNEL option can pick from: the guild's, or the current one outside guilds. */
function findChannel(scope: ResolutionScope, id: string): Channel | undefined {
  const { guild, channel } = scope.target;
  if (!guild) return channel.id === id ? channel : undefined;
  return guild.channels.find((candidate) => candidate.id === id);
}

/** Records a user, and the member too when the user belongs to the guild (a member implies its user). */
function referenceUser(scope: ResolutionScope, id: string): void {
  addReference(scope.references, 'users', id);
  if (scope.target.guild && isMember(scope.target.guild, id)) {
    addReference(scope.references, 'members', id);
  }
}

export function resolveUser(id: string, path: IssuePath, scope: ResolutionScope, issues: Issues): void {
  if (findUser(scope, id)) referenceUser(scope, id);
  else report(issues, path, INTERACTION_UNKNOWN_USER, `Unknown user "${id}".`);
}

function resolveRole(id: string, path: IssuePath, scope: ResolutionScope, issues: Issues): void {
  if (findRole(scope, id)) addReference(scope.references, 'roles', id);
  else report(issues, path, INTERACTION_UNKNOWN_ROLE, `Unknown role "${id}".`);
}

/** An empty or missing `channel_types` allows every channel type. */
function checkChannelType(channel: Channel, option: OptionDefinition, path: IssuePath, issues: Issues): void {
  const allowed = option.channel_types;
  if (!allowed || allowed.length === 0 || allowed.includes(channel.type)) return;
  report(
    issues,
    path,
    INTERACTION_OPTION_CHANNEL_TYPE_INVALID,
    `Channel type ${channel.type} is not one of {${allowed.join(', ')}}.`,
  );
}

function resolveChannel(
  id: string,
  option: OptionDefinition,
  path: IssuePath,
  scope: ResolutionScope,
  issues: Issues,
): void {
  const channel = findChannel(scope, id);
  if (!channel) {
    report(issues, path, INTERACTION_UNKNOWN_CHANNEL, `Unknown channel "${id}".`);
    return;
  }
  const before = issues.length;
  checkChannelType(channel, option, path, issues);
  if (issues.length === before) addReference(scope.references, 'channels', id);
}

/** A user first: user and role ids never collide, except @everyone, which is the guild id. */
function resolveMentionable(id: string, path: IssuePath, scope: ResolutionScope, issues: Issues): void {
  if (findUser(scope, id)) referenceUser(scope, id);
  else if (findRole(scope, id)) addReference(scope.references, 'roles', id);
  else report(issues, path, INTERACTION_UNKNOWN_MENTIONABLE, `Unknown user or role "${id}".`);
}

/** Looks up an id option's value and records what it names; reports an id that names nothing. */
export function resolveOptionId(
  id: string,
  option: OptionDefinition,
  path: IssuePath,
  scope: ResolutionScope,
  issues: Issues,
): void {
  switch (option.type) {
    case OptionType.User:
      return resolveUser(id, path, scope, issues);
    case OptionType.Role:
      return resolveRole(id, path, scope, issues);
    case OptionType.Channel:
      return resolveChannel(id, option, path, scope, issues);
    case OptionType.Mentionable:
      return resolveMentionable(id, path, scope, issues);
    case OptionType.Attachment:
      return addReference(scope.references, 'attachments', id);
    default:
      // Not an id option: its value names nothing.
      return;
  }
}
