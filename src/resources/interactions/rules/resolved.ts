/**
 * `data.resolved`: the objects behind the ids an invocation references, keyed by id (
 * docs/v10-behaviour.md#interactions). A member implies its user; maps with nothing in them are left out, and so is
 * `resolved` itself when every map is empty.
 */
import type { APIAttachment, APIRole, APIUser } from 'discord-api-types/v10';
import { memberOf } from '../../../core/world/member-index.js';
import { nullRecord } from '../../../core/records.js';
import { formatPermissions } from '../../../core/permissions/bits.js';
import { channelPermissions } from '../../../core/permissions/channel-permissions.js';
import type { Application, Channel, Guild, Member, User } from '../../../core/world/types.js';
import { toWirePublicUser } from '../../../core/world/wire.js';
import type { ReferencedIds } from './invocation-types.js';
import {
  toStoredMessage,
  toWireMessage,
  type ChannelMessage,
  type MessageRenderContext,
  type WireMessage,
} from '../../messages/rules/messages.js';
import {
  placeholderAttachment,
  toWirePartialChannel,
  toWireResolvedMember,
  toWireRole,
  type WirePartialChannel,
  type WireResolvedMember,
} from '../../messages/rules/wire-objects.js';

/**
 * `data.resolved` as slashd sends it: discord-api-types' `APIInteractionDataResolved` with slashd's
 * member, channel and message shapes (the fields v10 sends that its types lack). Each map has no
 * prototype: its keys are ids a client sent.
 */
export interface WireResolved {
  users?: Record<string, APIUser>;
  members?: Record<string, WireResolvedMember>;
  roles?: Record<string, APIRole>;
  channels?: Record<string, WirePartialChannel>;
  messages?: Record<string, WireMessage>;
  attachments?: Record<string, APIAttachment>;
}

/** What the referenced ids are looked up in. */
export interface ResolutionSource {
  app: Application;
  guild: Guild | null;
  /** The invoking member: resolved channels carry its permissions in them. */
  member: Member | null;
  /** The channel the command is invoked in: resolved members carry their permissions in it. */
  channel: Channel;
  users: readonly User[];
  messages: readonly ChannelMessage[];
  /** Applications whose bots may have written a resolved message; the invoked app is always known. */
  applications?: readonly Application[];
  /** Attachments the caller received, by id; any other id gets a placeholder. */
  attachments?: Readonly<Record<string, APIAttachment>>;
}

/** Builds a map from ids, skipping ids that no longer resolve rather than failing the invocation. */
function mapOf<T>(ids: readonly string[], toWire: (id: string) => T | undefined): Record<string, T> {
  const map = nullRecord<T>();
  for (const id of ids) {
    const wire = toWire(id);
    if (wire) map[id] = wire;
  }
  return map;
}

function findMember(guild: Guild | null, userId: string): Member | undefined {
  return guild ? memberOf(guild, userId) : undefined;
}

function findGuildChannel(source: ResolutionSource, id: string): Channel | undefined {
  if (!source.guild) return source.channel.id === id ? source.channel : undefined;
  return source.guild.channels.find((channel) => channel.id === id);
}

function resolveUser(source: ResolutionSource, id: string): APIUser | undefined {
  const user = source.users.find((candidate) => candidate.id === id);
  return user ? toWirePublicUser(user) : undefined;
}

function resolveMember(source: ResolutionSource, id: string): WireResolvedMember | undefined {
  const member = findMember(source.guild, id);
  return source.guild && member ? toWireResolvedMember(source.guild, member, source.channel) : undefined;
}

function resolveRole(source: ResolutionSource, id: string): APIRole | undefined {
  const role = source.guild?.roles.find((candidate) => candidate.id === id);
  return source.guild && role ? toWireRole(source.guild, role) : undefined;
}

/** A resolved channel carries the invoking member's permissions in it; outside guilds there are none to give. */
function resolveChannel(source: ResolutionSource, id: string): WirePartialChannel | undefined {
  const channel = findGuildChannel(source, id);
  if (!channel) return undefined;
  const { guild, member } = source;
  const permissions = guild && member ? formatPermissions(channelPermissions(guild, member, channel)) : null;
  return toWirePartialChannel(channel, guild, permissions);
}

function messageContext(source: ResolutionSource): MessageRenderContext {
  return {
    findUser: (id) => source.users.find((user) => user.id === id),
    findApplication: (id) => (id === source.app.id ? source.app : source.applications?.find((app) => app.id === id)),
  };
}

function resolveMessage(source: ResolutionSource, id: string): WireMessage | undefined {
  const message = source.messages.find((candidate) => candidate.id === id);
  if (!message) return undefined;
  return toWireMessage(toStoredMessage(message, source.guild?.id ?? null), messageContext(source));
}

function resolveAttachment(source: ResolutionSource, id: string): APIAttachment {
  return source.attachments?.[id] ?? placeholderAttachment(id);
}

/** Every user a resolved member stands for is in `users` too (docs/v10-behaviour.md#interactions). */
function userIdsWithMembers(referenced: ReferencedIds): string[] {
  const ids = [...referenced.users];
  for (const id of referenced.members) if (!ids.includes(id)) ids.push(id);
  return ids;
}

/** `data.resolved`, or undefined when the invocation references nothing. */
export function buildResolved(referenced: ReferencedIds, source: ResolutionSource): WireResolved | undefined {
  const resolved: WireResolved = nullRecord();
  const put = <K extends keyof WireResolved>(key: K, map: NonNullable<WireResolved[K]>) => {
    if (Object.keys(map).length > 0) resolved[key] = map;
  };
  put(
    'users',
    mapOf(userIdsWithMembers(referenced), (id) => resolveUser(source, id)),
  );
  put(
    'members',
    mapOf(referenced.members, (id) => resolveMember(source, id)),
  );
  put(
    'roles',
    mapOf(referenced.roles, (id) => resolveRole(source, id)),
  );
  put(
    'channels',
    mapOf(referenced.channels, (id) => resolveChannel(source, id)),
  );
  put(
    'messages',
    mapOf(referenced.messages, (id) => resolveMessage(source, id)),
  );
  put(
    'attachments',
    mapOf(referenced.attachments, (id) => resolveAttachment(source, id)),
  );
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}
