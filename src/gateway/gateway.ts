/**
 * The v10 gateway adapter: WebSocket upgrades on slashd's HTTP server, sessions (IDENTIFY,
 * RESUME, the resume window), heartbeat timeouts, and the bus events it turns into dispatches.
 * Answers to interactions still go over HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Identify, MembersRequest, Resume } from '../core/gateway/commands.js';
import { readGatewayQuery } from '../core/gateway/encoding.js';
import { Intent, privilegedIntentsAllowed } from '../core/gateway/intents.js';
import {
  addressGroup,
  IDENTIFY_TIMEOUT_MS,
  UNIDENTIFIED_PER_ADDRESS,
  UNIDENTIFIED_TOTAL,
} from '../core/gateway/limits.js';
import {
  Close,
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TIMEOUT_FACTOR,
  MAX_CONCURRENCY,
  MAX_GUILDS_PER_SHARD,
  MEMBERS_PER_CHUNK,
  Op,
  RESUME_BUFFER_CHARS,
  RESUME_BUFFER_EVENTS,
  RESUME_WINDOW_MS,
} from '../core/gateway/protocol.js';
import type { GatewayPresence } from '../core/gateway/presence.js';
import { recommendedShards, shardingRequired, shardOf } from '../core/gateway/shards.js';
import { worldDispatchFor, type WorldEvent } from '../core/gateway/world-filter.js';
import { toWireGuildCreate } from '../core/world/guild-create.js';
import { botInGuild, directoryOf, guildMembers, idsNamedBy, type WorldDirectory } from '../core/world/guild-members.js';
import type { Application, Guild, User } from '../core/world/types.js';
import { toWireGuildMember } from '../core/world/v10-objects.js';
import { toWireBotUser } from '../core/world/wire.js';
import type { BusEvents, EventBus } from '../events/bus.js';
import type { Fault } from '../core/faults/fault.js';
import { planGatewayFault } from '../core/faults/gateway-faults.js';
import type { FaultTable } from '../faults/fault-table.js';
import { NO_METRICS, type GatewayMetrics } from '../metrics/metrics.js';
import type { StoredApplication, WorldStore } from '../store/store.js';
import { Connection, GatewayClose, type ConnectionHost } from './connection.js';
import { InMemoryResumeBuffer, type BufferedDispatch, type ResumeBuffer } from './resume-buffer.js';
import { Session } from './session.js';
import { SESSION_KEEPALIVE_MS, type SessionRecord, type SessionRegistry } from './session-registry.js';
import { SessionStarts, type SessionStartCounter, type SessionStartLimit } from './session-starts.js';
import { encoderFor } from './transport.js';
import { announcedGatewayUrl, type GatewayOrigin } from './gateway-url.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import type { ClientAddress } from '../http/client-address.js';

/**
 * Identified connections (past IDENTIFY or RESUME) one node holds at most; past it, upgrades are
 * refused with HTTP 503. Sockets not yet identified have bounds of their own (core/gateway/limits.ts).
 */
export const DEFAULT_MAX_SESSIONS = 50_000;
/** Unsent bytes a connection may queue before it is closed as a slow consumer (4000, resumable). */
export const DEFAULT_SEND_BUFFER_BYTES = 4 * 1024 * 1024;
/** How often the sweep looks for missed heartbeats and expired sessions. */
const SWEEP_INTERVAL_MS = 5_000;
/** The largest frame `ws` accepts at all; frames above 4096 bytes but below it close with 4002. */
const WS_MAX_PAYLOAD_BYTES = 64 * 1024;

