/**
 * The GUILD_CREATE payload a bot receives for each guild it is in (after READY, and when it joins
 * one): the guild object with its channels, the threads it can view, its members (all of them up
 * to `large_threshold`, else only the bot's own) and the fields v10 adds for the gateway. For the
 * gateway adapter; the REST reads build the same objects.
 */
import { hasAll, VIEW_CHANNEL } from '../permissions/bits.js';
import { appChannelPermissions } from '../permissions/channel-permissions.js';
import { isThread } from '../permissions/channels.js';
import { findGuildMember, guildMembers, type WorldDirectory } from './guild-members.js';
import type { Guild } from './types.js';
import { toWireGuild, toWireGuildChannel, toWireGuildMember, toWireThread, type WireObject } from './v10-objects.js';

/** v10's default `large_threshold` of IDENTIFY, and its bounds. */
export const LARGE_THRESHOLD_DEFAULT = 50;
export const LARGE_THRESHOLD_MIN = 50;
export const LARGE_THRESHOLD_MAX = 250;

export function toWireGuildCreate(
  guild: Guild,
  applicationId: string,
  directory: WorldDirectory,
  largeThreshold: number = LARGE_THRESHOLD_DEFAULT,
): WireObject {
  const members = guildMembers(guild, directory);
  const large = members.length > largeThreshold;
  const me = findGuildMember(guild, applicationId, directory);
  const listed = large ? (me ? [me] : []) : members;
  const canView = (channelId: string) => {
    const channel = guild.channels.find((c) => c.id === channelId)!;
    return hasAll(appChannelPermissions(guild, applicationId, channel), VIEW_CHANNEL);
  };
  return {
    ...toWireGuild(guild),
    joined_at: me?.member.joined_at ?? null,
    large,
    unavailable: false,
    member_count: members.length,
    members: listed.map((view) => toWireGuildMember(guild, view)),
    channels: guild.channels.filter((c) => !isThread(c)).map((c) => toWireGuildChannel(guild, c)),
    threads: guild.channels.filter((c) => isThread(c) && canView(c.id)).map((c) => toWireThread(guild, c)),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
