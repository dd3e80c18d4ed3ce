/**
 * A gateway session: what IDENTIFY started and RESUME continues. It outlives its socket for the
 * resume window, numbering and keeping its dispatches meanwhile.
 */
import type { ResumeBuffer } from './resume-buffer.js';

/** Where a session's payloads go while its socket is open. */
export interface SessionSocket {
  sendDispatch(t: string, s: number, d: unknown): void;
}

export interface SessionInit {
  id: string;
  applicationId: string;
  /** Application flags at IDENTIFY (privileged intents were checked against them). */
  intents: number;
  shardId: number;
  numShards: number;
  largeThreshold: number;
}

export class Session {
  readonly id: string;
  readonly applicationId: string;
  readonly intents: number;
  readonly shardId: number;
  readonly numShards: number;
  readonly largeThreshold: number;
  /** The last sequence number given out. */
  seq = 0;
  socket: SessionSocket | null = null;
  /** When the socket went away (for the resume window); null while attached. */
  detachedAt: number | null = null;

  constructor(
    init: SessionInit,
    private readonly buffer: ResumeBuffer,
  ) {
    this.id = init.id;
    this.applicationId = init.applicationId;
    this.intents = init.intents;
    this.shardId = init.shardId;
    this.numShards = init.numShards;
    this.largeThreshold = init.largeThreshold;
  }

  /** Numbers the dispatch, keeps it for a resume, and sends it if the socket is open. */
  dispatch(t: string, d: unknown): void {
    const s = ++this.seq;
    this.buffer.append(this.id, { s, t, d });
    this.socket?.sendDispatch(t, s, d);
  }
}