export interface GatewayOptions {
  /** The ws:// or wss:// URL announced to clients (`--gateway-url`); by default from `setOrigin` (gateway-url.ts). */
  publicUrl: string | null;
  /** Identified connections the node holds at most (DEFAULT_MAX_SESSIONS). */
  maxSessions: number;
  /** How long a socket may stay without IDENTIFY or RESUME before it closes with 4003 (ms). */
  identifyTimeoutMs: number;
  /** Sockets not yet identified one client address (an IPv6 /64) may hold; more get HTTP 429. */
  maxUnidentifiedPerAddress: number;
  /** Sockets not yet identified the node holds, all addresses together; more get HTTP 503. */
  maxUnidentified: number;
  sendBufferBytes: number;
  heartbeatIntervalMs: number;
  /**
   * Whether an interaction for an app without an interactions endpoint fails at once when no
   * session of the app is connected (v10). Off, it waits on the bus for its 3 s deadline.
   */
  failWithoutSession: boolean;
  /** Guilds one shard may hold before IDENTIFY closes with 4011 (v10: 2,500). */
  maxGuildsPerShard: number;
  /** JSON text the resume buffer (in memory, or Redis's with many nodes) keeps per session. */
  resumeBufferChars: number;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  publicUrl: null,
  maxSessions: DEFAULT_MAX_SESSIONS,
  identifyTimeoutMs: IDENTIFY_TIMEOUT_MS,
  maxUnidentifiedPerAddress: UNIDENTIFIED_PER_ADDRESS,
  maxUnidentified: UNIDENTIFIED_TOTAL,
  sendBufferBytes: DEFAULT_SEND_BUFFER_BYTES,
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  failWithoutSession: true,
  maxGuildsPerShard: MAX_GUILDS_PER_SHARD,
  resumeBufferChars: RESUME_BUFFER_CHARS,
};

/** The world reads the gateway makes: the bot's token (constant-time lookup), guilds, users. */
export type GatewayWorld = Pick<
  WorldStore,
  'findApplicationByBotToken' | 'getApplication' | 'getGuild' | 'getGuildWithMembers' | 'listGuilds' | 'getUsers'
>;

export interface GatewayDeps {
  store: GatewayWorld;
  bus: EventBus;
  now: () => number;
  options?: Partial<GatewayOptions> | undefined;
  resumeBuffer?: ResumeBuffer | undefined;
  metrics?: GatewayMetrics | undefined;
  /** Sessions shared with other nodes (a RESUME on any node); without it, sessions are this node's. */
  registry?: SessionRegistry | undefined;
  /** Where `session_start_limit` is counted; by default in this process. */
  sessionStarts?: SessionStartCounter | undefined;
  /** Injected faults (`/admin/faults`): RECONNECT, INVALID_SESSION or a close instead of a dispatch. */
  faults?: FaultTable | undefined;
  /** The client's address of an upgrade (behind trusted proxies, from X-Forwarded-For); by default the socket's. */
  clientAddress?: ((request: IncomingMessage) => string) | undefined;
}

/** A socket that has not identified yet: the client it counts against, and its deadline. */
interface Unidentified {
  group: string;
  deadline: NodeJS.Timeout;
}

/** The HTTP API's failed-credential throttle, and how a socket's client address is found. */
interface GatewayCredentials {
  throttle: CredentialThrottle;
  addressOf: ClientAddress;
}

/** A GUILD_CREATE payload, and a digest of the names (users, bots) it was built with. */
interface GuildCreateView {
  names: string;
  payload: Record<string, unknown>;
}

