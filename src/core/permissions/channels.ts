/**
 * Which channel stands for a channel in permission questions: a thread has no overwrites and no
 * age restriction of its own, its parent's apply (docs/v10-behaviour.md#permissions; v10 API, "Rules").
 */
import { ChannelType } from 'discord-api-types/v10';
import { THREAD_CHANNEL_TYPES, type Channel, type Guild } from '../world/types.js';

/** v10 channel type of a category: it groups channels and hosts no messages or commands. */
export const CATEGORY_CHANNEL_TYPE = ChannelType.GuildCategory;

export function isThread(channel: Channel): boolean {
  return THREAD_CHANNEL_TYPES.has(channel.type);
}

export function findChannel(guild: Guild, channelId: string): Channel | undefined {
  return guild.channels.find((candidate) => candidate.id === channelId);
}

/**
 * The channel whose overwrites and nsfw flag govern `channel`: its parent for a thread, itself
 * otherwise. A thread whose parent is missing from the world governs itself rather than failing.
 */
export function governingChannel(guild: Guild, channel: Channel): Channel {
  if (!isThread(channel) || !channel.parent_id) return channel;
  return findChannel(guild, channel.parent_id) ?? channel;
}

/** A channel where a command can be invoked: any guild channel but a category. */
export function canHostCommands(channel: Channel): boolean {
  return channel.type !== CATEGORY_CHANNEL_TYPE;
}
