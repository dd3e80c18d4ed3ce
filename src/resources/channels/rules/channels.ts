/**
 * A guild's channels as a bot changes them (v10 Channel endpoints): each change as the channels
 * after it, refused by v10's rules. Creating, editing, moving and deleting need MANAGE_CHANNELS
 * (a thread's delete MANAGE_THREADS); overwrites need MANAGE_ROLES in the channel, and allow or
 * deny only what the actor has in the guild (or in the category), unless an administrator or
 * granted MANAGE_ROLES by an overwrite of the channel; MANAGE_ROLES itself only an administrator.
 * Pure: the store runs these as planners.
 */
import { ChannelType } from 'discord-api-types/v10';
import { CHANNEL_PARENT_INVALID } from '../../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../../core/io/errors.js';
import { issue, type IssuePath } from '../../../core/io/issue.js';
import { BASE_TYPE_CHOICES } from '../../../core/io/codes.js';
import {
  ALL,
  MANAGE_CHANNELS,
  MANAGE_ROLES,
  MANAGE_THREADS,
  VIEW_CHANNEL,
  hasAll,
  parsePermissions,
} from '../../../core/permissions/bits.js';
import { CATEGORY_CHANNEL_TYPE, findChannel, isThread } from '../../../core/permissions/channels.js';
import type { Channel, Guild, PermissionOverwrite } from '../../../core/world/types.js';
import {
  isAdministratorActor,
  requireChannelPermission,
  requireGuildPermission,
  type StructureActor,
} from '../../guild-structure/rules/actor.js';
import { MAX_OVERWRITES, type ChannelFields } from './channel-bodies.js';
import { reorder, unknownMoveIssues, type Move } from '../../guild-structure/rules/reorder.js';

/** The most channels a guild has, threads aside (v10). */
export const MAX_GUILD_CHANNELS = 500;
/** Text and announcement channels: the two types an edit may switch between (v10). */
const CONVERTIBLE_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

export function findGuildChannel(guild: Guild, channelId: string): Channel {
  const channel = findChannel(guild, channelId);
  if (!channel) throw apiError('UnknownChannel');
  return channel;
}

/** What the actor may allow or deny in overwrites of the channel. */
function grantableIn(guild: Guild, actor: StructureActor, channel: Channel | null): bigint {
  if (isAdministratorActor(actor)) return ALL;
  if (channel && isGrantedByOverwrite(actor, channel)) return ALL;
  const parent = channel?.parent_id ? findChannel(guild, channel.parent_id) : undefined;
  return parent ? actor.inChannel(parent) : actor.bits;
}

/** MANAGE_ROLES given in the channel by an overwrite (v10 then lifts the bound on what may be granted). */
function isGrantedByOverwrite(actor: StructureActor, channel: Channel): boolean {
  return hasAll(actor.inChannel(channel), MANAGE_ROLES) && !hasAll(actor.bits, MANAGE_ROLES);
}

/** 50013 for an overwrite that allows or denies what the actor may not grant there. */
function requireGrantableOverwrites(
  guild: Guild,
  actor: StructureActor,
  channel: Channel | null,
  overwrites: readonly PermissionOverwrite[],
): void {
  const grantable = grantableIn(guild, actor, channel);
  for (const overwrite of overwrites) {
    const bits = parsePermissions(overwrite.allow) | parsePermissions(overwrite.deny);
    if (!hasAll(grantable, bits)) throw apiError('MissingPermissions');
    if (hasAll(bits, MANAGE_ROLES) && !isAdministratorActor(actor)) throw apiError('MissingPermissions');
  }
}

/** 50035 unless `parentId` names a category of the guild, and the channel is no category itself. */
function checkParent(guild: Guild, type: number, parentId: string | null | undefined, path: IssuePath): void {
  if (parentId === null || parentId === undefined) return;
  const parent = findChannel(guild, parentId);
  if (!parent || parent.type !== CATEGORY_CHANNEL_TYPE || type === CATEGORY_CHANNEL_TYPE) {
    throw invalidFormBody([issue(path, CHANNEL_PARENT_INVALID, 'Parent must be a category of this guild')]);
  }
}

/**
 * 50013 unless the actor sees the channel: a channel it cannot view is refused as the direct edit
 * refuses it (no permission at all there), so a move cannot reach what the actor cannot see.
 */
function requireVisible(actor: StructureActor, channel: Channel): void {
  requireChannelPermission(actor, channel, VIEW_CHANNEL);
}

