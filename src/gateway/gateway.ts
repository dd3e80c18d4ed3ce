/**
 * The v10 gateway adapter, wired from its parts: WebSocket upgrades on slashd's HTTP server
 * (`upgrade-admission.ts`), the sessions this node holds (`session-table.ts`), IDENTIFY and RESUME
 * (`handshake.ts`), GUILD_CREATE payloads (`guild-create-cache.ts`), bus events turned into
 * dispatches (`bus-dispatcher.ts`) and injected faults (`gateway-faults.ts`); heartbeat timeouts
 * and the drain are here. Answers to interactions still go over HTTP.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Identify, MembersRequest, Resume } from '../core/gateway/commands.js';
import { readGatewayQuery } from '../core/gateway/encoding.js';
import type { GatewayPresence, HandedInteraction } from '../core/gateway/presence.js';
import {
  Close,
  HEARTBEAT_TIMEOUT_FACTOR,
  MAX_CONCURRENCY,
  Op,
  RESUME_BUFFER_EVENTS,
} from '../core/gateway/protocol.js';
import { recommendedShards } from '../core/gateway/shards.js';
import type { ClientAddress } from '../http/client-address.js';
import { NO_METRICS } from '../metrics/metrics.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import type { StoredApplication } from '../store/store.js';
import { BusDispatcher } from './bus-dispatcher.js';
import { Connection, type ConnectionHost } from './connection.js';
import { GatewayFaults } from './gateway-faults.js';
import {
  DEFAULT_GATEWAY_OPTIONS,
  type GatewayDeps,
  type GatewayOptions,
  type GatewayWorld,
} from './gateway-options.js';
import { announcedGatewayUrl, type GatewayOrigin } from './gateway-url.js';
import { GuildCreateCache } from './guild-create-cache.js';
import { Handshake } from './handshake.js';
import { InteractionRescue } from './interaction-rescue.js';
import { sendMemberChunks } from './member-chunks.js';
import { InMemoryResumeBuffer, type ResumeBuffer } from './resume-buffer.js';
import type { Session } from './session.js';
import { NODE_HEARTBEAT_MS } from './session-registry.js';
import { SessionStarts, type SessionStartCounter, type SessionStartLimit } from './session-starts.js';
import { SessionTable } from './session-table.js';
import { encoderFor } from './transport.js';
import { UpgradeAdmission } from './upgrade-admission.js';

export {
  DEFAULT_GATEWAY_OPTIONS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SEND_BUFFER_BYTES,
  type GatewayDeps,
  type GatewayOptions,
  type GatewayWorld,
} from './gateway-options.js';

/** How often the sweep looks for missed heartbeats and expired sessions. */
const SWEEP_INTERVAL_MS = 5_000;

export class Gateway implements ConnectionHost, GatewayPresence {
  readonly options: GatewayOptions;
  readonly heartbeatIntervalMs: number;
  readonly sendBufferBytes: number;
  readonly starts: SessionStartCounter;
  readonly now: () => number;
  /** Where sessions keep their dispatches for RESUME (in memory, or Redis's with many nodes). */
  readonly resumeBuffer: ResumeBuffer;
  private readonly store: GatewayWorld;
  private readonly sessions: SessionTable;
  private readonly admission: UpgradeAdmission;
  private readonly handshake: Handshake;
  private readonly guildCreates: GuildCreateCache;
  private readonly dispatcher: BusDispatcher;
  private readonly faults: GatewayFaults;
  private readonly unsubscribers: (() => void)[];
  private readonly rescue: InteractionRescue | null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private lastResumeUrl: { host: string | undefined; url: string } | null = null;
  /** The server's public URL and bound address: what the announced URL is built from. */
  private origin: GatewayOrigin = { publicUrl: null, listening: null };

