/**
 * The full v10 objects of the world that the REST reads and the gateway send: guild, channel,
 * thread, role, member, user, and the partial guild of `GET /users/@me/guilds`. slashd has no
 * icons, boosts, emojis or voice state, so those fields are present with their empty values, as v10
 * sends them for a guild that has none: client libraries read them without checking.
 */
import type {
  APIGuild,
  APIGuildChannel,
  APIGuildForumTag,
  APIGuildMember,
  APIRole,
  APIThreadChannel,
  APIUser,
  ChannelFlags,
  GuildChannelType,
  RESTAPIPartialCurrentUserGuild,
} from 'discord-api-types/v10';
import { toWireMemberBase, toWireRole, type WireMemberBase } from '../../resources/messages/rules/wire-objects.js';
import { ADMINISTRATOR, ALL, formatPermissions, hasAll, parsePermissions } from '../permissions/bits.js';
import { everyonePermissions } from '../permissions/channel-permissions.js';
import { isThread } from '../permissions/channels.js';
import { findInstall } from '../permissions/install.js';
import { snowflakeTimestampMs } from '../snowflake.js';
import type { CountersOf } from './channel-counters.js';
import { guildEmojis, toWireGuildEmoji } from './emojis.js';
import { guildStickers, toWireGuildSticker } from './stickers.js';
import { guildFeatures, toWireGuildSettingsFields, toWireInviteGuildFields } from './guild-settings.js';
import type { GuildMemberView } from './guild-members.js';
import { PRIVATE_THREAD_TYPE, type Channel, type Guild } from './types.js';
import { wireLocale, type WirePayload } from '../wire-payload.js';
import { toWirePublicBot, toWirePublicUser } from './wire.js';

export { toWireRole };

export type WireObject = Record<string, unknown>;

/** A guild member: discord-api-types' member, with the fields slashd always sends (`WireMemberBase`). */
export type WireGuildMember = APIGuildMember & WireMemberBase;

/** v10 sends 0 for a channel without flags; discord-api-types' `ChannelFlags` names no 0 member. */
export const NO_CHANNEL_FLAGS = 0 as ChannelFlags;

/**
 * A guild channel that is not a thread: the fields every such channel has, and those of its type
 * (topic, bitrate, forum tags), present by type. discord-api-types has one interface per channel
 * type; slashd builds every type from one stored shape, so the fields of a type are optional here.
 */
export interface WireGuildChannel extends APIGuildChannel<Exclude<GuildChannelType, APIThreadChannel['type']>> {
  position: number;
  flags: ChannelFlags;
  last_message_id?: string | null;
  rate_limit_per_user?: number;
  topic?: string | null;
  bitrate?: number;
  user_limit?: number;
  rtc_region?: string | null;
  available_tags?: APIGuildForumTag[];
  default_reaction_emoji?: null;
  default_sort_order?: null;
  default_forum_layout?: number;
  default_tag_setting?: null;
}

/**
 * A thread as v10 sends it; discord-api-types requires `parent_id`, which a world may leave null
 * (a thread named without its channel: docs/world.md).
 */
export interface WireThread extends Omit<APIThreadChannel, 'parent_id'> {
  parent_id: string | null;
}

/**
 * The guild object as v10 sends it: discord-api-types' `APIGuild` lacks `home_header`, `nsfw`,
 * `incidents_data` (sent, null when no raid alert is up) and `max_stage_video_channel_users`, and
 * requires `hub_type`, which belongs to Student Hubs and which slashd leaves out.
 */
export interface WireGuild extends Omit<APIGuild, 'hub_type'> {
  home_header: null;
  nsfw: boolean;
  incidents_data: null;
  max_stage_video_channel_users: number;
}

/** v10's default for a thread's auto-archive duration, in minutes (seven days). */
const THREAD_AUTO_ARCHIVE_MINUTES = 10080;
/** The most members v10 counts in a thread's `member_count`. */
const THREAD_MEMBER_COUNT_MAX = 50;
/** v10's member cap of a guild without boosts. */
const GUILD_MAX_MEMBERS = 500000;
/** v10's default bitrate of a voice channel. */
const VOICE_BITRATE = 64000;

