/**
 * How a connection gets its session: IDENTIFY (a new session, READY and the shard's GUILD_CREATEs)
 * or RESUME (the session on this node, or claimed from the registry, and what it missed), each
 * after the bot's token was checked under the failed-credential throttle.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Identify, Resume } from '../core/gateway/commands.js';
import { Intent, privilegedIntentsAllowed } from '../core/gateway/intents.js';
import { Close, Op } from '../core/gateway/protocol.js';
import { shardingRequired, shardOf } from '../core/gateway/shards.js';
import type { Guild } from '../core/world/types.js';
import { toWireBotUser } from '../core/world/wire.js';
import type { EventBus } from '../events/bus.js';
import type { ClientAddress } from '../http/client-address.js';
import type { GatewayMetrics } from '../metrics/metrics.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import type { StoredApplication } from '../store/store.js';
import { Connection, GatewayClose } from './connection.js';
import type { DispatchObserver, GatewayOptions, GatewayWorld } from './gateway-options.js';
import type { GuildCreateCache } from './guild-create-cache.js';
import type { InteractionRescue } from './interaction-rescue.js';
import { withoutSettledInteractions, type InteractionStates } from './replay-filter.js';
import type { BufferedDispatch, ResumeBuffer } from './resume-buffer.js';
import { Session } from './session.js';
import type { SessionRecord } from './session-registry.js';
import type { SessionStartCounter } from './session-starts.js';
import type { SessionTable } from './session-table.js';
import type { UpgradeAdmission } from './upgrade-admission.js';

/** The HTTP API's failed-credential throttle, and how a socket's client address is found. */
interface GatewayCredentials {
  throttle: CredentialThrottle;
  addressOf: ClientAddress;
}

export interface HandshakeDeps {
  store: GatewayWorld;
  options: GatewayOptions;
  starts: SessionStartCounter;
  buffer: ResumeBuffer;
  metrics: GatewayMetrics;
  bus: EventBus;
  sessions: SessionTable;
  admission: UpgradeAdmission;
  guildCreates: GuildCreateCache;
  /** Re-sends interactions stranded on dead sessions (with a registry). */
  rescue: InteractionRescue | null;
  /** Where a RESUME learns which missed interactions still wait for an answer; none: all replayed. */
  interactionStates: InteractionStates | null;
  now: () => number;
  observeDispatch: DispatchObserver | null;
  /**
   * With a dispatch log: what a session taken over missed after its previous node stopped
   * handling it (`BusDispatcher.catchUp`), and the position a new session starts at.
   */
  catchUp: ((session: Session, after: string | null) => Promise<number | null>) | null;
  logPosition: () => string | null;
}

const TRACE = ['["slashd-gateway",{"micros":0}]'];

export class Handshake {
  private credentials: GatewayCredentials | null = null;
  /** Each connection's client address, for the failed-credential throttle. */
  private readonly addresses = new WeakMap<Connection, string>();

  constructor(private readonly deps: HandshakeDeps) {}

  /** Throttles wrong bot tokens at IDENTIFY and RESUME per address (close 4008). */
  throttleCredentials(throttle: CredentialThrottle, addressOf: ClientAddress): void {
    this.credentials = { throttle, addressOf };
  }

  /** Notes the client address of a new connection, when credentials are throttled. */
  opened(connection: Connection, request: IncomingMessage): void {
    if (this.credentials) this.addresses.set(connection, this.credentials.addressOf(request));
  }

  /** The bot of a token, under the failed-credential throttle: a throttled address is closed with 4008. */
  private async botOfToken(connection: Connection, token: string): Promise<StoredApplication | null> {
    const { store } = this.deps;
    if (!this.credentials) return store.findApplicationByBotToken(token);
    const address = this.addresses.get(connection) ?? '';
    const { throttle } = this.credentials;
    if (throttle.before(address)) throw new GatewayClose(Close.RateLimited);
    const app = await store.findApplicationByBotToken(token);
    if (await throttle.after(address, app !== null)) throw new GatewayClose(Close.RateLimited);
    return app;
  }

  /** Whether one more connection may get a session (`maxSessions`); refused ones close with 4000. */
  private assertSessionSlot(): void {
    if (this.deps.admission.identifiedCount >= this.deps.options.maxSessions) {
      throw new GatewayClose(Close.UnknownError);
    }
  }

  async identify(connection: Connection, identify: Identify): Promise<void> {
    const { store, options, starts, sessions, admission } = this.deps;
    const registry = sessions.registry;
    const app = await this.botOfToken(connection, identify.token);
    if (!app) throw new GatewayClose(Close.AuthenticationFailed);
    if (!privilegedIntentsAllowed(identify.intents, app.flags)) throw new GatewayClose(Close.DisallowedIntents);
    const [shardId, numShards] = identify.shard;
    // Its start is when it reads the world: a dispatch gap spares a session started after the loss.
    const startedAt = this.deps.now();
    const botGuilds = await store.guildsOfApplication(app.id);
    const guildIds = botGuilds.map((guild) => guild.id);
    if (shardingRequired(guildIds, numShards, shardId, options.maxGuildsPerShard)) {
      throw new GatewayClose(Close.ShardingRequired);
    }
    if (!connection.isOpen) return;
    this.assertSessionSlot();
    // Past the day's session starts a bot is refused as rate limited (v10 would reset its token).
    if (!(await starts.take(app.id))) throw new GatewayClose(Close.RateLimited);
    if (!connection.isOpen) return;
    const session = new Session(
      {
        id: randomBytes(16).toString('hex'),
        applicationId: sessions.sharedApplicationId(app.id),
        intents: identify.intents,
        shardId,
        numShards,
        largeThreshold: identify.largeThreshold,
      },
      this.deps.buffer,
      startedAt,
      this.deps.observeDispatch,
    );
    // Bus events after this position are dispatched to it here; a node taking it over reads on from there.
    session.logPos = this.deps.logPosition();
    if (registry) {
      await registry.register(session);
      if (!connection.isOpen) return sessions.track(registry.end(session.id, session.applicationId));
    }
    // Checked again after the awaits: other connections may have taken the last slots meanwhile.
    if (admission.identifiedCount >= options.maxSessions) {
      if (registry) sessions.track(registry.end(session.id, session.applicationId));
      throw new GatewayClose(Close.UnknownError);
    }
    const shardGuilds = botGuilds.filter((guild) => shardOf(guild.id, numShards) === shardId);
    const sendsGuilds = (session.intents & Intent.Guilds) !== 0;
    if (sendsGuilds) session.holdGuilds(shardGuilds.map((guild) => guild.id));
    sessions.add(session);
    connection.session = session;
    session.socket = connection;
    admission.identified(connection);
    this.deps.metrics.identified();
    this.sendReady(connection, session, app, shardGuilds);
    if (sendsGuilds) await this.sendGuilds(session, app, shardGuilds);
    await this.rescueFor(session, 'identified');
  }

