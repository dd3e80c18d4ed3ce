/**
 * The v10 objects of a guild as the gateway sends them (GUILD_CREATE, GUILD_MEMBERS_CHUNK):
 * guild, roles, channels, threads, members. slashd has no value for icons, banners and the like,
 * so those are null, as v10 sends them for a guild that has not set them. Minimal builders until the
 * world's own v10 builders (src/core/world/) are shared.
 */
import { appChannelPermissions } from '../permissions/channel-permissions.js';
import { hasAll, VIEW_CHANNEL } from '../permissions/bits.js';
import { isThread } from '../permissions/channels.js';
import { findInstall, BOT_SCOPE } from '../permissions/install.js';
import { SNOWFLAKE_EPOCH_MS } from '../snowflake.js';
import type { Application, Channel, Guild, Member, Role, User } from '../world/types.js';
import { toWireBotUser, toWirePublicUser } from '../world/wire.js';

type WireObject = Record<string, unknown>;

/** The time a snowflake was made, as an ISO timestamp. */
export function snowflakeTime(id: string): string {
  return new Date(Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS)).toISOString();
}

/** True when the app's bot user is in the guild (installed with the `bot` scope). */
export function botInGuild(guild: Guild, applicationId: string): boolean {
  return findInstall(guild, applicationId)?.scopes.includes(BOT_SCOPE) === true;
}

export function toWireRole(role: Role, position: number): WireObject {
  return {
    id: role.id,
    name: role.name,
    description: null,
    permissions: role.permissions,
    position,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    managed: false,
    mentionable: false,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
}

/** A guild channel (not a thread); `position` is its index among the guild's channels. */
export function toWireChannel(guild: Guild, channel: Channel, position: number): WireObject {
  const wire: WireObject = {
    id: channel.id,
    type: channel.type,
    guild_id: guild.id,
    name: channel.name,
    position,
    flags: 0,
    parent_id: channel.parent_id,
    permission_overwrites: channel.permission_overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
    })),
    nsfw: channel.nsfw,
  };
  if (channel.type === 2 || channel.type === 13) {
    Object.assign(wire, { bitrate: 64000, user_limit: 0, rtc_region: null, rate_limit_per_user: 0 });
  } else if (channel.type !== 4) {
    Object.assign(wire, { topic: null, last_message_id: null, rate_limit_per_user: 0 });
  }
  return wire;
}

export function toWireThread(guild: Guild, thread: Channel): WireObject {
  return {
    id: thread.id,
    type: thread.type,
    guild_id: guild.id,
    parent_id: thread.parent_id,
    owner_id: guild.owner_id,
    name: thread.name,
    flags: 0,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: thread.thread_member_ids?.length ?? 0,
    total_message_sent: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: snowflakeTime(thread.id),
      locked: false,
      create_timestamp: snowflakeTime(thread.id),
    },
  };
}

export function toWireMember(member: Member, user: WireObject): WireObject {
  return {
    user,
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: member.roles,
    joined_at: member.joined_at,
    premium_since: null,
    deaf: false,
    mute: false,
    pending: false,
    flags: 0,
    communication_disabled_until: null,
    avatar_decoration_data: null,
  };
}

/** A member's user object; a member the world has no user for is shown by id. */
export function memberUser(member: Member, users: ReadonlyMap<string, User>): WireObject {
  const user = users.get(member.user_id);
  return user ? toWirePublicUser(user) : toWirePublicUser({ id: member.user_id, username: 'unknown' } as User);
}

/**
 * The bot's own member: the bot user, no roles of the guild (its install's permissions act as a
 * role only the install holds), joined when the guild was made (the world records no install time).
 */
export function botMember(guild: Guild, app: Application): WireObject {
  const {
    bot: _bot,
    mfa_enabled: _m,
    locale: _l,
    premium_type: _p,
    email: _e,
    verified: _v,
    ...user
  } = toWireBotUser(app);
  return toWireMember(
    { user_id: app.id, roles: [], nick: null, joined_at: snowflakeTime(guild.id) },
    {
      ...user,
      bot: true,
    },
  );
}

/** The guild object's own fields (GuildResponse). */
export function toWireGuild(guild: Guild): WireObject {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    description: null,
    home_header: null,
    splash: null,
    discovery_splash: null,
    features: [],
    banner: null,
    owner_id: guild.owner_id,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: null,
    system_channel_flags: 0,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    roles: guild.roles.map((role, index) => toWireRole(role, role.id === guild.id ? 0 : index)),
    default_message_notifications: 0,
    mfa_level: 0,
    explicit_content_filter: 0,
    max_presences: null,
    max_members: 500000,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferred_locale,
    rules_channel_id: null,
    safety_alerts_channel_id: null,
    public_updates_channel_id: null,
    premium_progress_bar_enabled: false,
    nsfw: false,
    nsfw_level: 0,
    emojis: [],
    stickers: [],
    incidents_data: null,
  };
}

/** The guild's member count, the bot included. */
export function memberCount(guild: Guild, applicationId: string): number {
  const listed = guild.members.some((m) => m.user_id === applicationId);
  return guild.members.length + (!listed && botInGuild(guild, applicationId) ? 1 : 0);
}

export interface GuildCreateOptions {
  app: Application;
  users: ReadonlyMap<string, User>;
  /** Whether the session has GUILD_MEMBERS: then a small guild's members are all sent. */
  withMembers: boolean;
  largeThreshold: number;
}

/**
 * GUILD_CREATE's `d` (v10): the guild, plus joined_at, large, unavailable, member_count,
 * channels, threads (those the bot can view), members (the bot; everyone in a small guild with
 * GUILD_MEMBERS), and empty voice states, presences, stage instances and scheduled events.
 */
export function guildCreatePayload(guild: Guild, options: GuildCreateOptions): WireObject {
  const { app } = options;
  const count = memberCount(guild, app.id);
  const large = count > options.largeThreshold;
  const self = botMember(guild, app);
  const members: WireObject[] = [self];
  if (options.withMembers && !large) {
    for (const member of guild.members) {
      if (member.user_id !== app.id) members.push(toWireMember(member, memberUser(member, options.users)));
    }
  }
  const channels: WireObject[] = [];
  const threads: WireObject[] = [];
  guild.channels.forEach((channel, index) => {
    if (!isThread(channel)) channels.push(toWireChannel(guild, channel, index));
    else if (hasAll(appChannelPermissions(guild, app.id, channel), VIEW_CHANNEL))
      threads.push(toWireThread(guild, channel));
  });
  return {
    ...toWireGuild(guild),
    joined_at: self.joined_at,
    large,
    unavailable: false,
    member_count: count,
    voice_states: [],
    members,
    channels,
    threads,
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
