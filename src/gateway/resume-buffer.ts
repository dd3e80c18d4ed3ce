/**
 * The dispatches a session has been sent, kept so that a client that lost its socket can RESUME
 * and get what it missed. Behind an interface so that a Redis list per session can back it when
 * sessions move between nodes; in memory today, bounded per session.
 */
import { RESUME_BUFFER_CHARS, RESUME_BUFFER_EVENTS } from '../core/gateway/protocol.js';

/** One dispatch as sent: `s` is its sequence number, `d` kept as its JSON text (compact, and what a Redis list holds). */
export interface BufferedDispatch {
  readonly s: number;
  readonly t: string;
  readonly json: string;
}

/** An interaction whose dispatch this is: no longer pending once kept (pending-interactions.ts). */
export interface SettledInteraction {
  applicationId: string;
  interactionId: string;
}

export interface ResumeBuffer {
  /**
   * Keeps a dispatch of the session (sequence numbers grow by one); with `settles`, in the same step.
   * `logPos`: the dispatch log's position the session is at (kept with it when shared).
   */
  append(sessionId: string, dispatch: BufferedDispatch, settles?: SettledInteraction, logPos?: string | null): void;
  /**
   * The session's dispatches after `seq`, oldest first; null when some of them are no longer kept,
   * or were never kept (an append failed: their numbers have a hole), so the client must start a
   * new session.
   */
  since(sessionId: string, seq: number): Promise<readonly BufferedDispatch[] | null>;
  /** Forgets the session. */
  drop(sessionId: string): void;
}

/** One session's kept dispatches: `items[head..]`, holding `chars` characters of JSON. */
interface Kept {
  items: BufferedDispatch[];
  head: number;
  chars: number;
}

/** The last dispatches of each session, at most `capacity` of them and `maxChars` of JSON text. */
export class InMemoryResumeBuffer implements ResumeBuffer {
  private readonly sessions = new Map<string, Kept>();

  constructor(
    private readonly capacity = RESUME_BUFFER_EVENTS,
    private readonly maxChars = RESUME_BUFFER_CHARS,
  ) {}

  append(sessionId: string, dispatch: BufferedDispatch): void {
    const kept = this.sessions.get(sessionId);
    // A session's first dispatch (READY) gets an array of one: most idle sessions never grow it.
    if (!kept) return void this.sessions.set(sessionId, { items: [dispatch], head: 0, chars: dispatch.json.length });
    kept.items.push(dispatch);
    kept.chars += dispatch.json.length;
    while (
      kept.items.length - kept.head > this.capacity ||
      (kept.chars > this.maxChars && kept.head < kept.items.length - 1)
    ) {
      kept.chars -= kept.items[kept.head]!.json.length;
      kept.head++;
    }
    // Compacting only once the dropped part is as long as the capacity keeps appends amortised O(1).
    if (kept.head >= this.capacity) {
      kept.items = kept.items.slice(kept.head);
      kept.head = 0;
    }
  }

  async since(sessionId: string, seq: number): Promise<readonly BufferedDispatch[] | null> {
    const kept = this.sessions.get(sessionId);
    const first = kept?.items[kept.head];
    if (!kept || !first) return seq >= 0 ? [] : null;
    if (seq < first.s - 1) return null;
    return kept.items.slice(kept.head).filter((dispatch) => dispatch.s > seq);
  }

  drop(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
