/**
 * Who reads the world through the REST API: an app's bot, or a user of the client. Both see a
 * guild only as one of its members (a bot through its `bot` install), and a channel only with
 * VIEW_CHANNEL there (docs/v10-behaviour.md#permissions).
 */
import { NONE } from '../permissions/bits.js';
import { appChannelPermissions, basePermissions, channelPermissions } from '../permissions/channel-permissions.js';
import { botInGuild } from './guild-members.js';
import type { Channel, Guild } from './types.js';
import { appBasePermissions } from './v10-objects.js';
import { isMember, memberOf } from './member-index.js';

export type Viewer = { kind: 'bot'; applicationId: string } | { kind: 'user'; userId: string };

/** The viewer's user id: a bot's is its application's id (world contract). */
export function viewerId(viewer: Viewer): string {
  return viewer.kind === 'bot' ? viewer.applicationId : viewer.userId;
}

export function viewerInGuild(guild: Guild, viewer: Viewer): boolean {
  return viewer.kind === 'bot' ? botInGuild(guild, viewer.applicationId) : isMember(guild, viewer.userId);
}

/** The viewer's permissions in a channel of the guild; none outside the guild. */
export function viewerChannelPermissions(guild: Guild, viewer: Viewer, channel: Channel): bigint {
  if (!viewerInGuild(guild, viewer)) return NONE;
  if (viewer.kind === 'bot') return appChannelPermissions(guild, viewer.applicationId, channel);
  const member = memberOf(guild, viewer.userId);
  return member ? channelPermissions(guild, member, channel) : NONE;
}

/** The viewer's guild-level permissions; none outside the guild. */
export function viewerGuildPermissions(guild: Guild, viewer: Viewer): bigint {
  if (!viewerInGuild(guild, viewer)) return NONE;
  if (viewer.kind === 'bot') return appBasePermissions(guild, viewer.applicationId);
  const member = memberOf(guild, viewer.userId);
  return member ? basePermissions(guild, member) : NONE;
}
