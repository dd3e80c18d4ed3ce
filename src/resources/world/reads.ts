/**
 * The checks every REST read of the world makes, in v10's order once the caller is admitted:
 * whether the object exists (10003 / 10004), and whether the caller may see it (50001 Missing
 * Access: not in the guild, or no VIEW_CHANNEL in the channel). The permissions a channel's place
 * carries are those in force now: a timed-out member's keep only what a timeout leaves, so every
 * action checked against them refuses it without saying so itself.
 */
import { apiError } from '../../core/io/errors.js';
import { hasAll, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { directoryOf, idsNamedBy, type WorldDirectory } from '../../core/world/guild-members.js';
import type { Application, Channel, Guild, User } from '../../core/world/types.js';
import { memberOf } from '../../core/world/member-index.js';
import { viewerChannelPermissions, viewerId, viewerInGuild, type Viewer } from '../../core/world/viewer.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';
import { heldByTimeout, permissionsInForce } from '../members/rules/member-rules.js';

/** What the reads look up in the world: the guild's document and users in `world`, the guild with the members named in `members`. */
export interface WorldReadStore {
  readonly world: Pick<WorldStore, 'getGuild' | 'getUser' | 'getApplication'>;
  readonly members: Pick<GuildMemberStore, 'getGuildWithMembers' | 'findGuildByChannelWithMembers'>;
}

/** The reads and the clock a channel's place needs: a timeout is in force or not at a time. */
export interface WorldReads extends WorldReadStore {
  readonly now: () => number;
}

/** A channel the viewer sees, with its guild and the viewer's permissions in force there. */
export interface ChannelPlace {
  guild: Guild;
  channel: Channel;
  /** After the channel's overwrites and the viewer's timeout, if one is in force. */
  permissions: bigint;
  /** A timeout holds the viewer: actions that need no permission bit are refused too. */
  timedOut: boolean;
}

/**
 * The guild, if the viewer is in it, holding only the viewer's member and those of `alsoMembers`
 * (the other members are not read: docs/decisions.md, "Members as rows").
 */
export async function visibleGuild(
  store: WorldReadStore,
  viewer: Viewer,
  guildId: string,
  alsoMembers: readonly string[] = [],
): Promise<Guild> {
  return admitted(await store.members.getGuildWithMembers(guildId, [viewerId(viewer), ...alsoMembers]), viewer);
}

/** The guild with every member (a member list, a count), if the viewer is in it. */
export async function visibleGuildWithAllMembers(
  store: WorldReadStore,
  viewer: Viewer,
  guildId: string,
): Promise<Guild> {
  return admitted(await store.world.getGuild(guildId), viewer);
}

function admitted(guild: Guild | null, viewer: Viewer): Guild {
  if (!guild) throw apiError('UnknownGuild');
  if (!viewerInGuild(guild, viewer)) throw apiError('MissingAccess');
  return guild;
}

/** A channel the viewer may see, with its guild (holding the viewer's member) and the viewer's permissions in force in it. */
export async function visibleChannel(reads: WorldReads, viewer: Viewer, channelId: string): Promise<ChannelPlace> {
  return channelPlaceIn(reads, viewer, await channelGuildOf(reads, viewer, channelId), channelId);
}

/** The guild of a channel as `visibleChannel` reads it (holding the viewer's member), or null when no guild has it. */
export async function channelGuildOf(reads: WorldReadStore, viewer: Viewer, channelId: string): Promise<Guild | null> {
  return reads.members.findGuildByChannelWithMembers(channelId, [viewerId(viewer)]);
}

/** `visibleChannel` of a guild read already (`channelGuildOf`). */
export function channelPlaceIn(
  reads: Pick<WorldReads, 'now'>,
  viewer: Viewer,
  guild: Guild | null,
  channelId: string,
): ChannelPlace {
  const channel = guild?.channels.find((c) => c.id === channelId);
  if (!guild || !channel) throw apiError('UnknownChannel');
  const permissions = viewerChannelPermissions(guild, viewer, channel);
  if (!hasAll(permissions, VIEW_CHANNEL)) throw apiError('MissingAccess');
  const member = viewer.kind === 'user' ? memberOf(guild, viewer.userId) : undefined;
  const nowMs = reads.now();
  return {
    guild,
    channel,
    permissions: permissionsInForce(guild, member, permissions, nowMs),
    timedOut: member !== undefined && heldByTimeout(guild, member, nowMs),
  };
}

/** 50013 for an action a timeout forbids though it needs no permission bit (a reaction one joins, joining a thread). */
export function refuseWhileTimedOut(place: Pick<ChannelPlace, 'timedOut'>): void {
  if (place.timedOut) throw apiError('MissingPermissions');
}

/** The users and applications a guild's member list names (or just `only`), loaded once. */
export async function guildDirectory(
  store: Pick<WorldStore, 'getUser' | 'getApplication'>,
  guild: Guild,
  only?: string,
): Promise<WorldDirectory> {
  const named = idsNamedBy(guild);
  const userIds = only === undefined ? named.userIds : [only];
  const applicationIds = only === undefined ? named.applicationIds : [only];
  const users: User[] = [];
  const apps: Application[] = [];
  for (const id of new Set(userIds)) {
    const user = await store.getUser(id);
    if (user) users.push(user);
  }
  for (const id of new Set(applicationIds)) {
    const app = await store.getApplication(id);
    if (app) apps.push(app);
  }
  return directoryOf(users, apps);
}
