/**
 * The internal event bus. The gateway subscribes and delivers dispatches to connected bots; tests
 * subscribe to observe them. In-process on one node; across nodes, RedisEventBus
 * (`redis-bus.ts`) carries the same events, so every event must survive JSON.
 */
import { EventEmitter } from 'node:events';
import type { GuildCommandPermissions } from '../core/permissions/command-permissions.js';
import type { WorldDispatch } from '../core/world/dispatch.js';

export interface BusEvents {
  /** Gateway dispatch APPLICATION_COMMAND_PERMISSIONS_UPDATE, for one application. */
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: { applicationId: string; data: GuildCommandPermissions };
  /**
   * Gateway dispatch INTERACTION_CREATE, for apps without an interactions endpoint URL; to the
   * session named when one was chosen (on whichever node holds it), else to one the gateway picks.
   */
  INTERACTION_CREATE: {
    applicationId: string;
    data: Record<string, unknown>;
    sessionId?: string | undefined;
    /** A copy past the first (an injected `duplicate` fault): sent even though the session had it. */
    copy?: number | undefined;
  };
  /**
   * A dispatch about the world (a guild, or a DM channel), for the gateway to filter per session:
   * its v10 name `t` is one of `WorldDispatchName`, its `d` the payload exactly as sent, full (the
   * gateway strips message content per intents).
   */
  WORLD_DISPATCH: WorldDispatch;
  /**
   * A dispatch about one application rather than the world (ENTITLEMENT_CREATE...): to its
   * sessions of the shard of `guildId` (shard 0 when null), as v10 sends them, with no intent.
   */
  APPLICATION_DISPATCH: { applicationId: string; guildId: string | null; t: string; d: unknown };
  /** An app was installed in (GUILD_CREATE to its sessions) or removed from (GUILD_DELETE) a guild,
   *  or the guild itself was created/deleted in the world. */
  APPLICATION_GUILD: { applicationId: string; guildId: string; installed: boolean };
  /** A gateway session was resumed on the node named: any other node holding it lets it go. */
  GATEWAY_SESSION_MOVED: { sessionId: string; node: string };
  /**
   * Some dispatch events may be missing (the bus could not carry them: Redis refused a publish,
   * lost its log, or this node missed part of it): every session that may have missed one is
   * invalidated, so its library identifies again and refetches. `lostAt` (epoch ms, when the
   * first refused event was published; absent when unknown, as for a lost log): a session that
   * read the world later than that, by more than DISPATCH_GAP_CLOCK_MARGIN_MS, missed nothing.
   */
  DISPATCH_GAP: { reason: DispatchGapReason; lostAt?: number };
}

/**
 * How far apart the clocks of a deployment's nodes may be (ms): a session is spared by a gap only
 * when it read the world more than this after the first lost event was published (by another
 * node's clock, perhaps). NTP keeps machines within a few ms; this is two orders above.
 */
export const DISPATCH_GAP_CLOCK_MARGIN_MS = 250;

/** Why dispatches may be missing: a publish Redis refused, or a log this node could not read on. */
export type DispatchGapReason = 'publish_failed' | 'log_lost';

/**
 * The events that become dispatches to sessions chosen by the gateway: with Redis they go through
 * the dispatch log (`redis-bus.ts`), numbered by their position in it, so that a session resumed
 * on another node gets those its node never dispatched to it.
 */
export const LOGGED_EVENTS: ReadonlySet<BusEventName> = new Set<BusEventName>([
  'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
  'WORLD_DISPATCH',
  'APPLICATION_DISPATCH',
  'APPLICATION_GUILD',
]);

/** One logged event, at its position in the dispatch log. */
export interface LoggedEvent {
  position: string;
  name: BusEventName;
  event: unknown;
}

/** The dispatch log of a deployment (Redis's), read by a node taking a session over. */
export interface DispatchLog {
  /**
   * The logged events after `after` up to `through` (both positions), oldest first; null when
   * some of them are no longer known (the log was trimmed past `after`, or lost with Redis) or
   * a gap was marked among them.
   */
  read(after: string, through: string): Promise<LoggedEvent[] | null>;
  /** The position of the last logged event delivered to this node's subscribers. */
  head(): string;
}

/** Orders two log positions (`<ms>-<n>`, Redis stream ids): negative, zero or positive. */
export function comparePositions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('-').map(Number);
  const [bm = 0, bn = 0] = b.split('-').map(Number);
  return am === bm ? an - bn : am - bm;
}

export type BusEventName = keyof BusEvents;

const EVENT_NAMES: Record<BusEventName, true> = {
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: true,
  INTERACTION_CREATE: true,
  WORLD_DISPATCH: true,
  APPLICATION_DISPATCH: true,
  APPLICATION_GUILD: true,
  GATEWAY_SESSION_MOVED: true,
  DISPATCH_GAP: true,
};

/** Whether a name received from elsewhere (another node) is one of the bus's events. */
export function isBusEventName(name: unknown): name is BusEventName {
  return typeof name === 'string' && Object.hasOwn(EVENT_NAMES, name);
}

/** A subscriber: `position` is the event's place in the dispatch log, when it went through one. */
export type BusListener<K extends BusEventName> = (event: BusEvents[K], position?: string) => void;

export interface EventBus {
  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void;
  subscribe<K extends BusEventName>(name: K, listener: BusListener<K>): () => void;
  /** Resolves once the events this node published so far were delivered to its own subscribers. */
  idle?(): Promise<void>;
  /** The log logged events go through (with Redis); none: delivered at once, in process. */
  readonly log?: DispatchLog | undefined;
}

type HeldEvent = [name: BusEventName, event: BusEvents[BusEventName], position: string | undefined];

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();
  /** Published while the writes they tell of were not committed yet, in order. */
  private readonly held: HeldEvent[] = [];

  /**
   * `durable`: the store's pending commit, if any. An event published while one is pending waits
   * for it, so that no bot hears of a write a crash could still undo; if the commit fails the
   * events held for it are dropped with its writes.
   */
  constructor(private readonly durable: () => Promise<void> | undefined = () => undefined) {
    // Every gateway session is a listener; the default cap of 10 would only warn.
    this.emitter.setMaxListeners(0);
  }

  publish<K extends BusEventName>(name: K, event: BusEvents[K], position?: string): void {
    if (this.held.length === 0) {
      const pending = this.durable();
      if (pending === undefined) {
        this.emitter.emit(name, event, position);
        return;
      }
      this.releaseAfter(pending);
    }
    this.held.push([name, event, position]);
  }

  private releaseAfter(pending: Promise<void>): void {
    pending.then(
      () => this.release(),
      () => {
        this.held.length = 0;
      },
    );
  }

  private release(): void {
    while (this.held.length > 0) {
      const pending = this.durable();
      if (pending !== undefined) return this.releaseAfter(pending);
      const [name, event, position] = this.held.shift()!;
      try {
        this.emitter.emit(name, event, position);
      } catch (error) {
        // As it would have to its publisher: a listener's failure is not this loop's.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }

  /** Resolves once every event published so far reached the subscribers. */
  async idle(): Promise<void> {
    while (this.held.length > 0)
      await (this.durable() ?? new Promise((resolve) => setImmediate(resolve))).catch(() => undefined);
  }

  subscribe<K extends BusEventName>(name: K, listener: BusListener<K>): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