  /** Interactions stranded on dead sessions come to this one; the registry away only delays them (the watch). */
  private async rescueFor(session: Session, how: 'identified' | 'resumed'): Promise<void> {
    try {
      await this.deps.rescue?.[how](session);
    } catch {
      // Redis or the store is away: every node's watch tries again.
    }
  }

  private sendReady(connection: Connection, session: Session, app: StoredApplication, shardGuilds: Guild[]): void {
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
      shard: [session.shardId, session.numShards],
      application: { id: app.id, flags: app.flags },
      auth: {},
      _trace: TRACE,
    });
  }

  /** The shard's GUILD_CREATEs after READY, each releasing what was held about its guild. */
  private async sendGuilds(session: Session, app: StoredApplication, shardGuilds: Guild[]): Promise<void> {
    try {
      for (const guild of shardGuilds) {
        session.dispatch('GUILD_CREATE', await this.deps.guildCreates.payload(guild, app, session));
        session.release(guild.id);
      }
    } finally {
      // A GUILD_CREATE that could not be built holds nothing back for ever.
      session.release();
    }
  }

  async resume(connection: Connection, resume: Resume): Promise<void> {
    const { sessions, metrics, buffer, admission } = this.deps;
    const registry = sessions.registry;
    const app = await this.botOfToken(connection, resume.token);
    if (!app) throw new GatewayClose(Close.AuthenticationFailed);
    let session = sessions.get(resume.sessionId);
    /** Taken over from another node: what it missed since that node stopped handling it, and from where. */
    let caughtUp: Promise<number | null> | null = null;
    let takenAtSeq = 0;
    if (!session && registry) {
      let claimed: SessionRecord | null;
      try {
        claimed = await registry.claim(resume.sessionId, app.id);
      } catch {
        // The registry is away: the client may try again (INVALID_SESSION d: true).
        return connection.send({ op: Op.InvalidSession, d: true, s: null, t: null });
      }
      if (claimed) {
        session = this.takeOver(claimed);
        takenAtSeq = claimed.seq;
        if (this.deps.catchUp) caughtUp = this.deps.catchUp(session, claimed.pos);
      }
    }
    if (!session || session.applicationId !== app.id) {
      metrics.resumed('invalid');
      return invalidSession(connection);
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
      missed = await buffer.since(session.id, resume.seq);
    } catch {
      // The buffer could not be read (a shared store away): the session is kept, and the client
      // is told it may try to resume again (INVALID_SESSION d: true).
      connection.cancelReplay();
      connection.session = null;
      session.socket = null;
      session.detachedAt = this.deps.now();
      return connection.send({ op: Op.InvalidSession, d: true, s: null, t: null });
    }
    // Dispatches its previous node never handled for it, caught up from the log: null if it cannot say.
    const caught = caughtUp ? await caughtUp : 0;
    if (missed === null || caught === null) {
      connection.cancelReplay();
      connection.session = null;
      session.socket = null;
      sessions.end(session);
      metrics.resumed('invalid');
      metrics.sessionInvalidated(missed === null ? 'buffer_gap' : 'log_gap');
      return invalidSession(connection);
    }
    // Closed meanwhile (by the client, or at its deadline): the session stays detached, resumable.
    if (session.socket !== connection) return;
    const replayed = await withoutSettledInteractions(missed, this.deps.interactionStates);
    if (session.socket !== connection) return;
    connection.finishReplay(replayed);
    metrics.dispatchesReplayed(
      (caughtUp ? replayed.filter((dispatch) => dispatch.s <= takenAtSeq).length : replayed.length) + caught,
    );
    admission.identified(connection);
    session.dispatch('RESUMED', { _trace: TRACE });
    if (registry) sessions.track(registry.setAttached(session.id, true));
    metrics.resumed('resumed');
    await this.rescueFor(session, 'resumed');
  }

  /** A session another node held (or no node, after a drain), now held here. */
  private takeOver(record: SessionRecord): Session {
    const { sessions } = this.deps;
    const session = new Session(
      { ...record, applicationId: sessions.sharedApplicationId(record.applicationId) },
      this.deps.buffer,
      record.since,
      this.deps.observeDispatch,
    );
    session.seq = record.seq;
    session.detachedAt = this.deps.now();
    sessions.add(session);
    this.deps.bus.publish('GATEWAY_SESSION_MOVED', { sessionId: session.id, node: sessions.registry!.node });
    return session;
  }
}

function invalidSession(connection: Connection): void {
  connection.send({ op: Op.InvalidSession, d: false, s: null, t: null });
}