export class Gateway implements ConnectionHost, GatewayPresence {
  readonly options: GatewayOptions;
  readonly heartbeatIntervalMs: number;
  readonly sendBufferBytes: number;
  readonly starts: SessionStartCounter;
  private readonly store: GatewayWorld;
  private readonly buffer: ResumeBuffer;
  private readonly metrics: GatewayMetrics;
  private readonly registry: SessionRegistry | null;
  private readonly faults: FaultTable | null;
  private readonly bus: EventBus;
  /** Registry writes under way: a draining node waits for them before its Redis connection closes. */
  private readonly registryWrites = new Set<Promise<void>>();
  private lastKeepAliveAt: number;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  /** The connections without a session yet (each also in `connections`), and how many per client. */
  private readonly unidentified = new Map<Connection, Unidentified>();
  private readonly unidentifiedPerGroup = new Map<string, number>();
  private readonly clientAddress: (request: IncomingMessage) => string;
  private readonly sessions = new Map<string, Session>();
  private readonly sessionsByApp = new Map<string, Set<Session>>();
  private readonly unsubscribers: (() => void)[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;
  /**
   * Bus events are dispatched one after another, in the order published: a world event waits for
   * its guild to be read, and what was published after it waits behind it.
   */
  private queue: Promise<void> = Promise.resolve();
  private closing = false;
  private lastResumeUrl: { host: string | undefined; url: string } | null = null;
  /** The server's public URL and bound address: what the announced URL is built from. */
  private origin: GatewayOrigin = { publicUrl: null, listening: null };
  private credentials: GatewayCredentials | null = null;
  /** Each connection's client address, for the failed-credential throttle. */
  private readonly addresses = new WeakMap<Connection, string>();
  /** The HTTP server's Host check, applied to upgrades too (src/http/allowed-hosts.ts). */
  private allowsHost: (host: string | undefined) => boolean = () => true;
  /** GUILD_CREATE payloads by guild instance and view (see `guildCreate`). */
  private readonly guildCreates = new WeakMap<
    Guild,
    Map<string, { names: string; payload: Record<string, unknown> }>
  >();
  readonly now: () => number;

  constructor(deps: GatewayDeps) {
    this.store = deps.store;
    this.now = deps.now;
    this.options = { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options };
    this.heartbeatIntervalMs = this.options.heartbeatIntervalMs;
    this.sendBufferBytes = this.options.sendBufferBytes;
    this.buffer = deps.resumeBuffer ?? new InMemoryResumeBuffer(RESUME_BUFFER_EVENTS, this.options.resumeBufferChars);
    this.metrics = deps.metrics ?? NO_METRICS;
    this.starts = deps.sessionStarts ?? new SessionStarts(deps.now);
    this.registry = deps.registry ?? null;
    this.faults = deps.faults ?? null;
    this.clientAddress = deps.clientAddress ?? ((request) => request.socket.remoteAddress ?? '');
    this.bus = deps.bus;
    this.lastKeepAliveAt = deps.now();
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
    const { bus } = deps;
    this.unsubscribers.push(
      bus.subscribe('INTERACTION_CREATE', (event) => this.enqueue(async () => this.onInteraction(event))),
      bus.subscribe('APPLICATION_COMMAND_PERMISSIONS_UPDATE', (event) =>
        this.enqueue(async () => this.onPermissionsUpdate(event)),
      ),
      bus.subscribe('WORLD_DISPATCH', (event) => this.enqueue(() => this.onWorld(event))),
      bus.subscribe('APPLICATION_GUILD', (event) => this.enqueue(() => this.onApplicationGuild(event))),
      bus.subscribe('GATEWAY_SESSION_MOVED', (event) => this.onSessionMoved(event)),
    );
  }

  /** Takes WebSocket upgrades on `/` of the HTTP server and starts the heartbeat sweep. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(request, socket, head),
    );
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /** Where the server is (its public URL, its bound address) and which Hosts it answers; set by src/app.ts. */
  setOrigin(origin: GatewayOrigin, allowsHost: (host: string | undefined) => boolean): void {
    this.origin = origin;
    this.allowsHost = allowsHost;
    this.lastResumeUrl = null;
  }

  /** Throttles wrong bot tokens at IDENTIFY and RESUME per address, with the HTTP API's throttle (close 4008). */
  throttleCredentials(throttle: CredentialThrottle, addressOf: ClientAddress): void {
    this.credentials = { throttle, addressOf };
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
    const guilds = (await this.store.listGuilds()).filter((guild) => botInGuild(guild, app.id));
    const limit: SessionStartLimit = await this.starts.limit(app.id, MAX_CONCURRENCY);
    return { url: this.url(hostHeader), shards: recommendedShards(guilds.length), session_start_limit: limit };
  }

  /** Whether the session exists and has a socket (tests wait on a drop being noticed). */
  isAttached(sessionId: string): boolean {
    return (this.sessions.get(sessionId)?.socket ?? null) !== null;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Connections with a session: what `maxSessions` bounds. */
  get identifiedCount(): number {
    return this.connections.size - this.unidentified.size;
  }

  /** What /metrics reports: open sockets, sessions attached to one, and detached sessions still resumable. */
  sessionCounts(): { connections: number; attached: number; resumable: number } {
    let attached = 0;
    for (const session of this.sessions.values()) if (session.socket !== null) attached++;
    return { connections: this.connections.size, attached, resumable: this.sessions.size - attached };
  }

  // ---- Connections ----------------------------------------------------------------------------

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
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
    const full = this.identifiedCount >= this.options.maxSessions;
    if (this.closing || full || this.unidentified.size >= this.options.maxUnidentified) {
      return refuse('503 Service Unavailable');
    }
    // Sockets without a token are counted per client, so that one client cannot hold the rest out.
    const group = addressGroup(this.clientAddress(request));
    if ((this.unidentifiedPerGroup.get(group) ?? 0) >= this.options.maxUnidentifiedPerAddress) {
      return refuse('429 Too Many Requests');
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, request, url, group));
  }

