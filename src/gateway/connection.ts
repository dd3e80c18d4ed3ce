/**
 * One WebSocket connection speaking the v10 gateway protocol: HELLO, heartbeats, the command rate
 * limit, and the order of IDENTIFY/RESUME before anything else. What the commands do (sessions,
 * the world) is the host's job (src/gateway/gateway.ts).
 */
import type { WebSocket } from 'ws';
import {
  readFrame,
  readIdentify,
  readMembersRequest,
  readResume,
  type Identify,
  type MembersRequest,
  type Resume,
} from '../core/gateway/commands.js';
import { Close, COMMAND_WINDOW_MS, COMMANDS_PER_WINDOW, Op, type CloseCode } from '../core/gateway/protocol.js';
import type { BufferedDispatch } from './resume-buffer.js';
import type { Session, SessionSocket } from './session.js';
import type { Encoder } from './transport.js';

/** A refusal while handling a command: the connection closes with its code. */
export class GatewayClose extends Error {
  constructor(
    readonly close: CloseCode,
    /** Whether the session may still be resumed afterwards. */
    readonly resumable = false,
  ) {
    super(close.reason);
  }
}

export interface ConnectionHost {
  now(): number;
  readonly heartbeatIntervalMs: number;
  /**
   * Bytes a connection may have queued unsent, before its next payload, without being closed as a
   * slow consumer (the payload itself is not counted: one payload may be larger).
   */
  readonly sendBufferBytes: number;
  identify(connection: Connection, identify: Identify): Promise<void>;
  resume(connection: Connection, resume: Resume): Promise<void>;
  requestMembers(session: Session, request: MembersRequest): Promise<void>;
  /** The socket is gone: the session stays resumable for a while, or ends now. */
  detached(connection: Connection, resumable: boolean): void;
  /**
   * An injected fault (`/admin/faults`) about to replace this dispatch: true when one struck (the
   * dispatch stays numbered in the resume buffer, unsent).
   */
  dispatchFault?(connection: Connection, t: string): boolean;
}

/** Close codes a client sends to end its session for good (v10 invalidates the session on these). */
const FINAL_CLIENT_CLOSES: ReadonlySet<number> = new Set([1000, 1001]);

