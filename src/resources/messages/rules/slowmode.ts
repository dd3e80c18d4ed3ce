/**
 * Slowmode (a channel's or a thread's `rate_limit_per_user`): who it holds and for how long. v10
 * holds users only: bots, and members with MANAGE_MESSAGES or MANAGE_CHANNELS in the channel, are
 * not affected. A user may send one message and create one thread per interval, each counted apart.
 */
import { hasAll, MANAGE_CHANNELS, MANAGE_MESSAGES } from '../../../core/permissions/bits.js';
import { isThread } from '../../../core/permissions/channels.js';
import type { Channel } from '../../../core/world/types.js';

/** What a slowmode interval counts: a message sent, or a thread created. */
export type SlowmodeAction = 'message' | 'thread';

/** The channel's slowmode in seconds: a thread's own (a thread does not take its parent's), 0 for none. */
export function slowmodeSeconds(channel: Channel): number {
  if (isThread(channel)) return channel.thread?.rate_limit_per_user ?? channel.rate_limit_per_user ?? 0;
  return channel.rate_limit_per_user ?? 0;
}

/** Whether slowmode lets this sender by: a bot, or someone who may manage the channel's messages or the channel. */
export function slowmodeExempt(kind: 'bot' | 'user', permissions: bigint): boolean {
  return kind === 'bot' || hasAll(permissions, MANAGE_MESSAGES) || hasAll(permissions, MANAGE_CHANNELS);
}

/** Seconds (a float, as v10's `retry_after`) until an interval that began at `sinceMs` ends; 0 once it has. */
export function slowmodeRetryAfter(sinceMs: number, seconds: number, nowMs: number): number {
  return Math.max(0, (sinceMs + seconds * 1000 - nowMs) / 1000);
}
