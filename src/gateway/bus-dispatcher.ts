/**
 * Bus events turned into dispatches to the sessions this node holds: INTERACTION_CREATE to one
 * session of the app, permission updates, world events and installs filtered per session. Also
 * which session gets an app's interactions (`GatewayPresence`), on any node.
 */
import { Close, Op } from '../core/gateway/protocol.js';
import { Intent } from '../core/gateway/intents.js';
import { shardOf } from '../core/gateway/shards.js';
import { worldDispatchFor, type WorldEvent } from '../core/gateway/world-filter.js';
import { botInGuild } from '../core/world/guild-members.js';
import {
  DISPATCH_GAP_CLOCK_MARGIN_MS,
  comparePositions,
  type BusEventName,
  type BusEvents,
  type DispatchGapReason,
  type DispatchLog,
  type EventBus,
} from '../events/bus.js';
import { Connection } from './connection.js';
import type { GatewayMembers, GatewayWorld } from './gateway-options.js';
import type { GuildCreateCache } from './guild-create-cache.js';
import type { Session } from './session.js';
import type { SessionTable } from './session-table.js';

/** A session that may get an interaction: on this node, or any node's from the registry. */
interface Candidate {
  id: string;
  attached: boolean;
  nodeAlive: boolean;
  since: number;
}

function asCandidate(session: Session): Candidate {
  return { id: session.id, attached: session.socket !== null, nodeAlive: true, since: session.startedAt };
}

/**
 * The sessions a bus event is for: this node's (live), or one session being caught up from the
 * dispatch log after a RESUME took it over.
 */
interface Targets {
  forGuild(applicationId: string, guildId: string | null): Session[];
  all(): Iterable<Session>;
}

/** What the dispatcher tells of sessions it invalidated and dispatches it replayed (metrics). */
export interface DispatcherObserver {
  /** Every session of this node was invalidated: the bus may have missed dispatch events. */
  invalidate(reason: DispatchGapReason): void;
}

/** The most recently started; the first of equals. */
function newest<T extends Candidate>(candidates: readonly T[]): T | null {
  let found: T | null = null;
  for (const candidate of candidates) if (found === null || candidate.since > found.since) found = candidate;
  return found;
}

export class BusDispatcher {
  /**
   * Bus events are dispatched one after another, in the order published: a world event waits for
   * its guild to be read, and what was published after it waits behind it.
   */
  private queue: Promise<void> = Promise.resolve();
  /** The dispatch log (with Redis), and the position of the last logged event handled here. */
  private log: DispatchLog | null = null;
  private position: string | null = null;
  private bus: EventBus | null = null;

  constructor(
    private readonly store: GatewayWorld,
    private readonly members: GatewayMembers,
    private readonly sessions: SessionTable,
    private readonly guildCreates: GuildCreateCache,
    private readonly observer: DispatcherObserver | null = null,
  ) {}

  /** Subscribes to the bus; returns the unsubscribers. */
  subscribe(bus: EventBus): (() => void)[] {
    this.bus = bus;
    this.log = bus.log ?? null;
    this.position = this.log?.head() ?? null;
    const logged =
      <
        K extends
          'APPLICATION_COMMAND_PERMISSIONS_UPDATE' | 'APPLICATION_DISPATCH' | 'WORLD_DISPATCH' | 'APPLICATION_GUILD',
      >(
        name: K,
      ) =>
      (event: BusEvents[K], position?: string) =>
        this.enqueue(async () => {
          await this.handle(name, event, this.live(position));
          if (position !== undefined) this.position = position;
        });
    return [
      bus.subscribe('INTERACTION_CREATE', (event) => this.enqueue(async () => this.onInteraction(event))),
      bus.subscribe('APPLICATION_COMMAND_PERMISSIONS_UPDATE', logged('APPLICATION_COMMAND_PERMISSIONS_UPDATE')),
      bus.subscribe('APPLICATION_DISPATCH', logged('APPLICATION_DISPATCH')),
      bus.subscribe('WORLD_DISPATCH', logged('WORLD_DISPATCH')),
      bus.subscribe('APPLICATION_GUILD', logged('APPLICATION_GUILD')),
      bus.subscribe('GATEWAY_SESSION_MOVED', (event) => this.onSessionMoved(event)),
      bus.subscribe('DISPATCH_GAP', (event, position) =>
        this.enqueue(async () => {
          this.invalidateAll(event.reason, event.lostAt);
          if (position !== undefined) this.position = position;
        }),
      ),
    ];
  }

