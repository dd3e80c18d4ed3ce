/**
 * WebSocket upgrades on `/` of the HTTP server: which are refused (path, Host, bounds), and the
 * sockets of this node, counted per client until each has a session (IDENTIFY or RESUME).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { addressGroup } from '../core/gateway/limits.js';
import { Close } from '../core/gateway/protocol.js';
import type { Connection } from './connection.js';
import type { GatewayOptions } from './gateway-options.js';

/** The largest frame `ws` accepts at all; frames above 4096 bytes but below it close with 4002. */
const WS_MAX_PAYLOAD_BYTES = 64 * 1024;

/** A socket that has not identified yet: the client it counts against, and its deadline. */
interface Unidentified {
  group: string;
  deadline: NodeJS.Timeout;
}

export interface AdmissionDeps {
  options: GatewayOptions;
  /** The client's address of an upgrade (behind trusted proxies, from X-Forwarded-For). */
  clientAddress: (request: IncomingMessage) => string;
  /** Whether the node drains (every upgrade is refused). */
  closing: () => boolean;
  /** Builds the connection of an accepted socket, HELLO not sent yet (null: closed at once, its query refused). */
  open: (ws: WebSocket, request: IncomingMessage, url: URL) => Connection | null;
}

export class UpgradeAdmission {
  readonly connections = new Set<Connection>();
  /** The connections without a session yet (each also in `connections`), and how many per client. */
  private readonly unidentified = new Map<Connection, Unidentified>();
  private readonly unidentifiedPerGroup = new Map<string, number>();
  private readonly wss: WebSocketServer;
  /** The HTTP server's Host check, applied to upgrades too (src/http/allowed-hosts.ts). */
  allowsHost: (host: string | undefined) => boolean = () => true;

  constructor(private readonly deps: AdmissionDeps) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: WS_MAX_PAYLOAD_BYTES,
      // Negotiated when a client offers it. Small payloads are not worth compressing, no context is
      // kept between messages, and the window and memory level are small: `ws` keeps a deflate
      // context per connection once it has compressed, and 10,000 idle sessions must stay cheap.
      perMessageDeflate: {
        threshold: 1024,
        serverNoContextTakeover: true,
        clientNoContextTakeover: true,
        serverMaxWindowBits: 10,
        zlibDeflateOptions: { memLevel: 4 },
      },
    });
  }

  /** Connections with a session: what `maxSessions` bounds. */
  get identifiedCount(): number {
    return this.connections.size - this.unidentified.size;
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { options } = this.deps;
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://gateway');
    } catch {
      return refuse('400 Bad Request');
    }
    if (url.pathname !== '/') return refuse('404 Not Found');
    if (!this.allowsHost(request.headers.host)) return refuse('421 Misdirected Request');
    const full = this.identifiedCount >= options.maxSessions;
    if (this.deps.closing() || full || this.unidentified.size >= options.maxUnidentified) {
      return refuse('503 Service Unavailable');
    }
    // Sockets without a token are counted per client, so that one client cannot hold the rest out.
    const group = addressGroup(this.deps.clientAddress(request));
    if ((this.unidentifiedPerGroup.get(group) ?? 0) >= options.maxUnidentifiedPerAddress) {
      return refuse('429 Too Many Requests');
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = this.deps.open(ws, request, url);
      if (!connection) return;
      this.admit(connection, group);
      connection.hello();
    });
  }

  /**
   * Counts the connection against its client until it has a session, and closes it with 4003 if it
   * has none by the deadline (resumable: a RESUME still under way keeps its session).
   */
  private admit(connection: Connection, group: string): void {
    this.connections.add(connection);
    const deadline = setTimeout(
      () => connection.close(Close.NotAuthenticated, true),
      this.deps.options.identifyTimeoutMs,
    );
    deadline.unref();
    this.unidentified.set(connection, { group, deadline });
    this.unidentifiedPerGroup.set(group, (this.unidentifiedPerGroup.get(group) ?? 0) + 1);
  }

  /** The connection has a session (or is gone): it no longer counts as unidentified. */
  identified(connection: Connection): void {
    const pending = this.unidentified.get(connection);
    if (!pending) return;
    clearTimeout(pending.deadline);
    this.unidentified.delete(connection);
    const left = (this.unidentifiedPerGroup.get(pending.group) ?? 1) - 1;
    if (left === 0) this.unidentifiedPerGroup.delete(pending.group);
    else this.unidentifiedPerGroup.set(pending.group, left);
  }

  /** The socket is gone. */
  left(connection: Connection): void {
    this.identified(connection);
    this.connections.delete(connection);
  }

  /** Stops taking upgrades; resolves once the WebSocket server is closed. */
  close(): Promise<void> {
    return new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** Cuts every socket still open at once. */
  terminate(): void {
    for (const ws of this.wss.clients) ws.terminate();
  }
}