/** Channel types with a topic (text, announcement, forum, media). */
const TOPIC_CHANNEL_TYPES: ReadonlySet<number> = new Set([0, 5, 15, 16]);
/** Voice and stage channels. */
const VOICE_CHANNEL_TYPES: ReadonlySet<number> = new Set([2, 13]);
/** Forum and media channels. */
const FORUM_CHANNEL_TYPES: ReadonlySet<number> = new Set([15, 16]);

function isoOfSnowflake(id: string): string {
  return new Date(snowflakeTimestampMs(id)).toISOString();
}

/** The user object of a member: a world user, a bot, or v10's stand-in for a deleted account. */
export function toWireMemberUser(view: GuildMemberView): WirePayload<APIUser> {
  if (view.bot) return toWirePublicBot(view.bot);
  if (view.user) return toWirePublicUser(view.user);
  return toWirePublicUser({
    id: view.member.user_id,
    username: 'Deleted User',
    token: '',
    locale: '',
    age_verified: false,
  });
}

/** A guild member (`GET /guilds/{id}/members/{user}`, GUILD_MEMBER_ADD): roles without @everyone. */
export function toWireGuildMember(guild: Guild, view: GuildMemberView): WirePayload<WireGuildMember> {
  return {
    user: toWireMemberUser(view),
    ...toWireMemberBase(guild, view.member),
    mute: view.member.mute ?? false,
    deaf: view.member.deaf ?? false,
  } satisfies WireGuildMember;
}

/** The guild's roles, @everyone included, as v10 lists them. */
export function toWireRoles(guild: Guild): WirePayload<APIRole>[] {
  return guild.roles.map((role) => toWireRole(guild, role));
}

function channelPosition(guild: Guild, channel: Channel): number {
  return Math.max(
    0,
    guild.channels.filter((c) => !isThread(c)).findIndex((c) => c.id === channel.id),
  );
}

/** A guild channel that is not a thread; `counters` give its `last_message_id` (`withCounters`). */
export function toWireGuildChannel(
  guild: Guild,
  channel: Channel,
  counters: CountersOf,
): WirePayload<WireGuildChannel> {
  const wire: WirePayload<WireGuildChannel> = {
    id: channel.id,
    type: channel.type as WireGuildChannel['type'],
    guild_id: guild.id,
    name: channel.name,
    position: channelPosition(guild, channel),
    permission_overwrites: (channel.permission_overwrites ?? []).map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
    })),
    parent_id: channel.parent_id,
    nsfw: channel.nsfw,
    flags: NO_CHANNEL_FLAGS,
  } satisfies WireGuildChannel;
  if (channel.type !== 4) {
    wire.last_message_id = counters(channel.id).last_message_id;
    wire.rate_limit_per_user = channel.rate_limit_per_user ?? 0;
  }
  if (TOPIC_CHANNEL_TYPES.has(channel.type)) wire.topic = channel.topic ?? null;
  if (VOICE_CHANNEL_TYPES.has(channel.type)) {
    wire.bitrate = VOICE_BITRATE;
    wire.user_limit = 0;
    wire.rtc_region = null;
  }
  if (FORUM_CHANNEL_TYPES.has(channel.type)) {
    wire.available_tags = [];
    wire.default_reaction_emoji = null;
    wire.default_sort_order = null;
    wire.default_forum_layout = 0;
    wire.default_tag_setting = null;
  }
  return wire;
}

/**
 * A thread. Decision (docs/decisions.md, "Gateway and REST reads"): the world names no thread owner,
 * so the guild's owner stands in; a thread was created at its id's time and is never archived.
 */
