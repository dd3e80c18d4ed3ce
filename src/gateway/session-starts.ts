/**
 * `session_start_limit` (v10): how many sessions each bot may still start in the current day.
 * Counted per bot, in this process on one node (`SessionStarts`) or in Redis for every node of a
 * deployment (`RedisSessionStarts`); a RESUME does not count.
 */
import type { Redis } from 'ioredis';
import { SESSION_START_WINDOW_MS, SESSION_STARTS_PER_DAY } from '../core/gateway/protocol.js';

export interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

/** Where session starts are counted. */
export interface SessionStartCounter {
  /** Counts one start; false when none is left today. */
  take(applicationId: string): Promise<boolean>;
  limit(applicationId: string, maxConcurrency: number): Promise<SessionStartLimit>;
}

export class SessionStarts implements SessionStartCounter {
  /** Per bot: when its window began and how many sessions it has started in it. */
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly now: () => number,
    private readonly total = SESSION_STARTS_PER_DAY,
  ) {}

  private window(applicationId: string): { start: number; used: number } {
    const now = this.now();
    let window = this.windows.get(applicationId);
    if (!window || now - window.start >= SESSION_START_WINDOW_MS) {
      window = { start: now, used: 0 };
      this.windows.set(applicationId, window);
    }
    return window;
  }

  async take(applicationId: string): Promise<boolean> {
    const window = this.window(applicationId);
    if (window.used >= this.total) return false;
    window.used++;
    return true;
  }

  async limit(applicationId: string, maxConcurrency: number): Promise<SessionStartLimit> {
    const window = this.windows.get(applicationId);
    const now = this.now();
    const live = window && now - window.start < SESSION_START_WINDOW_MS ? window : null;
    return {
      total: this.total,
      remaining: this.total - (live?.used ?? 0),
      reset_after: live ? live.start + SESSION_START_WINDOW_MS - now : SESSION_START_WINDOW_MS,
      max_concurrency: maxConcurrency,
    };
  }
}

/** KEYS: the bot's counter. ARGV: total, window (ms). The window starts with the first start. */
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
if used == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/** Session starts counted in Redis, shared by every node: one day's window per bot, from its first start. */
export class RedisSessionStarts implements SessionStartCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly total = SESSION_STARTS_PER_DAY,
  ) {}

  private key(applicationId: string): string {
    return `${this.prefix}gw:starts:${applicationId}`;
  }

  async take(applicationId: string): Promise<boolean> {
    return (await this.redis.eval(TAKE, 1, this.key(applicationId), this.total, SESSION_START_WINDOW_MS)) === 1;
  }

  async limit(applicationId: string, maxConcurrency: number): Promise<SessionStartLimit> {
    const key = this.key(applicationId);
    const [used, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    const live = used !== null && ttl > 0;
    return {
      total: this.total,
      remaining: this.total - (live ? Number(used) : 0),
      reset_after: live ? ttl : SESSION_START_WINDOW_MS,
      max_concurrency: maxConcurrency,
    };
  }
}