export class Connection implements SessionSocket {
  session: Session | null = null;
  /** When the last heartbeat (or HELLO) was: the sweep closes with 4009 after the timeout. */
  lastHeartbeatAt: number;
  private windowStart: number;
  private commandsInWindow = 0;
  /** Set once a close has begun: nothing more is received, the session is let go. */
  private closing = false;
  /** Set once the socket is closed: nothing more is sent. */
  private closed = false;
  private replayQueue: BufferedDispatch[] | null = null;
  private heartbeatRequested = false;
  /**
   * Commands are handled one after another: IDENTIFY's look-ups finish before what follows. Null
   * while none is in flight, so that an idle connection keeps no promise.
   */
  private queue: Promise<void> | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly encoder: Encoder,
    private readonly host: ConnectionHost,
    /** The URL a client resumes at (READY's resume_gateway_url). */
    readonly resumeUrl: string,
  ) {
    this.lastHeartbeatAt = host.now();
    this.windowStart = this.lastHeartbeatAt;
    // The socket's listeners are shared by every connection (not three closures each).
    connections.set(ws, this);
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.on('error', onError);
  }

  get isOpen(): boolean {
    return !this.closing;
  }

  hello(): void {
    this.send({ op: Op.Hello, d: { heartbeat_interval: this.host.heartbeatIntervalMs }, s: null, t: null });
  }

  /** A server-sent heartbeat (op 1), once per silence: the client must answer with its own op 1. */
  requestHeartbeat(): void {
    if (this.heartbeatRequested) return;
    this.heartbeatRequested = true;
    this.send({ op: Op.Heartbeat, d: this.session?.seq ?? null, s: null, t: null });
  }

  sendDispatch(t: string, s: number, json: string): void {
    if (this.replayQueue) this.replayQueue.push({ s, t, json });
    else if (this.host.dispatchFault?.(this, t) !== true) this.sendText(dispatchText(t, s, json));
  }

  /** From now until `finishReplay`, live dispatches wait behind the missed ones of a RESUME. */
  startReplay(): void {
    this.replayQueue = [];
  }

  cancelReplay(): void {
    this.replayQueue = null;
  }

  /** Sends the missed dispatches, then those that arrived meanwhile, each once and in order. */
  finishReplay(missed: readonly BufferedDispatch[]): void {
    const live = this.replayQueue ?? [];
    this.replayQueue = null;
    let last = 0;
    for (const dispatch of [...missed, ...live]) {
      if (dispatch.s <= last) continue;
      last = dispatch.s;
      this.sendText(dispatchText(dispatch.t, dispatch.s, dispatch.json));
    }
  }

  send(payload: unknown): void {
    this.sendText(JSON.stringify(payload));
  }

  private sendText(text: string): void {
    if (this.closing) return;
    this.encoder.encode(text, (data) => {
      if (this.closed) return;
      // A client that does not read keeps its unsent payloads in our memory: bounded per connection.
      // What counts is what was still unsent before this payload, so that one large payload (a
      // big guild's GUILD_CREATE) never closes a client that reads; memory stays within the bound
      // plus one payload.
      const unread = this.ws.bufferedAmount;
      this.ws.send(data);
      if (unread > this.host.sendBufferBytes) {
        this.close({ code: Close.UnknownError.code, reason: 'Send buffer full.' }, true);
      }
    });
  }

  /**
   * Closes with a v10 code once what was sent before has left; the session stays resumable only
   * when `resumable`.
   */
  close(close: CloseCode | { code: number; reason: string }, resumable = false): void {
    if (this.closing) return;
    this.closing = true;
    this.host.detached(this, resumable);
    this.encoder.whenIdle(() => {
      this.closed = true;
      this.encoder.close();
      this.ws.close(close.code, close.reason);
      // A peer that never answers the close handshake does not keep the socket.
      const timer = setTimeout(() => this.ws.terminate(), 5000);
      timer.unref();
    });
  }

  /** @internal Called by the socket's shared listeners. */
  peerClosed(code: number): void {
    this.closed = true;
    this.encoder.close();
    if (this.closing) return;
    this.closing = true;
    this.host.detached(this, !FINAL_CLIENT_CLOSES.has(code));
  }

  /** The rate limit of v10: 120 commands per 60 s, heartbeats included. */
  private overLimit(): boolean {
    const now = this.host.now();
    if (now - this.windowStart >= COMMAND_WINDOW_MS) {
      this.windowStart = now;
      this.commandsInWindow = 0;
    }
    return ++this.commandsInWindow > COMMANDS_PER_WINDOW;
  }

  /** @internal Called by the socket's shared listeners. */
  receive(bytes: Buffer, _isBinary: boolean): void {
    if (this.closing) return;
    if (this.overLimit()) return this.close(Close.RateLimited);
    const frame = readFrame(bytes, this.encoder.encoding);
    if (frame.kind === 'close') return this.close(frame.close);
    const { op, d } = frame.value;
    if (op === Op.Heartbeat) {
      this.lastHeartbeatAt = this.host.now();
      this.heartbeatRequested = false;
      this.send({ op: Op.HeartbeatAck, d: null, s: null, t: null });
      return;
    }
    const queue: Promise<void> = (this.queue ?? Promise.resolve())
      .then(() => this.handle(op, d))
      .catch((error: unknown) => this.fail(error))
      .then(() => {
        if (this.queue === queue) this.queue = null;
      });
    this.queue = queue;
  }

  private fail(error: unknown): void {
    if (error instanceof GatewayClose) this.close(error.close, error.resumable);
    else this.close(Close.UnknownError, true);
  }

  private async handle(op: number, d: unknown): Promise<void> {
    if (this.closing) return;
    switch (op) {
      case Op.Identify: {
        if (this.session) throw new GatewayClose(Close.AlreadyAuthenticated);
        const identify = readIdentify(d);
        if (identify.kind === 'close') throw new GatewayClose(identify.close);
        return this.host.identify(this, identify.value);
      }
      case Op.Resume: {
        if (this.session) throw new GatewayClose(Close.AlreadyAuthenticated);
        const resume = readResume(d);
        if (resume.kind === 'close') throw new GatewayClose(resume.close);
        return this.host.resume(this, resume.value);
      }
      case Op.RequestGuildMembers: {
        if (!this.session) throw new GatewayClose(Close.NotAuthenticated);
        const request = readMembersRequest(d);
        if (request.kind === 'close') throw new GatewayClose(request.close);
        return this.host.requestMembers(this.session, request.value);
      }
      default:
        // Presence, voice state and soundboard requests are accepted and have no effect here.
        if (!this.session) throw new GatewayClose(Close.NotAuthenticated);
    }
  }
}

/** The connection of each socket, for the listeners below. */
const connections = new WeakMap<WebSocket, Connection>();

function onMessage(this: WebSocket, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
  connections.get(this)?.receive(toBuffer(data), isBinary);
}

function onClose(this: WebSocket, code: number): void {
  connections.get(this)?.peerClosed(code);
}

function onError(this: WebSocket): void {
  connections.get(this)?.peerClosed(1006);
}

/** A dispatch frame around `d`'s JSON text, without parsing or serializing `d` again. */
function dispatchText(t: string, s: number, json: string): string {
  return `{"op":${Op.Dispatch},"t":${JSON.stringify(t)},"s":${s},"d":${json}}`;
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