export function toWireThread(guild: Guild, channel: Channel, counters: CountersOf): WirePayload<WireThread> {
  const created = isoOfSnowflake(channel.id);
  // A thread created through the API carries its own state (types.ts, ThreadState).
  const state = channel.thread;
  const metadata: NonNullable<APIThreadChannel['thread_metadata']> = {
    archived: state?.archived ?? false,
    archive_timestamp: state?.archive_timestamp ?? created,
    auto_archive_duration: state?.auto_archive_duration ?? THREAD_AUTO_ARCHIVE_MINUTES,
    locked: state?.locked ?? false,
    create_timestamp: state?.create_timestamp ?? created,
  };
  if (channel.type === PRIVATE_THREAD_TYPE) metadata.invitable = state?.invitable ?? false;
  const members = channel.thread_member_ids ?? [];
  const counted = counters(channel.id);
  return {
    id: channel.id,
    type: channel.type as WireThread['type'],
    guild_id: guild.id,
    parent_id: channel.parent_id,
    owner_id: state?.owner_id ?? guild.owner_id,
    name: channel.name,
    last_message_id: counted.last_message_id,
    rate_limit_per_user: state?.rate_limit_per_user ?? channel.rate_limit_per_user ?? 0,
    flags: NO_CHANNEL_FLAGS,
    message_count: counted.message_count,
    total_message_sent: counted.total_message_sent,
    member_count: Math.min(members.length, THREAD_MEMBER_COUNT_MAX),
    thread_metadata: metadata,
  } satisfies WireThread;
}

/** A guild channel or a thread as the wire carries it (`GET /channels/{id}`, its edits and deletes). */
export type WireChannel = WirePayload<WireGuildChannel> | WirePayload<WireThread>;

/** A channel or a thread of the guild. */
export function toWireChannel(guild: Guild, channel: Channel, counters: CountersOf): WireChannel {
  return isThread(channel) ? toWireThread(guild, channel, counters) : toWireGuildChannel(guild, channel, counters);
}

/** The guild object of `GET /guilds/{id}` and GUILD_UPDATE (without channels, members or threads). */
export function toWireGuild(guild: Guild): WirePayload<WireGuild> {
  return {
    id: guild.id,
    name: guild.name,
    home_header: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    owner_id: guild.owner_id,
    application_id: null,
    region: 'deprecated',
    widget_enabled: false,
    widget_channel_id: null,
    roles: toWireRoles(guild),
    mfa_level: 0,
    max_presences: null,
    max_members: GUILD_MAX_MEMBERS,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: wireLocale(guild.preferred_locale),
    ...toWireGuildSettingsFields(guild),
    nsfw: false,
    nsfw_level: 0,
    emojis: guildEmojis(guild).map(toWireGuildEmoji),
    stickers: guildStickers(guild).map((sticker) => toWireGuildSticker(guild.id, sticker)),
    incidents_data: null,
  } satisfies WireGuild;
}

/**
 * An app's bot's guild-level permissions: @everyone's with the install's bits and those of the
 * bot's listed role (`bot_id`), everything with ADMINISTRATOR.
 */
export function appBasePermissions(guild: Guild, applicationId: string): bigint {
  let bits = everyonePermissions(guild) | parsePermissions(findInstall(guild, applicationId)?.permissions ?? null);
  for (const role of guild.roles) if (role.bot_id === applicationId) bits |= parsePermissions(role.permissions);
  return hasAll(bits, ADMINISTRATOR) ? ALL : bits;
}

/** The partial guild of `GET /users/@me/guilds`; `permissions` are the caller's in the guild. */
export function toWireMyGuild(
  guild: Guild,
  isOwner: boolean,
  permissions: bigint,
  memberCount?: number,
): WirePayload<RESTAPIPartialCurrentUserGuild> {
  const wire: WirePayload<RESTAPIPartialCurrentUserGuild> = {
    id: guild.id,
    name: guild.name,
    icon: toWireInviteGuildFields(guild).icon,
    banner: null,
    owner: isOwner,
    permissions: formatPermissions(permissions),
    features: guildFeatures(guild),
  } satisfies RESTAPIPartialCurrentUserGuild;
  if (memberCount !== undefined) {
    wire.approximate_member_count = memberCount;
    wire.approximate_presence_count = 0;
  }
  return wire;
}