/** 50013 for a move or a create into a category the actor cannot view (its channels would be placed blind). */
function requireVisibleParent(
  guild: Guild,
  actor: StructureActor,
  channel: Channel,
  parentId: string | null | undefined,
): void {
  if (parentId === null || parentId === undefined || parentId === channel.parent_id) return;
  const parent = findChannel(guild, parentId);
  if (parent) requireVisible(actor, parent);
}

/** The channel with `fields` written in; topic and slowmode kept only when set. */
function withFields(channel: Channel, fields: ChannelFields): Channel {
  const next: Channel = { ...channel };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.type !== undefined) next.type = fields.type;
  if (fields.nsfw !== undefined) next.nsfw = fields.nsfw;
  if (fields.parent_id !== undefined) next.parent_id = fields.parent_id;
  if (fields.permission_overwrites !== undefined) next.permission_overwrites = fields.permission_overwrites;
  if (fields.topic !== undefined) next.topic = fields.topic ?? '';
  if (fields.rate_limit_per_user !== undefined) next.rate_limit_per_user = fields.rate_limit_per_user;
  if (next.topic === '') delete next.topic;
  if (next.rate_limit_per_user === 0) delete next.rate_limit_per_user;
  return next;
}

/** The channels with `channel` at `position` among those that are no threads (absent: where it is). */
function placed(channels: readonly Channel[], channelId: string, position?: number): Channel[] {
  if (position === undefined) return [...channels];
  const listed = channels.filter((c) => !isThread(c));
  const threads = channels.filter(isThread);
  return [...reorder(listed, (c) => c.id, new Map([[channelId, position]])), ...threads];
}

export function createChannel(guild: Guild, actor: StructureActor, id: string, fields: ChannelFields): Channel[] {
  requireGuildPermission(actor, MANAGE_CHANNELS);
  if (guild.channels.filter((c) => !isThread(c)).length >= MAX_GUILD_CHANNELS) {
    throw apiError('MaxGuildChannels', { params: { limit: MAX_GUILD_CHANNELS } });
  }
  const type = fields.type ?? 0;
  checkParent(guild, type, fields.parent_id, ['parent_id']);
  requireGrantableOverwrites(guild, actor, null, fields.permission_overwrites ?? []);
  const blank: Channel = { id, type, name: '', nsfw: false, parent_id: null, permission_overwrites: [] };
  requireVisibleParent(guild, actor, blank, fields.parent_id);
  const channel = withFields(blank, fields);
  const listed = guild.channels.filter((c) => !isThread(c));
  const threads = guild.channels.filter(isThread);
  return placed([...listed, channel, ...threads], id, fields.position);
}

export function editChannel(guild: Guild, actor: StructureActor, channelId: string, fields: ChannelFields): Channel[] {
  const channel = findGuildChannel(guild, channelId);
  requireChannelPermission(actor, channel, isThread(channel) ? MANAGE_THREADS : MANAGE_CHANNELS);
  if (fields.type !== undefined && fields.type !== channel.type) {
    if (!CONVERTIBLE_TYPES.has(channel.type) || !CONVERTIBLE_TYPES.has(fields.type)) {
      throw invalidFormBody([issue(['type'], BASE_TYPE_CHOICES, 'Only text and announcement channels convert')]);
    }
  }
  checkParent(guild, fields.type ?? channel.type, fields.parent_id, ['parent_id']);
  requireVisibleParent(guild, actor, channel, fields.parent_id);
  if (fields.permission_overwrites !== undefined) {
    requireChannelPermission(actor, channel, MANAGE_ROLES);
    requireGrantableOverwrites(guild, actor, channel, changedOverwrites(channel, fields.permission_overwrites));
  }
  const channels = guild.channels.map((c) => (c.id === channelId ? withFields(c, fields) : c));
  return placed(channels, channelId, fields.position);
}

/** The overwrites of `next` that differ from the channel's: only those are checked as granted. */
function changedOverwrites(channel: Channel, next: readonly PermissionOverwrite[]): PermissionOverwrite[] {
  const same = (a: PermissionOverwrite, b: PermissionOverwrite) =>
    a.id === b.id && a.type === b.type && a.allow === b.allow && a.deny === b.deny;
  return next.filter((o) => !channel.permission_overwrites.some((existing) => same(existing, o)));
}

/**
 * The channels without the channel and its threads; a category's channels stay, without a
 * category. The store takes the messages of every channel gone.
 */