  constructor(deps: GatewayDeps) {
    this.store = deps.store;
    this.now = deps.now;
    this.options = { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options };
    this.heartbeatIntervalMs = this.options.heartbeatIntervalMs;
    this.sendBufferBytes = this.options.sendBufferBytes;
    const buffer = deps.resumeBuffer ?? new InMemoryResumeBuffer(RESUME_BUFFER_EVENTS, this.options.resumeBufferChars);
    this.resumeBuffer = buffer;
    this.starts = deps.sessionStarts ?? new SessionStarts(deps.now);
    this.sessions = new SessionTable(buffer, deps.registry ?? null, deps.now);
    this.admission = new UpgradeAdmission({
      options: this.options,
      clientAddress: deps.clientAddress ?? ((request) => request.socket.remoteAddress ?? ''),
      closing: () => this.closing,
      open: (ws, request, url) => this.open(ws, request, url),
    });
    this.guildCreates = new GuildCreateCache(
      deps.store,
      deps.channelCounters ?? null,
      deps.guildScheduledEvents ?? null,
    );
    const { registry, pending } = deps;
    this.rescue =
      registry && pending
        ? new InteractionRescue({
            pending,
            registry,
            sessions: this.sessions,
            bus: deps.bus,
            metrics: deps.metrics ?? NO_METRICS,
            states: deps.interactionStates ?? null,
            now: deps.now,
          })
        : null;
    this.handshake = new Handshake({
      store: deps.store,
      options: this.options,
      starts: this.starts,
      buffer,
      metrics: deps.metrics ?? NO_METRICS,
      bus: deps.bus,
      sessions: this.sessions,
      admission: this.admission,
      guildCreates: this.guildCreates,
      rescue: this.rescue,
      interactionStates: deps.interactionStates ?? null,
      now: deps.now,
      observeDispatch: deps.observeDispatch ?? null,
    });
    this.dispatcher = new BusDispatcher(deps.store, deps.members, this.sessions, this.guildCreates);
    this.faults = new GatewayFaults(deps.faults ?? null, this.sessions);
    this.unsubscribers = this.dispatcher.subscribe(deps.bus);
  }

  /** Takes WebSocket upgrades on `/` of the HTTP server and starts the heartbeat sweep. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.admission.upgrade(request, socket, head),
    );
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
    const registry = this.sessions.registry;
    if (!registry) return;
    let beating = false;
    const beat = async () => {
      // One at a time: a slow Redis does not pile heartbeats up.
      if (beating) return;
      beating = true;
      try {
        await registry.beat();
        await this.rescue?.watch();
      } catch {
        // Redis is away: its link reports it; the next beat tries again.
      } finally {
        beating = false;
      }
    };
    void beat();
    this.heartbeatTimer = setInterval(() => void beat(), NODE_HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  /** Keeps an interaction handed to a session until its buffer has it (with a registry; else nothing to do). */
  async handOver(applicationId: string, sessionId: string, interaction: HandedInteraction): Promise<void> {
    if (!this.rescue) return;
    const { data, deadline } = interaction;
    const id = typeof data.id === 'string' ? data.id : null;
    if (id === null) return;
    const guildId = typeof data.guild_id === 'string' ? data.guild_id : null;
    try {
      await this.rescue.handOver(applicationId, { id, sessionId, guildId, deadline, handedAt: this.now(), data });
    } catch {
      // Redis failed this call: the interaction still goes out, only without a re-send if its node dies.
    }
  }

  /** Where the server is (its public URL, its bound address) and which Hosts it answers; set by src/app.ts. */
  setOrigin(origin: GatewayOrigin, allowsHost: (host: string | undefined) => boolean): void {
    this.origin = origin;
    this.admission.allowsHost = allowsHost;
    this.lastResumeUrl = null;
  }

  /** Throttles wrong bot tokens at IDENTIFY and RESUME per address, with the HTTP API's throttle (close 4008). */
  throttleCredentials(throttle: CredentialThrottle, addressOf: ClientAddress): void {
    this.handshake.throttleCredentials(throttle, addressOf);
  }

  /** The URL clients connect to, as announced by discovery and READY; `hostHeader` must have passed the Host check. */
  url(hostHeader: string | undefined): string {
    return announcedGatewayUrl(this.options.publicUrl, this.origin, hostHeader);
  }

  /**
   * `url` for a connection to keep (READY's resume_gateway_url): the last one is reused while the
   * Host header stays the same, so that thousands of connections share one string.
   */
  private resumeUrl(hostHeader: string | undefined): string {
    let last = this.lastResumeUrl;
    if (last === null || last.host !== hostHeader)
      this.lastResumeUrl = last = { host: hostHeader, url: this.url(hostHeader) };
    return last.url;
  }

  /** `GET /gateway/bot`'s body for an app. */
  async botInfo(app: StoredApplication, hostHeader: string | undefined): Promise<Record<string, unknown>> {
    const guilds = await this.store.guildsOfApplication(app.id);
    const limit: SessionStartLimit = await this.starts.limit(app.id, MAX_CONCURRENCY);
    return { url: this.url(hostHeader), shards: recommendedShards(guilds.length), session_start_limit: limit };
  }