  /** Resolves once the bus events published so far have been dispatched. */
  async settled(): Promise<void> {
    await this.bus?.idle?.();
    await this.queue;
  }

  /**
   * Every session here (not being caught up) has had each logged event handled so far: its position
   * moves on to this node's, so that the registry's refresh keeps it recent even for a session no
   * event was for, and a node taking it over reads little of the log.
   */
  advanceSessions(): void {
    const position = this.position;
    if (position === null) return;
    for (const session of this.sessions.all()) {
      if (session.catchingUp) continue;
      if (session.logPos === null || comparePositions(position, session.logPos) > 0) session.logPos = position;
    }
  }

  /** The dispatch log's position handled so far here: a session starting now starts there. */
  logPosition(): string | null {
    return this.position;
  }

  /** One logged event, to `targets`. */
  private async handle(name: BusEventName, event: unknown, targets: Targets): Promise<void> {
    switch (name) {
      case 'APPLICATION_COMMAND_PERMISSIONS_UPDATE':
        return this.onPermissionsUpdate(event as BusEvents[typeof name], targets);
      case 'APPLICATION_DISPATCH':
        return this.onApplicationDispatch(event as BusEvents[typeof name], targets);
      case 'WORLD_DISPATCH':
        return this.onWorld(event as BusEvents[typeof name], targets);
      case 'APPLICATION_GUILD':
        return this.onApplicationGuild(event as BusEvents[typeof name], targets);
      default:
        // Not a logged event (interactions, session moves and gaps have their own handling).
        return;
    }
  }

  /**
   * This node's sessions, less those being caught up from the log (the catch-up covers this event)
   * and those that had it already (their previous node handled it before they moved here).
   */
  private live(position: string | undefined): Targets {
    const accepts = (session: Session): boolean => {
      if (position === undefined) return true;
      if (session.catchingUp) return false;
      if (session.logPos !== null && comparePositions(position, session.logPos) <= 0) return false;
      session.logPos = position;
      return true;
    };
    return {
      forGuild: (applicationId, guildId) => this.sessions.forGuild(applicationId, guildId).filter(accepts),
      all: () => [...this.sessions.all()].filter(accepts),
    };
  }

  /** One session only, at each event's position: a catch-up from the log. */
  private only(session: Session, position: () => string): Targets {
    const at = (): Session[] => {
      session.logPos = position();
      return [session];
    };
    return {
      forGuild: (applicationId, guildId) =>
        applicationId === session.applicationId && shardOf(guildId, session.numShards) === session.shardId ? at() : [],
      all: at,
    };
  }

  /**
   * A session taken over by a RESUME here: the logged events after `after` (where its previous node
   * was) up to what this node has handled, dispatched to it in order, as its node would have. The
   * number of dispatches so sent; null when the log cannot say (trimmed, lost, a gap in it, or
   * unreachable): the session must start again.
   */
  catchUp(session: Session, after: string | null): Promise<number | null> {
    session.catchingUp = true;
    return new Promise((resolve) => {
      this.enqueue(async () => {
        try {
          const through = this.position;
          if (!this.log || after === null || through === null) return resolve(null);
          const before = session.seq;
          if (comparePositions(after, through) < 0) {
            const events = await this.log.read(after, through);
            if (!events) return resolve(null);
            for (const logged of events) {
              await this.handle(
                logged.name,
                logged.event,
                this.only(session, () => logged.position),
              );
            }
          }
          session.logPos = comparePositions(after, through) < 0 ? through : after;
          resolve(session.seq - before);
        } catch {
          resolve(null);
        } finally {
          session.catchingUp = false;
        }
      });
    });
  }

  /**
   * The bus may have missed dispatch events: every session here that may have missed one is told
   * INVALID_SESSION (not resumable) and ended, so its library identifies again and refetches the
   * state. One that started after `lostAt` (with the clocks' margin) read the world after the lost
   * events' changes, and what happened before it started is not dispatched to it anyway.
   */
  private invalidateAll(reason: DispatchGapReason, lostAt: number | undefined): void {
    const spared = (session: Session) =>
      typeof lostAt === 'number' &&
      Number.isFinite(lostAt) &&
      session.startedAt > lostAt + DISPATCH_GAP_CLOCK_MARGIN_MS;
    for (const session of [...this.sessions.all()]) {
      if (spared(session)) continue;
      const socket = session.socket;
      session.socket = null;
      if (socket instanceof Connection) {
        socket.session = null;
        socket.send({ op: Op.InvalidSession, d: false, s: null, t: null });
      }
      this.sessions.end(session);
      this.observer?.invalidate(reason);
    }
  }

