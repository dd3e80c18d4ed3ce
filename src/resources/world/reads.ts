/**
 * The checks every REST read of the world makes, in v10's order once the caller is admitted:
 * whether the object exists (10003 / 10004), and whether the caller may see it (50001 Missing
 * Access: not in the guild, or no VIEW_CHANNEL in the channel).
 */
import { apiError } from '../../core/io/errors.js';
import { hasAll, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { directoryOf, idsNamedBy, type WorldDirectory } from '../../core/world/guild-members.js';
import type { Application, Channel, Guild, User } from '../../core/world/types.js';
import { viewerChannelPermissions, viewerId, viewerInGuild, type Viewer } from '../../core/world/viewer.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';

/** What the reads look up in the world: the guild's document and users in `world`, the guild with the members named in `members`. */
export interface WorldReadStore {
  readonly world: Pick<WorldStore, 'getGuild' | 'getUser' | 'getApplication'>;
  readonly members: Pick<GuildMemberStore, 'getGuildWithMembers' | 'findGuildByChannelWithMembers'>;
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

/** A channel the viewer may see, with its guild (holding the viewer's member) and the viewer's permissions in it. */
export async function visibleChannel(
  store: WorldReadStore,
  viewer: Viewer,
  channelId: string,
): Promise<{ guild: Guild; channel: Channel; permissions: bigint }> {
  const guild = await store.members.findGuildByChannelWithMembers(channelId, [viewerId(viewer)]);
  const channel = guild?.channels.find((c) => c.id === channelId);
  if (!guild || !channel) throw apiError('UnknownChannel');
  const permissions = viewerChannelPermissions(guild, viewer, channel);
  if (!hasAll(permissions, VIEW_CHANNEL)) throw apiError('MissingAccess');
  return { guild, channel, permissions };
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