  /** Whether the session exists and has a socket (tests wait on a drop being noticed). */
  isAttached(sessionId: string): boolean {
    return (this.sessions.get(sessionId)?.socket ?? null) !== null;
  }

  get connectionCount(): number {
    return this.admission.connections.size;
  }

  /** Connections with a session: what `maxSessions` bounds. */
  get identifiedCount(): number {
    return this.admission.identifiedCount;
  }

  /** What /metrics reports: open sockets, sessions attached to one, and detached sessions still resumable. */
  sessionCounts(): { connections: number; attached: number; resumable: number } {
    return { connections: this.admission.connections.size, ...this.sessions.counts() };
  }

  /** A socket the admission accepted: its connection (HELLO follows), or null when its query is refused. */
  private open(ws: WebSocket, request: IncomingMessage, url: URL): Connection | null {
    const query = readGatewayQuery(url.searchParams);
    if (query.kind === 'close') {
      ws.close(query.close.code, query.close.reason);
      return null;
    }
    const connection = new Connection(ws, encoderFor(query.value), this, this.resumeUrl(request.headers.host));
    this.handshake.opened(connection, request);
    return connection;
  }

  /**
   * Closes connections whose heartbeats stopped (4009), asks late ones for a heartbeat, and forgets
   * sessions past the resume window.
   */
  sweep(): void {
    const now = this.now();
    for (const connection of this.admission.connections) {
      const silent = now - connection.lastHeartbeatAt;
      if (silent > this.heartbeatIntervalMs * HEARTBEAT_TIMEOUT_FACTOR) connection.close(Close.SessionTimedOut);
      // Late by an interval: asked once for a heartbeat now (op 1), which clients answer at once.
      else if (silent > this.heartbeatIntervalMs) connection.requestHeartbeat();
    }
    this.sessions.sweep();
  }

  identify(connection: Connection, identify: Identify): Promise<void> {
    return this.handshake.identify(connection, identify);
  }

  resume(connection: Connection, resume: Resume): Promise<void> {
    return this.handshake.resume(connection, resume);
  }

  requestMembers(session: Session, request: MembersRequest): Promise<void> {
    return sendMemberChunks(this.store, this.guildCreates, session, request);
  }

  detached(connection: Connection, resumable: boolean): void {
    this.admission.left(connection);
    const session = connection.session;
    if (!session || session.socket !== connection) return;
    session.socket = null;
    const registry = this.sessions.registry;
    if (resumable && !this.closing) {
      session.detachedAt = this.now();
      if (registry) this.sessions.track(registry.setAttached(session.id, false));
    } else if (resumable && registry) {
      // A draining node lets its sessions go, resumable for the window on any other node.
      this.sessions.forget(session);
      this.sessions.track(registry.setAttached(session.id, false));
    } else {
      this.sessions.end(session);
    }
  }

  /** This node's own sessions are always reachable; with Redis, presenceNeedingRedis says otherwise. */
  reachable(): boolean {
    return true;
  }

  sessionFor(applicationId: string, guildId: string | null): Promise<string | null> {
    return this.dispatcher.sessionFor(applicationId, guildId);
  }

  /** Resolves once the bus events published so far have been dispatched. */
  settled(): Promise<void> {
    return this.dispatcher.settled();
  }

  dispatchFault(connection: Connection, t: string): boolean {
    return this.faults.strikesDispatch(connection, t);
  }

  /**
   * Gateway faults without an event strike at once: each attached session of the app on this node
   * is a chance (a fault with `count: 1` strikes one). Returns how many were struck.
   */
  strikeNow(applicationId: string): number {
    return this.faults.strikeNow(applicationId);
  }

  /**
   * The node drains: every client is told to reconnect (op 7) and its socket closed with a code
   * that lets it resume elsewhere.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    for (const connection of [...this.admission.connections]) {
      connection.send({ op: Op.Reconnect, d: null, s: null, t: null });
      connection.close({ code: Close.UnknownError.code, reason: 'Reconnect.' }, true);
    }
    await this.admission.close();
    await this.sessions.writesDone();
  }

  /** Past the drain's deadline: every socket still open is cut at once. */
  terminate(): void {
    this.admission.terminate();
  }
}
