/**
 * `data.resolved`: the objects behind the ids an invocation references, keyed by id (
 * docs/v10-behaviour.md#interactions). A member implies its user; maps with nothing in them are left out, and so is
 * `resolved` itself when every map is empty.
 */
import { memberOf } from '../world/member-index.js';
import { nullRecord } from '../records.js';
import { formatPermissions } from '../permissions/bits.js';
import { channelPermissions } from '../permissions/channel-permissions.js';
import type { Application, Channel, Guild, Member, User } from '../world/types.js';
import { toWirePublicUser } from '../world/wire.js';
import type { ReferencedIds } from './invocation-types.js';
import { toStoredMessage, toWireMessage, type ChannelMessage, type MessageRenderContext } from './messages.js';
import {
  placeholderAttachment,
  toWirePartialChannel,
  toWireResolvedMember,
  toWireRole,
  type WireObject,
} from './wire-objects.js';

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
  attachments?: Readonly<Record<string, WireObject>>;
}

type ResolvedMap = Record<string, WireObject>;

/** Builds a map from ids, skipping ids that no longer resolve rather than failing the invocation. */
function mapOf(ids: readonly string[], toWire: (id: string) => WireObject | undefined): ResolvedMap {
  const map = nullRecord<WireObject>();
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

function resolveUser(source: ResolutionSource, id: string): WireObject | undefined {
  const user = source.users.find((candidate) => candidate.id === id);
  return user ? toWirePublicUser(user) : undefined;
}

function resolveMember(source: ResolutionSource, id: string): WireObject | undefined {
  const member = findMember(source.guild, id);
  return source.guild && member ? toWireResolvedMember(source.guild, member, source.channel) : undefined;
}

function resolveRole(source: ResolutionSource, id: string): WireObject | undefined {
  const role = source.guild?.roles.find((candidate) => candidate.id === id);
  return source.guild && role ? toWireRole(source.guild, role) : undefined;
}

/** A resolved channel carries the invoking member's permissions in it; outside guilds there are none to give. */
function resolveChannel(source: ResolutionSource, id: string): WireObject | undefined {
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

function resolveMessage(source: ResolutionSource, id: string): WireObject | undefined {
  const message = source.messages.find((candidate) => candidate.id === id);
  if (!message) return undefined;
  return toWireMessage(toStoredMessage(message, source.guild?.id ?? null), messageContext(source));
}

function resolveAttachment(source: ResolutionSource, id: string): WireObject {
  return source.attachments?.[id] ?? placeholderAttachment(id);
}

/** Every user a resolved member stands for is in `users` too (docs/v10-behaviour.md#interactions). */
function userIdsWithMembers(referenced: ReferencedIds): string[] {
  const ids = [...referenced.users];
  for (const id of referenced.members) if (!ids.includes(id)) ids.push(id);
  return ids;
}

/** `data.resolved`, or undefined when the invocation references nothing. */
export function buildResolved(referenced: ReferencedIds, source: ResolutionSource): WireObject | undefined {
  const maps = {
    users: mapOf(userIdsWithMembers(referenced), (id) => resolveUser(source, id)),
    members: mapOf(referenced.members, (id) => resolveMember(source, id)),
    roles: mapOf(referenced.roles, (id) => resolveRole(source, id)),
    channels: mapOf(referenced.channels, (id) => resolveChannel(source, id)),
    messages: mapOf(referenced.messages, (id) => resolveMessage(source, id)),
    attachments: mapOf(referenced.attachments, (id) => resolveAttachment(source, id)),
  };
  const resolved = nullRecord();
  for (const [key, map] of Object.entries(maps)) {
    if (Object.keys(map).length > 0) resolved[key] = map;
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}
