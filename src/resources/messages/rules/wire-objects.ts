/**
 * The partial guild, channel, member and role objects an interaction carries (docs/v10-behaviour.md#interactions).
 * slashd has no avatars, boosts or timeouts, so those fields are present with their empty values:
 * client libraries read them without checking.
 */
import type {
  APIAttachment,
  APIBaseGuildMember,
  APIFlaggedGuildMember,
  APIGuildMemberAvatar,
  APIGuildMemberJoined,
  APIInteractionDataResolvedGuildMember,
  APIInteractionGuildMember,
  APIPartialInteractionGuild,
  APIRole,
  ChannelFlags,
  ChannelType,
  GuildMemberFlags,
  RoleFlags,
} from 'discord-api-types/v10';
import { formatPermissions } from '../../../core/permissions/bits.js';
import { channelPermissions } from '../../../core/permissions/channel-permissions.js';
import { rolePosition } from '../../../core/permissions/role-hierarchy.js';
import type { Channel, Guild, Member, Role, User } from '../../../core/world/types.js';
import { wireLocale, type WirePayload } from '../../../core/wire-payload.js';
import { toWirePublicUser } from '../../../core/world/wire.js';
import { NO_CHANNEL_FLAGS } from '../../../core/world/v10-objects.js';

export type WireObject = Record<string, unknown>;

/**
 * The channel of an interaction as v10 sends it. discord-api-types types it as a `Partial` of its
 * union of every channel type, which checks no field; this is the set v10 sends.
 */
export interface WirePartialChannel {
  id: string;
  type: ChannelType;
  name: string;
  nsfw: boolean;
  parent_id: string | null;
  flags: ChannelFlags;
  guild_id?: string;
  /** The invoking member's permissions in the channel. */
  permissions?: string;
}

/**
 * The fields of every v10 member object; discord-api-types splits them over several interfaces.
 * `avatar` and `banner` are always sent (null without one), as GUILD_MEMBER_UPDATE requires.
 */
export type WireMemberBase = APIBaseGuildMember &
  APIFlaggedGuildMember &
  Required<APIGuildMemberAvatar> &
  APIGuildMemberJoined;

/**
 * A member of `data.resolved.members` as v10 sends it: discord-api-types lacks
 * `unusual_dm_activity_until`, which v10 sends (null unless the member is flagged).
 */
export interface WireResolvedMember extends APIInteractionDataResolvedGuildMember {
  unusual_dm_activity_until: string | null;
}

/**
 * The invoking member as v10 sends it: discord-api-types lacks `unusual_dm_activity_until` and the
 * older `is_pending`, both of which v10 still sends.
 */
export interface WireInteractionMember extends APIInteractionGuildMember {
  unusual_dm_activity_until: string | null;
  is_pending: boolean;
}

const NO_MEMBER_FLAGS = 0 as GuildMemberFlags;
const NO_ROLE_FLAGS = 0 as RoleFlags;

/** The interaction's `guild`: v10 sends only these three fields. */
export function toWirePartialGuild(guild: Guild): WirePayload<APIPartialInteractionGuild> {
  return {
    id: guild.id,
    locale: wireLocale(guild.preferred_locale),
    features: [],
  } satisfies APIPartialInteractionGuild;
}

/** A partial channel; `permissions` is the invoking member's in it, when there is a member. */
export function toWirePartialChannel(
  channel: Channel,
  guild: Guild | null,
  permissions: string | null,
): WirePayload<WirePartialChannel> {
  const wire: WirePayload<WirePartialChannel> = {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    nsfw: channel.nsfw,
    parent_id: channel.parent_id,
    flags: NO_CHANNEL_FLAGS,
  } satisfies WirePartialChannel;
  if (guild) wire.guild_id = guild.id;
  if (permissions !== null) wire.permissions = permissions;
  return wire;
}

/** v10 lists a member's roles without @everyone, which every member has. */
function memberRoles(guild: Guild, member: Member): string[] {
  return member.roles.filter((roleId) => roleId !== guild.id);
}

/** The fields of every v10 member object (a guild's member list, resolved and invoking members). */
export function toWireMemberBase(guild: Guild, member: Member): WirePayload<WireMemberBase> {
  return {
    roles: memberRoles(guild, member),
    joined_at: member.joined_at,
    nick: member.nick,
    avatar: null,
    banner: null,
    premium_since: null,
    pending: false,
    flags: NO_MEMBER_FLAGS,
    communication_disabled_until: member.communication_disabled_until ?? null,
  } satisfies WireMemberBase;
}

/** The member fields resolved members and the invoking member share. */
function memberFields(guild: Guild, member: Member, permissions: string): WirePayload<WireResolvedMember> {
  return {
    ...toWireMemberBase(guild, member),
    permissions,
    unusual_dm_activity_until: null,
  } satisfies WireResolvedMember;
}

/** The invoking member: with its user, and the voice and pending fields resolved members lack. */
export function toWireInteractionMember(
  guild: Guild,
  member: Member,
  user: User,
  permissions: string,
): WirePayload<WireInteractionMember> {
  return {
    user: toWirePublicUser(user),
    ...memberFields(guild, member, permissions),
    is_pending: false,
    mute: member.mute ?? false,
    deaf: member.deaf ?? false,
  } satisfies WireInteractionMember;
}

/** A member of `data.resolved.members`: no `user`, `deaf` or `mute` (docs/v10-behaviour.md#interactions); permissions in the channel. */
export function toWireResolvedMember(guild: Guild, member: Member, channel: Channel): WirePayload<WireResolvedMember> {
  return memberFields(guild, member, formatPermissions(channelPermissions(guild, member, channel)));
}

export function toWireRole(guild: Guild, role: Role): WirePayload<APIRole> {
  const color = role.color ?? 0;
  const wire: WirePayload<APIRole> = {
    id: role.id,
    name: role.name,
    permissions: role.permissions,
    color,
    colors: { primary_color: color, secondary_color: null, tertiary_color: null },
    hoist: role.hoist ?? false,
    managed: role.bot_id !== undefined,
    mentionable: role.mentionable ?? false,
    position: rolePosition(guild, role.id) ?? 0,
    icon: null,
    unicode_emoji: null,
    flags: NO_ROLE_FLAGS,
  } satisfies APIRole;
  if (role.bot_id !== undefined) wire.tags = { bot_id: role.bot_id };
  return wire;
}

/**
 * The stand-in for an attachment slashd never received (decision, see `option-resolution.ts`):
 * an empty file, ephemeral like every file uploaded through a command option.
 */
export function placeholderAttachment(id: string): WirePayload<APIAttachment> {
  return {
    id,
    filename: 'file',
    size: 0,
    url: '',
    proxy_url: '',
    content_type: 'application/octet-stream',
    ephemeral: true,
  } satisfies APIAttachment;
}
