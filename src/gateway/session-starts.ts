/**
 * `session_start_limit` (v10): how many sessions each bot may still start in the current day.
 * Counted per bot in this process; a RESUME does not count.
 */
import { SESSION_START_WINDOW_MS, SESSION_STARTS_PER_DAY } from '../core/gateway/protocol.js';

export interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

export class SessionStarts {
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

  /** Counts one start; false when none is left today. */
  take(applicationId: string): boolean {
    const window = this.window(applicationId);
    if (window.used >= this.total) return false;
    window.used++;
    return true;
  }

  limit(applicationId: string, maxConcurrency: number): SessionStartLimit {
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
