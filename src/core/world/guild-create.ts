/**
 * The GUILD_CREATE payload a bot receives for each guild it is in (after READY, and when it joins
 * one): the guild object with its channels, the threads it can view, its members and the fields v10
 * adds for the gateway. For the gateway adapter; the REST reads build the same objects.
 */
import type { APIGuildScheduledEvent, GatewayGuildCreateDispatchData } from 'discord-api-types/v10';
import { hasAll, VIEW_CHANNEL } from '../permissions/bits.js';
import { appChannelPermissions } from '../permissions/channel-permissions.js';
import { isThread } from '../permissions/channels.js';
import { findGuildMember, guildMembers, type WorldDirectory } from './guild-members.js';
import type { WirePayload } from '../wire-payload.js';
import { withCounters, type StoredChannelCounters } from './channel-counters.js';
import type { Channel, Guild } from './types.js';
import {
  toWireGuild,
  toWireGuildChannel,
  toWireGuildMember,
  toWireThread,
  type WireGuild,
  type WireGuildChannel,
  type WireThread,
} from './v10-objects.js';

/**
 * GUILD_CREATE's `d` as slashd sends it: discord-api-types' fields added to the guild object, on
 * our guild object (`WireGuild`: the fields v10 sends that its `APIGuild` lacks) and channel
 * shapes. `joined_at` is null when the guild lists no member for the bot (never for a guild the
 * gateway sends, whose bot is a member), where discord-api-types requires a string.
 */
export interface WireGuildCreate
  extends
    WireGuild,
    Omit<GatewayGuildCreateDispatchData, keyof WireGuild | 'hub_type' | 'joined_at' | 'channels' | 'threads'> {
  joined_at: string | null;
  channels: WireGuildChannel[];
  threads: WireThread[];
}

/** What the session asked for in IDENTIFY. */
export interface GuildCreateView {
  /** IDENTIFY's `large_threshold`: a guild with more members is `large`. */
  largeThreshold: number;
  /** Whether the session has the GUILD_MEMBERS intent. */
  withMembers: boolean;
}

/**
 * Decision (docs/decisions.md, "Gateway"): the members are the bot alone, or everyone with
 * GUILD_MEMBERS in a guild not over `large_threshold`.
 */
export function toWireGuildCreate(
  guild: Guild,
  applicationId: string,
  directory: WorldDirectory,
  view: GuildCreateView,
  /** The store's message counters of the guild's channels. */
  stored: StoredChannelCounters,
  /** The guild's scheduled events the bot sees (v10 sends them in GUILD_CREATE), ascending by id. */
  scheduledEvents: readonly WirePayload<APIGuildScheduledEvent>[] = [],
): WirePayload<WireGuildCreate> {
  const counters = withCounters(guild, stored);
  const members = guildMembers(guild, directory);
  const large = members.length > view.largeThreshold;
  const me = findGuildMember(guild, applicationId, directory);
  const listed = large || !view.withMembers ? (me ? [me] : []) : members;
  // The channel itself, not looked up again by id: a lookup per thread made a guild's GUILD_CREATE
  // quadratic in its threads.
  const canView = (channel: Channel) => hasAll(appChannelPermissions(guild, applicationId, channel), VIEW_CHANNEL);
  return {
    ...toWireGuild(guild),
    joined_at: me?.member.joined_at ?? null,
    large,
    unavailable: false,
    member_count: members.length,
    members: listed.map((member) => toWireGuildMember(guild, member)),
    channels: guild.channels.filter((c) => !isThread(c)).map((c) => toWireGuildChannel(guild, c, counters)),
    threads: guild.channels
      .filter((c) => isThread(c) && !c.thread?.archived && canView(c))
      .map((c) => toWireThread(guild, c, counters)),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [...scheduledEvents],
    soundboard_sounds: [],
  } satisfies WireGuildCreate;
}
