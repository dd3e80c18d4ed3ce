/**
 * The dispatches a session has been sent, kept so that a client that lost its socket can RESUME
 * and get what it missed. Behind an interface so that a Redis list per session can back it when
 * sessions move between nodes; in memory today, bounded per session.
 */
import { RESUME_BUFFER_EVENTS } from '../core/gateway/protocol.js';

/** One dispatch as sent: `s` is its sequence number. */
export interface BufferedDispatch {
  readonly s: number;
  readonly t: string;
  readonly d: unknown;
}

export interface ResumeBuffer {
  /** Keeps a dispatch of the session (sequence numbers grow by one). */
  append(sessionId: string, dispatch: BufferedDispatch): void;
  /**
   * The session's dispatches after `seq`, oldest first; null when some of them are no longer kept
   * (the client must start a new session).
   */
  since(sessionId: string, seq: number): Promise<readonly BufferedDispatch[] | null>;
  /** Forgets the session. */
  drop(sessionId: string): void;
}

/** A ring of the last `capacity` dispatches per session. */
export class InMemoryResumeBuffer implements ResumeBuffer {
  private readonly sessions = new Map<string, BufferedDispatch[]>();

  constructor(private readonly capacity = RESUME_BUFFER_EVENTS) {}

  append(sessionId: string, dispatch: BufferedDispatch): void {
    let kept = this.sessions.get(sessionId);
    if (!kept) this.sessions.set(sessionId, (kept = []));
    kept.push(dispatch);
    // Dropping from the front in bulk keeps the cost amortised O(1) per event.
    if (kept.length > this.capacity * 2) kept.splice(0, kept.length - this.capacity);
  }

  async since(sessionId: string, seq: number): Promise<readonly BufferedDispatch[] | null> {
    const kept = (this.sessions.get(sessionId) ?? []).slice(-this.capacity);
    const first = kept[0];
    if (!first) return seq >= 0 ? [] : null;
    if (seq < first.s - 1) return null;
    return kept.filter((dispatch) => dispatch.s > seq);
  }

  drop(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