export function deleteChannel(guild: Guild, actor: StructureActor, channelId: string): Channel[] {
  const channel = findGuildChannel(guild, channelId);
  requireChannelPermission(actor, channel, isThread(channel) ? MANAGE_THREADS : MANAGE_CHANNELS);
  return guild.channels
    .filter((c) => c.id !== channelId && !(isThread(c) && c.parent_id === channelId))
    .map((c) => (c.parent_id === channelId ? { ...c, parent_id: null } : c));
}

/** The channels with the overwrite for `overwrite.id` set (added, or replaced where it stands). */
export function putOverwrite(
  guild: Guild,
  actor: StructureActor,
  channelId: string,
  overwrite: PermissionOverwrite,
): Channel[] {
  const channel = findGuildChannel(guild, channelId);
  if (isThread(channel)) throw apiError('UnknownChannel');
  requireChannelPermission(actor, channel, MANAGE_ROLES);
  requireGrantableOverwrites(guild, actor, channel, [overwrite]);
  const existing = channel.permission_overwrites.some((o) => o.id === overwrite.id);
  if (!existing && channel.permission_overwrites.length >= MAX_OVERWRITES) {
    throw invalidFormBody([issue([], BASE_TYPE_CHOICES, `A channel holds at most ${MAX_OVERWRITES} overwrites`)]);
  }
  const overwrites = existing
    ? channel.permission_overwrites.map((o) => (o.id === overwrite.id ? overwrite : o))
    : [...channel.permission_overwrites, overwrite];
  return guild.channels.map((c) => (c.id === channelId ? { ...c, permission_overwrites: overwrites } : c));
}

export function deleteOverwrite(
  guild: Guild,
  actor: StructureActor,
  channelId: string,
  overwriteId: string,
): Channel[] {
  const channel = findGuildChannel(guild, channelId);
  if (isThread(channel)) throw apiError('UnknownChannel');
  requireChannelPermission(actor, channel, MANAGE_ROLES);
  if (!channel.permission_overwrites.some((o) => o.id === overwriteId)) throw apiError('UnknownOverwrite');
  const overwrites = channel.permission_overwrites.filter((o) => o.id !== overwriteId);
  return guild.channels.map((c) => (c.id === channelId ? { ...c, permission_overwrites: overwrites } : c));
}

/**
 * `PATCH /guilds/{g}/channels`: positions, categories, and overwrites synced with the new category.
 * Each element is checked as its own edit would be, on the guild as stored: the actor sees the
 * channel and the category it moves into, and a sync that changes the overwrites needs MANAGE_ROLES
 * in the channel and grants only what the actor may grant there. One refused element refuses all.
 */
export function reorderChannels(guild: Guild, actor: StructureActor, moves: readonly Move[]): Channel[] {
  requireGuildPermission(actor, MANAGE_CHANNELS);
  const listed = guild.channels.filter((c) => !isThread(c));
  const issues = unknownMoveIssues(moves, new Set(listed.map((c) => c.id)), 'channel');
  if (issues.length > 0) throw invalidFormBody(issues);
  const moved = new Map<string, Channel>();
  const targets = new Map<string, number>();
  moves.forEach((move, index) => {
    const stored = findGuildChannel(guild, move.id);
    requireVisible(actor, stored);
    const channel = moved.get(move.id) ?? stored;
    if (move.position !== undefined) targets.set(move.id, move.position);
    if (move.parent_id === undefined) return;
    checkParent(guild, channel.type, move.parent_id, [index, 'parent_id']);
    requireVisibleParent(guild, actor, stored, move.parent_id);
    const parent = move.parent_id === null ? undefined : findChannel(guild, move.parent_id);
    const placedChannel: Channel = { ...channel, parent_id: move.parent_id };
    const overwrites = move.lock_permissions && parent ? parent.permission_overwrites : channel.permission_overwrites;
    const changed = changedOverwrites(channel, overwrites);
    if (changed.length > 0 || overwrites.length !== channel.permission_overwrites.length) {
      requireChannelPermission(actor, stored, MANAGE_ROLES);
      requireGrantableOverwrites(guild, actor, placedChannel, changed);
    }
    moved.set(move.id, { ...placedChannel, permission_overwrites: overwrites });
  });
  const next = listed.map((c) => moved.get(c.id) ?? c);
  return [...reorder(next, (c) => c.id, targets), ...guild.channels.filter(isThread)];
}
