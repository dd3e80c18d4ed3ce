/**
 * The checks every REST read of the world makes, in v10's order: who calls (a bot or a user; 401
 * otherwise), whether the object exists (10003 / 10004), and whether the caller may see it (50001
 * Missing Access: not in the guild, or no VIEW_CHANNEL in the channel).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, JsonCode, missingAccess, unauthorized } from '../core/errors.js';
import { hasAll, VIEW_CHANNEL } from '../core/permissions/bits.js';
import { directoryOf, idsNamedBy, type WorldDirectory } from '../core/world/guild-members.js';
import type { Application, Channel, Guild, User } from '../core/world/types.js';
import { viewerChannelPermissions, viewerInGuild, type Viewer } from '../core/world/viewer.js';
import { unknownChannel, unknownGuild } from '../services/invocation-scene.js';
import type { Store } from '../store/store.js';
import { authenticate, type Principal } from './auth.js';

export const unknownMember = () => new ApiError(404, JsonCode.UnknownMember, 'Unknown Member');
export const unknownUser = () => new ApiError(404, JsonCode.UnknownUser, 'Unknown User');
export { missingPermissions } from '../services/channel-messages-service.js';

export async function principalOf(store: Store, request: FastifyRequest): Promise<Principal> {
  const principal = await authenticate(store, request.headers.authorization);
  if (!principal) throw unauthorized();
  return principal;
}

/** A bot, or a user of the client; an OAuth2 bearer token reads no guild (v10: 401). */
export async function viewerOf(store: Store, request: FastifyRequest): Promise<Viewer> {
  const principal = await principalOf(store, request);
  if (principal.kind === 'bot') return { kind: 'bot', applicationId: principal.app.id };
  if (principal.kind === 'user') return { kind: 'user', userId: principal.user.id };
  throw unauthorized();
}

export async function visibleGuild(store: Store, viewer: Viewer, guildId: string): Promise<Guild> {
  const guild = await store.getGuild(guildId);
  if (!guild) throw unknownGuild();
  if (!viewerInGuild(guild, viewer)) throw missingAccess();
  return guild;
}

/** A channel the viewer may see, with its guild and the viewer's permissions in it. */
export async function visibleChannel(
  store: Store,
  viewer: Viewer,
  channelId: string,
): Promise<{ guild: Guild; channel: Channel; permissions: bigint }> {
  const guild = await store.findGuildByChannel(channelId);
  const channel = guild?.channels.find((c) => c.id === channelId);
  if (!guild || !channel) throw unknownChannel();
  const permissions = viewerChannelPermissions(guild, viewer, channel);
  if (!hasAll(permissions, VIEW_CHANNEL)) throw missingAccess();
  return { guild, channel, permissions };
}

/** The users and applications a guild's member list names (or just `only`), loaded once. */
export async function guildDirectory(store: Store, guild: Guild, only?: string): Promise<WorldDirectory> {
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
