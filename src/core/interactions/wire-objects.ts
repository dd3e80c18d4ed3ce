/**
 * The partial guild, channel, member and role objects an interaction carries (docs/v10-behaviour.md#interactions).
 * slashd has no avatars, boosts or timeouts, so those fields are present with their empty values:
 * client libraries read them without checking.
 */
import { formatPermissions } from '../permissions/bits.js';
import { channelPermissions } from '../permissions/channel-permissions.js';
import { rolePosition } from '../permissions/role-hierarchy.js';
import type { Channel, Guild, Member, Role, User } from '../world/types.js';
import { toWirePublicUser } from '../world/wire.js';

export type WireObject = Record<string, unknown>;

/** The interaction's `guild`: v10 sends only these three fields. */
export function toWirePartialGuild(guild: Guild): WireObject {
  return { id: guild.id, locale: guild.preferred_locale, features: [] };
}

/** A partial channel; `permissions` is the invoking member's in it, when there is a member. */
export function toWirePartialChannel(channel: Channel, guild: Guild | null, permissions: string | null): WireObject {
  const wire: WireObject = {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    nsfw: channel.nsfw,
    parent_id: channel.parent_id,
    flags: 0,
  };
  if (guild) wire.guild_id = guild.id;
  if (permissions !== null) wire.permissions = permissions;
  return wire;
}

/** v10 lists a member's roles without @everyone, which every member has. */
function memberRoles(guild: Guild, member: Member): string[] {
  return member.roles.filter((roleId) => roleId !== guild.id);
}

/** The fields of every v10 member object (a guild's member list, resolved and invoking members). */
export function toWireMemberBase(guild: Guild, member: Member): WireObject {
  return {
    roles: memberRoles(guild, member),
    joined_at: member.joined_at,
    nick: member.nick,
    avatar: null,
    banner: null,
    premium_since: null,
    pending: false,
    flags: 0,
    communication_disabled_until: null,
  };
}

/** The member fields resolved members and the invoking member share. */
function memberFields(guild: Guild, member: Member, permissions: string): WireObject {
  return { ...toWireMemberBase(guild, member), permissions, unusual_dm_activity_until: null };
}

/** The invoking member: with its user, and the voice and pending fields resolved members lack. */
export function toWireInteractionMember(guild: Guild, member: Member, user: User, permissions: string): WireObject {
  return {
    user: toWirePublicUser(user),
    ...memberFields(guild, member, permissions),
    is_pending: false,
    mute: false,
    deaf: false,
  };
}

/** A member of `data.resolved.members`: no `user`, `deaf` or `mute` (docs/v10-behaviour.md#interactions); permissions in the channel. */
export function toWireResolvedMember(guild: Guild, member: Member, channel: Channel): WireObject {
  return memberFields(guild, member, formatPermissions(channelPermissions(guild, member, channel)));
}

export function toWireRole(guild: Guild, role: Role): WireObject {
  return {
    id: role.id,
    name: role.name,
    permissions: role.permissions,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    managed: false,
    mentionable: false,
    position: rolePosition(guild, role.id) ?? 0,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
}

/**
 * The stand-in for an attachment slashd never received (decision, see `option-resolution.ts`):
 * an empty file, ephemeral like every file uploaded through a command option.
 */
export function placeholderAttachment(id: string): WireObject {
  return {
    id,
    filename: 'file',
    size: 0,
    url: '',
    proxy_url: '',
    content_type: 'application/octet-stream',
    ephemeral: true,
  };
}