  private open(ws: WebSocket, request: IncomingMessage, url: URL, group: string): void {
    const query = readGatewayQuery(url.searchParams);
    if (query.kind === 'close') return ws.close(query.close.code, query.close.reason);
    const connection = new Connection(ws, encoderFor(query.value), this, this.resumeUrl(request.headers.host));
    this.connections.add(connection);
    this.awaitSession(connection, group);
    if (this.credentials) this.addresses.set(connection, this.credentials.addressOf(request));
    connection.hello();
  }

  /**
   * Counts the connection against its client until it has a session, and closes it with 4003 if it
   * has none by the deadline (resumable: a RESUME still under way keeps its session).
   */
  private awaitSession(connection: Connection, group: string): void {
    const deadline = setTimeout(() => connection.close(Close.NotAuthenticated, true), this.options.identifyTimeoutMs);
    deadline.unref();
    this.unidentified.set(connection, { group, deadline });
    this.unidentifiedPerGroup.set(group, (this.unidentifiedPerGroup.get(group) ?? 0) + 1);
  }

  /** The connection has a session (or is gone): it no longer counts as unidentified. */
  private identified(connection: Connection): void {
    const pending = this.unidentified.get(connection);
    if (!pending) return;
    clearTimeout(pending.deadline);
    this.unidentified.delete(connection);
    const left = (this.unidentifiedPerGroup.get(pending.group) ?? 1) - 1;
    if (left === 0) this.unidentifiedPerGroup.delete(pending.group);
    else this.unidentifiedPerGroup.set(pending.group, left);
  }

  /** Whether one more connection may get a session (`maxSessions`); refused ones close with 4000. */
  private assertSessionSlot(): void {
    if (this.identifiedCount >= this.options.maxSessions) throw new GatewayClose(Close.UnknownError);
  }

  /**
   * Closes connections whose heartbeats stopped (4009), asks late ones for a heartbeat, and forgets
   * sessions past the resume window.
   */
  sweep(): void {
    const now = this.now();
    for (const connection of this.connections) {
      const silent = now - connection.lastHeartbeatAt;
      if (silent > this.heartbeatIntervalMs * HEARTBEAT_TIMEOUT_FACTOR) connection.close(Close.SessionTimedOut);
      // Late by an interval: asked once for a heartbeat now (op 1), which clients answer at once.
      else if (silent > this.heartbeatIntervalMs) connection.requestHeartbeat();
    }
    for (const session of this.sessions.values()) {
      if (session.detachedAt !== null && now - session.detachedAt > RESUME_WINDOW_MS) this.endSession(session);
    }
    if (this.registry && now - this.lastKeepAliveAt >= SESSION_KEEPALIVE_MS) {
      this.lastKeepAliveAt = now;
      const held = [...this.sessions.values()].filter((session) => session.socket !== null);
      this.track(this.registry.keepAlive(held));
    }
  }

  /** Keeps a registry write for `close()` to wait on; a failed one is let go (its keys expire). */
  private track(write: Promise<void>): void {
    const tracked: Promise<void> = write
      .catch(() => undefined)
      .finally(() => {
        this.registryWrites.delete(tracked);
      });
    this.registryWrites.add(tracked);
  }

  detached(connection: Connection, resumable: boolean): void {
    this.identified(connection);
    this.connections.delete(connection);
    const session = connection.session;
    if (!session || session.socket !== connection) return;
    session.socket = null;
    if (resumable && !this.closing) {
      session.detachedAt = this.now();
      if (this.registry) this.track(this.registry.setAttached(session.id, false));
    } else if (resumable && this.registry) {
      // A draining node lets its sessions go, resumable for the window on any other node.
      this.forgetSession(session);
      this.track(this.registry.setAttached(session.id, false));
    } else {
      this.endSession(session);
    }
  }

  /** The id string the app's other sessions hold (the store reads a fresh one each time). */
  private sharedApplicationId(applicationId: string): string {
    const own = this.sessionsByApp.get(applicationId);
    return own ? (own.values().next().value?.applicationId ?? applicationId) : applicationId;
  }

  private addSession(session: Session): void {
    this.sessions.set(session.id, session);
    let own = this.sessionsByApp.get(session.applicationId);
    if (!own) this.sessionsByApp.set(session.applicationId, (own = new Set()));
    own.add(session);
  }