  /**
   * The newest session of the app's shard attached to a live node; else the newest one whose node
   * is alive (detached: its buffer keeps the interaction for a RESUME); else the newest one at all
   * (its node died: the interaction waits, pending, for a RESUME or the app's next session).
   */
  async sessionFor(applicationId: string, guildId: string | null): Promise<string | null> {
    const registry = this.sessions.registry;
    let candidates: readonly Candidate[];
    try {
      candidates = registry
        ? (await registry.sessionsOf(applicationId)).filter(
            (record) => shardOf(guildId, record.numShards) === record.shardId,
          )
        : this.localCandidates(applicationId, guildId);
    } catch {
      // The registry is away: this node's own sessions still answer.
      candidates = this.localCandidates(applicationId, guildId);
    }
    const chosen =
      newest(candidates.filter((c) => c.attached && c.nodeAlive)) ??
      newest(candidates.filter((c) => c.nodeAlive)) ??
      newest(candidates);
    return chosen?.id ?? null;
  }

  private localCandidates(applicationId: string, guildId: string | null): Candidate[] {
    return this.sessions.forGuild(applicationId, guildId).map((session) => ({
      id: session.id,
      attached: session.socket !== null,
      nodeAlive: true,
      since: session.startedAt,
    }));
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch(() => undefined);
  }

  private onInteraction({ applicationId, data, sessionId, copy }: BusEvents['INTERACTION_CREATE']): void {
    const again = copy !== undefined;
    if (sessionId !== undefined) {
      // Chosen by the node that published it: delivered by the node holding that session.
      const chosen = this.sessions.get(sessionId);
      if (chosen?.applicationId === applicationId) chosen.dispatchInteraction(data, again);
      return;
    }
    const guildId = typeof data.guild_id === 'string' ? data.guild_id : null;
    const candidates = this.sessions.forGuild(applicationId, guildId);
    // One session answers an interaction: the newest attached one if there is one.
    const attached = candidates.filter((session) => session.socket !== null);
    const target = newest((attached.length > 0 ? attached : candidates).map(asCandidate));
    if (target) this.sessions.get(target.id)?.dispatchInteraction(data, again);
  }

  private async onPermissionsUpdate(
    { applicationId, data }: BusEvents['APPLICATION_COMMAND_PERMISSIONS_UPDATE'],
    targets: Targets,
  ): Promise<void> {
    for (const session of targets.forGuild(applicationId, data.guild_id)) {
      session.dispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE', data);
    }
  }

  private async onApplicationDispatch(
    { applicationId, guildId, t, d }: BusEvents['APPLICATION_DISPATCH'],
    targets: Targets,
  ): Promise<void> {
    for (const session of targets.forGuild(applicationId, guildId)) session.dispatch(t, d);
  }

  private async onWorld(event: BusEvents['WORLD_DISPATCH'], targets: Targets): Promise<void> {
    if (this.sessions.size === 0) return;
    // Who gets a world event depends on bots and channels, never on the members: none is read.
    const guild = event.guildId === null ? null : await this.members.getGuildWithMembers(event.guildId, []);
    const world: WorldEvent = event;
    // What a session gets depends only on its app and MESSAGE_CONTENT: one object (and so one JSON
    // text) per such view, however many sessions share it.
    const views = new Map<string, Record<string, unknown>>();
    for (const session of targets.all()) {
      const d = worldDispatchFor(world, session, guild);
      if (d === null) continue;
      const view = `${session.applicationId}/${session.intents & Intent.MessageContent}`;
      const shared = views.get(view) ?? d;
      views.set(view, shared);
      session.dispatchAbout(event.guildId, event.t, shared);
    }
  }

  private async onApplicationGuild(event: BusEvents['APPLICATION_GUILD'], targets: Targets): Promise<void> {
    const own = targets
      .forGuild(event.applicationId, event.guildId)
      .filter((session) => (session.intents & Intent.Guilds) !== 0);
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
    for (const session of own) session.dispatch('GUILD_CREATE', await this.guildCreates.payload(guild, app, session));
  }

  /** Another node resumed a session this node held: its socket here (if any) is closed, and it is let go. */
  private onSessionMoved({ sessionId, node }: BusEvents['GATEWAY_SESSION_MOVED']): void {
    const registry = this.sessions.registry;
    if (!registry || node === registry.node) return;
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.forget(session);
    const socket = session.socket;
    session.socket = null;
    if (socket instanceof Connection) {
      socket.session = null;
      socket.close({ code: Close.UnknownError.code, reason: 'Session resumed elsewhere.' });
    }
  }
}
