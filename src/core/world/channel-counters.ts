/**
 * A channel's message counters as v10 renders them: `last_message_id` (the newest message ever
 * sent in it, kept when that message is deleted), and a thread's `message_count` (its messages now,
 * the starter message left out) and `total_message_sent` (every message ever sent, never counted
 * down). Two parts make them: what the store counted of the messages slashd holds (a row per
 * channel, written with each message created or deleted), and the world file's messages of the
 * channel, counted here from the guild document. A world-file message the API deleted is counted
 * down in the store's row, so the sum is the messages there are now.
 */
import type { Guild } from './types.js';

/** One channel's counters. */
export interface ChannelCounters {
  readonly last_message_id: string | null;
  readonly message_count: number;
  readonly total_message_sent: number;
}

/** The store's counters by channel id (a channel without a row has counted nothing). */
export type StoredChannelCounters = ReadonlyMap<string, ChannelCounters>;

/** A channel's counters, by id: what every channel builder renders. */
export type CountersOf = (channelId: string) => ChannelCounters;

/** The counters of a channel no message was ever sent in. */
export const NO_COUNTERS: ChannelCounters = Object.freeze({
  last_message_id: null,
  message_count: 0,
  total_message_sent: 0,
});

/** No stored counters: the world file's messages alone. */
export const NO_STORED_COUNTERS: StoredChannelCounters = new Map();

/** The newer of two snowflakes (decimal ids order as numbers by length, then text); null is older than any. */
export function newerId(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.length > b.length || (a.length === b.length && a > b) ? a : b;
}

/** The world file's messages of each channel of the guild, counted once per guild object. */
const worldCounts = new WeakMap<Guild, ReadonlyMap<string, ChannelCounters>>();

function worldFileCounters(guild: Guild): ReadonlyMap<string, ChannelCounters> {
  let counts = worldCounts.get(guild);
  if (counts) return counts;
  const built = new Map<string, ChannelCounters>();
  for (const message of guild.messages) {
    const seen = built.get(message.channel_id) ?? NO_COUNTERS;
    // A forum post's starter message has the thread's id: the thread's last message, not one counted.
    const counted = message.id === message.channel_id ? 0 : 1;
    built.set(message.channel_id, {
      last_message_id: newerId(seen.last_message_id, message.id),
      message_count: seen.message_count + counted,
      total_message_sent: seen.total_message_sent + counted,
    });
  }
  counts = built;
  // Only a guild that cannot change is remembered (the store's frozen reads); others are counted per call.
  if (Object.isFrozen(guild) && Object.isFrozen(guild.messages)) worldCounts.set(guild, counts);
  return counts;
}

/** Both parts added: the store's counters and the world file's. */
function added(stored: ChannelCounters | undefined, world: ChannelCounters | undefined): ChannelCounters {
  if (!stored) return world ?? NO_COUNTERS;
  if (!world) return { ...stored, message_count: Math.max(0, stored.message_count) };
  return {
    last_message_id: newerId(stored.last_message_id, world.last_message_id),
    message_count: Math.max(0, stored.message_count + world.message_count),
    total_message_sent: stored.total_message_sent + world.total_message_sent,
  };
}

/**
 * The counters of the guild's channels (`guild` null: a DM, which has no world-file messages):
 * the store's (`stored`, read at once for every channel of the guild) with the world file's.
 */
export function withCounters(guild: Guild | null, stored: StoredChannelCounters = NO_STORED_COUNTERS): CountersOf {
  const world = guild ? worldFileCounters(guild) : undefined;
  return (channelId) => added(stored.get(channelId), world?.get(channelId));
}