  /** This node no longer holds the session (it ended, or another node holds it now). */
  private forgetSession(session: Session): void {
    this.sessions.delete(session.id);
    const own = this.sessionsByApp.get(session.applicationId);
    own?.delete(session);
    if (own?.size === 0) this.sessionsByApp.delete(session.applicationId);
  }

  private endSession(session: Session): void {
    this.forgetSession(session);
    this.buffer.drop(session.id);
    if (this.registry) this.track(this.registry.end(session.id, session.applicationId));
  }

  /** Another node resumed a session this node held: its socket here (if any) is closed, and it is let go. */
  private onSessionMoved({ sessionId, node }: BusEvents['GATEWAY_SESSION_MOVED']): void {
    if (!this.registry || node === this.registry.node) return;
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.forgetSession(session);
    const socket = session.socket;
    session.socket = null;
    if (socket instanceof Connection) {
      socket.session = null;
      socket.close({ code: Close.UnknownError.code, reason: 'Session resumed elsewhere.' });
    }
  }

  // ---- Commands -------------------------------------------------------------------------------

  /** The bot of a token, under the failed-credential throttle: a throttled address is closed with 4008. */
  private async botOfToken(connection: Connection, token: string): Promise<StoredApplication | null> {
    if (!this.credentials) return this.store.findApplicationByBotToken(token);
    const address = this.addresses.get(connection) ?? '';
    const { throttle } = this.credentials;
    if (throttle.before(address)) throw new GatewayClose(Close.RateLimited);
    const app = await this.store.findApplicationByBotToken(token);
    if (await throttle.after(address, app !== null)) throw new GatewayClose(Close.RateLimited);
    return app;
  }

  async identify(connection: Connection, identify: Identify): Promise<void> {
    const app = await this.botOfToken(connection, identify.token);
    if (!app) throw new GatewayClose(Close.AuthenticationFailed);
    if (!privilegedIntentsAllowed(identify.intents, app.flags)) throw new GatewayClose(Close.DisallowedIntents);
    const [shardId, numShards] = identify.shard;
    const guilds = await this.store.listGuilds();
    const botGuilds = guilds.filter((guild) => botInGuild(guild, app.id));
    if (
      shardingRequired(
        botGuilds.map((guild) => guild.id),
        numShards,
        shardId,
        this.options.maxGuildsPerShard,
      )
    ) {
      throw new GatewayClose(Close.ShardingRequired);
    }
    if (!connection.isOpen) return;
    this.assertSessionSlot();
    // Past the day's session starts a bot is refused as rate limited (v10 would reset its token).
    if (!(await this.starts.take(app.id))) throw new GatewayClose(Close.RateLimited);
    if (!connection.isOpen) return;
    const session = new Session(
      {
        id: randomBytes(16).toString('hex'),
        applicationId: this.sharedApplicationId(app.id),
        intents: identify.intents,
        shardId,
        numShards,
        largeThreshold: identify.largeThreshold,
      },
      this.buffer,
    );
    if (this.registry) {
      await this.registry.register(session);
      if (!connection.isOpen) return this.track(this.registry.end(session.id, session.applicationId));
    }
    // Checked again after the awaits: other connections may have taken the last slots meanwhile.
    if (this.identifiedCount >= this.options.maxSessions) {
      if (this.registry) this.track(this.registry.end(session.id, session.applicationId));
      throw new GatewayClose(Close.UnknownError);
    }
    const shardGuilds = botGuilds.filter((guild) => shardOf(guild.id, numShards) === shardId);
    const sendsGuilds = (session.intents & Intent.Guilds) !== 0;
    if (sendsGuilds) session.holdGuilds(shardGuilds.map((guild) => guild.id));
    this.addSession(session);
    connection.session = session;
    session.socket = connection;
    this.identified(connection);
    this.metrics.identified();
    session.dispatch('READY', {
      v: 10,
      user: toWireBotUser(app),
      user_settings: {},
      guilds: shardGuilds.map((guild) => ({ id: guild.id, unavailable: true })),
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: connection.resumeUrl,
      shard: [shardId, numShards],
      application: { id: app.id, flags: app.flags },
      auth: {},
      _trace: ['["slashd-gateway",{"micros":0}]'],
    });
    if (!sendsGuilds) return;
    try {
      for (const listed of shardGuilds) {
        // The store's cached instance, so that sessions of the same view share one payload.
        const guild = (await this.store.getGuild(listed.id)) ?? listed;
        session.dispatch('GUILD_CREATE', await this.guildCreate(guild, app, session));
        session.release(listed.id);
      }
    } finally {
      // A GUILD_CREATE that could not be built holds nothing back for ever.
      session.release();
    }
  }

