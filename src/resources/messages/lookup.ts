/** Finding one message of a channel, whichever holds it: slashd's store or the world file. */
import { fromWorldMessage, messageVisibleTo, type StoredMessage } from './rules/messages.js';
import type { Channel, Guild } from '../../core/world/types.js';
import type { InteractionStore } from '../../store/store.js';

/** What a message is looked up in: the stored messages, and what the API made of the world file's. */
export type MessageLookupStore = Pick<InteractionStore, 'getMessage' | 'changedWorldMessages'>;

/**
 * The message as `viewerId` may see it (an ephemeral one only its user), or null. A world-file
 * message the API edited is its stored copy; one it deleted is gone.
 */
export async function findChannelMessage(
  messages: MessageLookupStore,
  guild: Guild,
  channel: Channel,
  messageId: string,
  viewerId: string,
): Promise<StoredMessage | null> {
  const stored = await messages.getMessage(channel.id, messageId);
  if (stored) return messageVisibleTo(stored, viewerId) && stored.guild_id === guild.id ? stored : null;
  const world = guild.messages.find((m) => m.id === messageId && m.channel_id === channel.id);
  if (!world || (await messages.changedWorldMessages(channel.id, [messageId])).length > 0) return null;
  return fromWorldMessage(world, guild.id, guild.installs);
}

/** Whether the message is one of the world file's (edited or not, deleted or not). */
export function isWorldFileMessage(guild: Guild, channelId: string, messageId: string): boolean {
  return guild.messages.some((m) => m.id === messageId && m.channel_id === channelId);
}
