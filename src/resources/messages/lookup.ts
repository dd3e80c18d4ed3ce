/** Finding one message of a channel, whichever holds it: slashd's store or the world file. */
import { fromWorldMessage, messageVisibleTo, type StoredMessage } from './rules/messages.js';
import type { Channel, Guild } from '../../core/world/types.js';
import type { InteractionStore } from '../../store/store.js';

/** The message as `viewerId` may see it (an ephemeral one only its user), or null. */
export async function findChannelMessage(
  messages: Pick<InteractionStore, 'getMessage'>,
  guild: Guild,
  channel: Channel,
  messageId: string,
  viewerId: string,
): Promise<StoredMessage | null> {
  const stored = await messages.getMessage(channel.id, messageId);
  if (stored) return messageVisibleTo(stored, viewerId) && stored.guild_id === guild.id ? stored : null;
  const world = guild.messages.find((m) => m.id === messageId && m.channel_id === channel.id);
  return world ? fromWorldMessage(world, guild.id) : null;
}
