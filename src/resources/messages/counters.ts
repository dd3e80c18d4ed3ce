/**
 * The message counters channels are rendered with (`last_message_id`, a thread's `message_count`
 * and `total_message_sent`): the store's, read at once for every channel asked for, with the world
 * file's messages (`withCounters`). Every service rendering a channel asks here.
 */
import { withCounters, type CountersOf } from '../../core/world/channel-counters.js';
import type { Guild } from '../../core/world/types.js';
import type { InteractionStore } from '../../store/store.js';

export class ChannelCountersReader {
  constructor(private readonly store: Pick<InteractionStore, 'channelCounters'>) {}

  /** The counters of every channel and thread of the guild: one read. */
  async ofGuild(guild: Guild): Promise<CountersOf> {
    return withCounters(guild, await this.store.channelCounters(guild.channels.map((c) => c.id)));
  }

  /** The counters of these channels of the guild (null: DMs) alone: one read. */
  async ofChannels(guild: Guild | null, channelIds: readonly string[]): Promise<CountersOf> {
    return withCounters(guild, await this.store.channelCounters(channelIds));
  }
}
