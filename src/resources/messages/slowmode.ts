/**
 * The slowmode intervals in force, in this node's memory: when each user last sent a message or
 * created a thread in a channel with slowmode. Several nodes each keep their own (a user spreading
 * messages over nodes is held by each node apart); one node is exact.
 */
import { apiError } from '../../core/io/errors.js';
import type { Channel } from '../../core/world/types.js';
import { slowmodeExempt, slowmodeRetryAfter, slowmodeSeconds, type SlowmodeAction } from './rules/slowmode.js';

/**
 * Intervals kept at most (a user, a channel and an action each): beyond, the oldest are forgotten,
 * which only lets those users send early. A flood of senders costs bounded memory.
 */
export const MAX_SLOWMODE_INTERVALS = 100_000;

/** Who takes an interval: a bot or a user, by id, with their permissions in the channel. */
export interface SlowmodeSender {
  kind: 'bot' | 'user';
  id: string;
  permissions: bigint;
}

/** An interval taken, given back when what it was taken for fails (nothing was sent). */
export interface SlowmodeTicket {
  release(): void;
}

const NOTHING_TAKEN: SlowmodeTicket = { release: () => undefined };

export class Slowmode {
  /** `action channel user` → when the interval began (ms); insertion order is age order. */
  private readonly began = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly maxIntervals = MAX_SLOWMODE_INTERVALS,
  ) {}

  /** Takes the sender's interval in the channel, or throws 429 20016 with `retry_after` while one is running. */
  take(channel: Channel, sender: SlowmodeSender, action: SlowmodeAction): SlowmodeTicket {
    const seconds = slowmodeSeconds(channel);
    if (seconds <= 0 || slowmodeExempt(sender.kind, sender.permissions)) return NOTHING_TAKEN;
    const key = `${action} ${channel.id} ${sender.id}`;
    const nowMs = this.now();
    const since = this.began.get(key);
    if (since !== undefined) {
      const retryAfter = slowmodeRetryAfter(since, seconds, nowMs);
      if (retryAfter > 0) throw apiError('SlowmodeRateLimited', { extra: { retry_after: retryAfter, global: false } });
    }
    this.began.delete(key);
    this.began.set(key, nowMs);
    if (this.began.size > this.maxIntervals) this.forgetOldest();
    return {
      release: () => {
        if (this.began.get(key) === nowMs) this.began.delete(key);
      },
    };
  }

  private forgetOldest(): void {
    for (const key of this.began.keys()) {
      if (this.began.size <= this.maxIntervals) return;
      this.began.delete(key);
    }
  }
}