  /**
   * GUILD_CREATE for a session, built once per view: while the store hands out the same guild (its
   * read caches do until a write), sessions with the same app, members flag and large threshold
   * share the payload object, and so its JSON text (`jsonOf`). The names of the guild's bots and
   * the members' users are part of the view (a digest of them), as both are written apart from the
   * guild; a view keeps only its latest payload.
   */
  private async guildCreate(guild: Guild, app: StoredApplication, session: Session): Promise<Record<string, unknown>> {
    const withMembers = (session.intents & Intent.GuildMembers) !== 0;
    const [apps, users] = await Promise.all([this.guildApplications(guild), this.memberUsers(guild)]);
    let byView = this.guildCreates.get(guild);
    if (!byView) this.guildCreates.set(guild, (byView = new Map<string, GuildCreateView>()));
    const bots = apps.map((a) => [a.id, a.name]);
    const key = JSON.stringify([app.id, withMembers, session.largeThreshold]);
    const names = createHash('sha256')
      .update(JSON.stringify([bots, users]))
      .digest('base64');
    let kept = byView.get(key);
    if (kept?.names !== names) {
      const view = { withMembers, largeThreshold: session.largeThreshold };
      kept = { names, payload: toWireGuildCreate(guild, app.id, directoryOf(users, apps), view) };
      byView.set(key, kept);
    }
    return kept.payload;
  }

  /** The users of the guild's members, and no others. */
  private memberUsers(guild: Guild): Promise<User[]> {
    return this.store.getUsers(idsNamedBy(guild).userIds);
  }

  /** The applications installed in the guild (those of its bot members among them). */
  private async guildApplications(guild: Guild): Promise<Application[]> {
    const apps = await Promise.all(guild.installs.map((i) => this.store.getApplication(i.application_id)));
    return apps.filter((a): a is StoredApplication => a !== null);
  }

  /** Where the guild's members are looked up: the world's users and the guild's applications. */
  private async guildDirectory(guild: Guild): Promise<WorldDirectory> {
    const [users, apps] = await Promise.all([this.memberUsers(guild), this.guildApplications(guild)]);
    return directoryOf(users, apps);
  }

  async resume(connection: Connection, resume: Resume): Promise<void> {
    const app = await this.botOfToken(connection, resume.token);
    if (!app) throw new GatewayClose(Close.AuthenticationFailed);
    let session = this.sessions.get(resume.sessionId);
    if (!session && this.registry) {
      let claimed: SessionRecord | null;
      try {
        claimed = await this.registry.claim(resume.sessionId, app.id);
      } catch {
        // The registry is away: the client may try again (INVALID_SESSION d: true).
        return connection.send({ op: Op.InvalidSession, d: true, s: null, t: null });
      }
      if (claimed) session = this.takeOver(claimed);
    }
    if (!session || session.applicationId !== app.id) {
      this.metrics.resumed('invalid');
      return this.invalidSession(connection);
    }
    if (resume.seq > session.seq) throw new GatewayClose(Close.InvalidSeq);
    if (!connection.isOpen) return;
    // The old socket, if the client never saw it close, is taken over (its slot with it).
    const previous = session.socket;
    const takesOver = previous instanceof Connection && previous !== connection;
    if (!takesOver) this.assertSessionSlot();
    if (takesOver) {
      previous.session = null;
      previous.close({ code: Close.UnknownError.code, reason: 'Session resumed elsewhere.' });
    }
    // Attached while replaying: dispatches published meanwhile wait behind the missed ones.
    connection.startReplay();
    session.socket = connection;
    session.detachedAt = null;
    connection.session = session;
    let missed: readonly BufferedDispatch[] | null;
    try {
      missed = await this.buffer.since(session.id, resume.seq);
    } catch {
      // The buffer could not be read (a shared store away): the session is kept, and the client
      // is told it may try to resume again (INVALID_SESSION d: true).
      connection.cancelReplay();
      connection.session = null;
      session.socket = null;
      session.detachedAt = this.now();
      return connection.send({ op: Op.InvalidSession, d: true, s: null, t: null });
    }
    if (missed === null) {
      connection.cancelReplay();
      connection.session = null;
      session.socket = null;
      this.endSession(session);
      this.metrics.resumed('invalid');
      return this.invalidSession(connection);
    }
    // Closed meanwhile (by the client, or at its deadline): the session stays detached, resumable.
    if (session.socket !== connection) return;
    connection.finishReplay(missed);
    this.identified(connection);
    session.dispatch('RESUMED', { _trace: ['["slashd-gateway",{"micros":0}]'] });
    if (this.registry) this.track(this.registry.setAttached(session.id, true));
    this.metrics.resumed('resumed');
  }

  /** A session another node held (or no node, after a drain), now held here. */
  private takeOver(record: SessionRecord): Session {
    const session = new Session(
      { ...record, applicationId: this.sharedApplicationId(record.applicationId) },
      this.buffer,
    );
    session.seq = record.seq;
    session.detachedAt = this.now();
    this.addSession(session);
    this.bus.publish('GATEWAY_SESSION_MOVED', { sessionId: session.id, node: this.registry!.node });
    return session;
  }

  private invalidSession(connection: Connection): void {
    connection.send({ op: Op.InvalidSession, d: false, s: null, t: null });
  }

  async requestMembers(session: Session, request: MembersRequest): Promise<void> {
    const guild = await this.store.getGuild(request.guildId);
    if (!guild || !botInGuild(guild, session.applicationId)) return;
    let members = guildMembers(guild, await this.guildDirectory(guild));
    let notFound: string[] = [];
    if (request.userIds) {
      const wanted = new Set(request.userIds);
      members = members.filter((view) => wanted.has(view.member.user_id));
      const found = new Set(members.map((view) => view.member.user_id));
      notFound = request.userIds.filter((id) => !found.has(id));
    } else if (request.query !== null && request.query !== '') {
      const prefix = request.query.toLowerCase();
      members = members.filter((view) => {
        const name = (view.user?.username ?? view.bot?.name ?? '').toLowerCase();
        return name.startsWith(prefix) || (view.member.nick?.toLowerCase().startsWith(prefix) ?? false);
      });
    } else if ((session.intents & Intent.GuildMembers) === 0) {
      // The whole member list needs GUILD_MEMBERS (v10): without it the answer is empty.
      members = [];
    }
    if (request.limit > 0) members = members.slice(0, request.limit);
    const chunkCount = Math.max(1, Math.ceil(members.length / MEMBERS_PER_CHUNK));
    for (let index = 0; index < chunkCount; index++) {
      const chunk = members.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK);
      const d: Record<string, unknown> = {
        guild_id: guild.id,
        members: chunk.map((view) => toWireGuildMember(guild, view)),
        chunk_index: index,
        chunk_count: chunkCount,
      };
      if (index === 0 && notFound.length > 0) d.not_found = notFound;
      if (request.nonce !== null) d.nonce = request.nonce;
      session.dispatch('GUILD_MEMBERS_CHUNK', d);
    }
  }

  // ---- Dispatches from the bus ---------------------------------------------------------------

  /** The sessions of the app that get a guild's events (its shard's); DMs go to shard 0. */
  private sessionsFor(applicationId: string, guildId: string | null): Session[] {
    const own = this.sessionsByApp.get(applicationId);
    if (!own) return [];
    return [...own].filter((session) => shardOf(guildId, session.numShards) === session.shardId);
  }

  async sessionFor(applicationId: string, guildId: string | null): Promise<string | null> {
    let candidates: readonly { id: string; attached: boolean }[];
    try {
      candidates = this.registry
        ? (await this.registry.sessionsOf(applicationId)).filter(
            (record) => shardOf(guildId, record.numShards) === record.shardId,
          )
        : this.localCandidates(applicationId, guildId);
    } catch {
      // The registry is away: this node's own sessions still answer.
      candidates = this.localCandidates(applicationId, guildId);
    }
    return (candidates.find((candidate) => candidate.attached) ?? candidates[0])?.id ?? null;
  }

  private localCandidates(applicationId: string, guildId: string | null): { id: string; attached: boolean }[] {
    return this.sessionsFor(applicationId, guildId).map((session) => ({
      id: session.id,
      attached: session.socket !== null,
    }));
  }

  private onInteraction({ applicationId, data, sessionId }: BusEvents['INTERACTION_CREATE']): void {
    if (sessionId !== undefined) {
      // Chosen by the node that published it: delivered by the node holding that session.
      const chosen = this.sessions.get(sessionId);
      if (chosen?.applicationId === applicationId) chosen.dispatch('INTERACTION_CREATE', data);
      return;
    }
    const guildId = typeof data.guild_id === 'string' ? data.guild_id : null;
    const candidates = this.sessionsFor(applicationId, guildId);
    // One session answers an interaction: an attached one if there is one.
    const target = candidates.find((session) => session.socket !== null) ?? candidates[0];
    target?.dispatch('INTERACTION_CREATE', data);
  }

  private onPermissionsUpdate({ applicationId, data }: BusEvents['APPLICATION_COMMAND_PERMISSIONS_UPDATE']): void {
    for (const session of this.sessionsFor(applicationId, data.guild_id)) {
      session.dispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE', data);
    }
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch(() => undefined);
  }

  /** Resolves once the bus events published so far have been dispatched. */
  async settled(): Promise<void> {
    await this.queue;
  }

  private async onWorld(event: BusEvents['WORLD_DISPATCH']): Promise<void> {
    if (this.sessions.size === 0) return;
    // Who gets a world event depends on bots and channels, never on the members: none is read.
    const guild = event.guildId === null ? null : await this.store.getGuildWithMembers(event.guildId, []);
    const world: WorldEvent = event;
    // What a session gets depends only on its app and MESSAGE_CONTENT: one object (and so one JSON
    // text) per such view, however many sessions share it.
    const views = new Map<string, Record<string, unknown>>();
    for (const session of this.sessions.values()) {
      const d = worldDispatchFor(world, session, guild);
      if (d === null) continue;
      const view = `${session.applicationId}/${session.intents & Intent.MessageContent}`;
      const shared = views.get(view) ?? d;
      views.set(view, shared);
      session.dispatchAbout(event.guildId, event.t, shared);
    }
  }

  private async onApplicationGuild(event: BusEvents['APPLICATION_GUILD']): Promise<void> {
    const own = this.sessionsFor(event.applicationId, event.guildId).filter(
      (session) => (session.intents & Intent.Guilds) !== 0,
    );
    if (own.length === 0) return;
    if (!event.installed) {
      for (const session of own) session.dispatch('GUILD_DELETE', { id: event.guildId });
      return;
    }
    const [guild, app] = await Promise.all([
      this.store.getGuild(event.guildId),
      this.store.getApplication(event.applicationId),
    ]);
    if (!guild || !app || !botInGuild(guild, app.id)) return;
    for (const session of own) session.dispatch('GUILD_CREATE', await this.guildCreate(guild, app, session));
  }

  dispatchFault(connection: Connection, t: string): boolean {
    const session = connection.session;
    if (!this.faults || this.faults.isEmpty || !session) return false;
    const fault = this.faults.strike({ applicationId: session.applicationId, family: 'gateway', event: t });
    if (!fault) return false;
    injectGatewayFault(connection, fault);
    return true;
  }

  /**
   * Gateway faults without an event strike at once: each attached session of the app on this node
   * is a chance (a fault with `count: 1` strikes one). Returns how many were struck.
   */
  strikeNow(applicationId: string): number {
    if (!this.faults) return 0;
    let struck = 0;
    for (const session of this.sessionsByApp.get(applicationId) ?? []) {
      const socket = session.socket;
      if (!(socket instanceof Connection)) continue;
      const fault = this.faults.strike({ applicationId, family: 'gateway' });
      if (!fault) continue;
      injectGatewayFault(socket, fault);
      struck++;
    }
    return struck;
  }

  /**
   * The node drains: every client is told to reconnect (op 7) and its socket closed with a code
   * that lets it resume elsewhere.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    for (const connection of [...this.connections]) {
      connection.send({ op: Op.Reconnect, d: null, s: null, t: null });
      connection.close({ code: Close.UnknownError.code, reason: 'Reconnect.' }, true);
    }
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await Promise.all([...this.registryWrites]);
  }

  /** Past the drain's deadline: every socket still open is cut at once. */
  terminate(): void {
    for (const ws of this.wss.clients) ws.terminate();
  }
}

/** Sends what the fault plans (op 7 or op 9) and closes, the session kept resumable or ended. */
function injectGatewayFault(connection: Connection, fault: Fault): void {
  const plan = planGatewayFault(fault);
  if (plan.payload) connection.send(plan.payload);
  connection.close(plan.close, plan.resumable);
}
