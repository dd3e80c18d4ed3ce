/**
 * The event bus across nodes: every event is published on one Redis channel of the deployment and
 * received by every node. The publishing node's own subscribers get the event at once, in process,
 * and skip its echo from Redis, so each subscriber sees each event exactly once.
 *
 * Each envelope carries its publishing time: a receiving node reports the lag (`/metrics`), and
 * drops an event that only means something within a deadline once it is past it (an
 * INTERACTION_CREATE held up by a stalled Redis would reach the bot after the interaction failed).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { INITIAL_RESPONSE_DEADLINE_MS } from '../resources/interactions/rules/lifecycle.js';
import { jsonValueOrUndefined } from '../core/io/json-text.js';
import {
  InProcessEventBus,
  LOGGED_EVENTS,
  comparePositions,
  isBusEventName,
  type BusEventName,
  type BusEvents,
  type BusListener,
  type DispatchLog,
  type EventBus,
  type LoggedEvent,
} from './bus.js';

/**
 * How many events the dispatch log keeps (about: Redis trims whole nodes of its stream): a session
 * resumed on another node after more events than this were published gets INVALID_SESSION.
 */
export const DISPATCH_LOG_ENTRIES = 10_000;

/** The log's first entry, written when the stream does not exist (a new deployment, or Redis lost it). */
const ENSURE_LOG = `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('XADD', KEYS[1], '*', 'n', 'START') end`;

/** KEYS: log. The newest position in the log (made if missing). */
const OPEN_LOG = `${ENSURE_LOG}
return redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1][1]`;

/**
 * KEYS: log. ARGV: channel, envelope, capacity. The event is appended to the log and published
 * with its position (the envelope's `p`, which a node of an earlier version ignores) in one step,
 * so the channel's order is the log's.
 */
const PUBLISH_LOGGED = `${ENSURE_LOG}
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'e', ARGV[2])
redis.call('PUBLISH', ARGV[1], '{"p":"' .. id .. '",' .. string.sub(ARGV[2], 2))
return id`;

/**
 * KEYS: log. ARGV: after, through, count. Returns the newest position, whether `after` is still
 * in the log (entries are trimmed oldest first: if it is, none after it is missing), the entries
 * after it up to `through`, and the oldest entry's position when it is the log's START (a log
 * made again: Redis lost the one `after` was in).
 */
const READ_LOG = `${ENSURE_LOG}
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
local lastId = last and last[1] or '0-0'
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local start = ''
  if first and first[2][1] == 'n' and first[2][2] == 'START' then start = first[1] end
  return {lastId, 0, {}, start}
end
return {lastId, 1, redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], ARGV[2], 'COUNT', ARGV[3]), ''}`;

type LogEntry = [string, string[]];

/** How long after a refused logged event its gap is marked at the latest, Redis answering (ms). */
export const GAP_RETRY_MS = 1_000;

/** A log position as Redis writes it. */
const POSITION = /^\d{1,20}-\d{1,20}$/;

/**
 * Events dropped when they arrive later than this after their publishing (ms): an interaction
 * past its initial response deadline has failed already. Other events are always delivered (a
 * bot's view of the world must not miss a change).
 */
export const STALE_AFTER_MS: Partial<Record<BusEventName, number>> = {
  INTERACTION_CREATE: INITIAL_RESPONSE_DEADLINE_MS,
};

/**
 * One event on the wire: the publishing node (`o`), the event's name (`n`), the event (`e`) and
 * when it was published (`t`, ms since the epoch; absent from an older node's envelopes).
 */
interface Envelope {
  o: string;
  n: BusEventName;
  e: unknown;
  t?: number;
  /** Its position in the dispatch log (a logged event, as published by the log's script). */
  p?: string;
}

function readEnvelope(text: string): Envelope | null {
  const value = jsonValueOrUndefined(text);
  if (typeof value !== 'object' || value === null) return null;
  const { o, n, e, t, p } = value as Record<string, unknown>;
  if (typeof o !== 'string' || !isBusEventName(n) || typeof e !== 'object' || e === null) return null;
  const envelope: Envelope = typeof t === 'number' && Number.isFinite(t) ? { o, n, e, t } : { o, n, e };
  if (typeof p === 'string' && POSITION.test(p)) envelope.p = p;
  return envelope;
}

/** Told of each event received from another node: how late it came, and whether it was dropped as stale. */
export interface BusLagObserver {
  busReceived(lagSeconds: number, dropped: boolean): void;
}

export interface RedisBusConnections {
  /** Publishes; may be shared with other commands. */
  publisher: Redis;
  /** In subscriber mode; may be shared by several buses on other channels. */
  subscriber: Redis;
  /** The deployment's bus channel (with its prefix). */
  channel: string;
  /** The clock stamped on envelopes and read on receipt (default Date.now). */
  now?: (() => number) | undefined;
  /** Told of each event received from another node (metrics). */
  lag: BusLagObserver;
  /** The dispatch log's key: the logged events go through it (`LOGGED_EVENTS`); default `<channel>:log`. */
  log?: string | undefined;
  /** How many events the log keeps (default DISPATCH_LOG_ENTRIES). */
  logEntries?: number | undefined;
}

export class RedisEventBus implements EventBus, DispatchLog {
  private readonly local = new InProcessEventBus();
  /** The position of the last logged event delivered here. */
  private position: string;
  /** Logged events published here and not yet delivered back (their echo is their delivery). */
  private outstanding = 0;
  private idleWaiters: (() => void)[] = [];
  /** While the events missed across a reconnection are read from the log, live ones wait here. */
  private held: string[] | null = null;
  /**
   * When the earliest logged event Redis refused since the last gap marked was published (epoch
   * ms; null: none refused). The gap is marked in the log as soon as Redis answers again (at the
   * next event it takes, when the link is up again, or at the next retry), naming that time.
   */
  private lostSince: number | null = null;
  private gapRetry: NodeJS.Timeout | null = null;
  private readonly logEntries: number;
  private closed = false;
  /** Logged events Redis did not take: no node dispatched them (each also marks a gap). */
  droppedEvents = 0;
  readonly log: DispatchLog = this;
  /** This bus's id in the envelopes it publishes: its own echo is recognised and skipped. */
  private readonly origin = randomBytes(9).toString('base64url');
  /** Events Redis did not take (unreachable): other nodes missed them; this node's subscribers did not. */
  failedPublishes = 0;
  private readonly now: () => number;
  private readonly onMessage = (channel: string, text: string) => {
    if (channel === this.connections.channel) this.receive(text);
  };
  /**
   * After a reconnection the channel is subscribed again; if that fails (Redis stalled again), the
   * connection is dropped and made again, and this runs once more.
   */
  private readonly onReady = () => {
    // Whatever was published while this connection was down is read from the log first.
    this.held ??= [];
    this.connections.subscriber
      .subscribe(this.connections.channel)
      .then(() => this.catchUp())
      .catch(() => {
        this.connections.subscriber.disconnect(true);
      });
  };

  private constructor(
    private readonly connections: RedisBusConnections & { log: string },
    position: string,
  ) {
    this.now = connections.now ?? Date.now;
    this.position = position;
    this.logEntries = connections.logEntries ?? DISPATCH_LOG_ENTRIES;
  }

  /** Subscribes to the channel; resolves once events from other nodes are being received. */
  static async open(connections: RedisBusConnections): Promise<RedisEventBus> {
    const log = connections.log ?? `${connections.channel}:log`;
    const position = (await connections.publisher.eval(OPEN_LOG, 1, log)) as string;
    const bus = new RedisEventBus({ ...connections, log }, position);
    connections.subscriber.on('message', bus.onMessage);
    await connections.subscriber.subscribe(connections.channel);
    connections.subscriber.on('ready', bus.onReady);
    return bus;
  }

  /** The position of the last logged event delivered to this node's subscribers. */
  head(): string {
    return this.position;
  }

  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void {
    const envelope: Envelope = { o: this.origin, n: name, e: event, t: this.now() };
    if (LOGGED_EVENTS.has(name) || name === 'DISPATCH_GAP') return this.publishLogged(envelope);
    this.local.publish(name, event);
    this.connections.publisher.publish(this.connections.channel, JSON.stringify(envelope)).catch(() => {
      this.failedPublishes++;
    });
  }

  /**
   * Into the log, and to every node's subscribers (this one's too) in the log's order, with its
   * position. One Redis refuses is dispatched by no node: a gap is marked once Redis answers again,
   * and every session invalidated.
   */
  private publishLogged(envelope: Envelope): void {
    const { publisher, channel, log } = this.connections;
    this.outstanding++;
    publisher.eval(PUBLISH_LOGGED, 1, log, channel, JSON.stringify(envelope), this.logEntries).then(
      () => {
        if (this.lostSince !== null) this.markGap();
      },
      () => {
        this.failedPublishes++;
        const lostAt =
          (envelope.n === 'DISPATCH_GAP' ? (envelope.e as BusEvents['DISPATCH_GAP']).lostAt : envelope.t) ?? this.now();
        if (envelope.n !== 'DISPATCH_GAP') this.droppedEvents++;
        this.lostSince = Math.min(this.lostSince ?? lostAt, lostAt);
        this.retryGapLater();
        this.delivered();
      },
    );
  }

  /**
   * Marks a gap in the log if a logged event was refused (run when Redis is back). Its `lostAt`
   * lets the nodes spare the sessions that started after it: they read the world with the change.
   */
  markGap(): void {
    const lostAt = this.lostSince;
    if (lostAt === null) return;
    this.lostSince = null;
    this.publishLogged({ o: this.origin, n: 'DISPATCH_GAP', e: { reason: 'publish_failed', lostAt }, t: this.now() });
  }

  /**
   * A refusal is not always followed soon by an event Redis takes, or by the link going down and
   * up (a command that timed out on a busy node): the gap is marked at the latest after
   * GAP_RETRY_MS, not whenever the next event comes, which could be long after sessions started.
   */
  private retryGapLater(): void {
    if (this.gapRetry !== null || this.closed) return;
    this.gapRetry = setTimeout(() => {
      this.gapRetry = null;
      // A connection that is down marks the gap when the link is up again (`markGap` on onUp):
      // retrying meanwhile would only count a refused marker a second.
      if (this.connections.publisher.status === 'ready') this.markGap();
    }, GAP_RETRY_MS);
    this.gapRetry.unref();
  }

  /** One of this node's logged events delivered (or refused). */
  private delivered(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
    if (this.outstanding > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  idle(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  subscribe<K extends BusEventName>(name: K, listener: BusListener<K>): () => void {
    return this.local.subscribe(name, listener);
  }

  async read(after: string, through: string): Promise<LoggedEvent[] | null> {
    const read = await this.readLog(after, through);
    if (!read.kept) return null;
    const events: LoggedEvent[] = [];
    for (const [position, fields] of read.entries) {
      const envelope = fields[0] === 'e' && fields[1] !== undefined ? readEnvelope(fields[1]) : null;
      if (!envelope) continue;
      if (envelope.n === 'DISPATCH_GAP') return null;
      events.push({ position, name: envelope.n, event: envelope.e });
    }
    return events;
  }

  private async readLog(
    after: string,
    through: string,
  ): Promise<{ last: string; kept: boolean; entries: LogEntry[]; remade: string }> {
    const [last, kept, entries, remade] = (await this.connections.publisher.eval(
      READ_LOG,
      1,
      this.connections.log,
      after,
      through,
      this.logEntries + 1,
    )) as [string, number, LogEntry[], string];
    // More than the log keeps: some were trimmed while being read.
    return { last, kept: kept === 1 && entries.length <= this.logEntries, entries, remade };
  }

  /** After a reconnection: the logged events missed meanwhile, then those that came since. */
  private async catchUp(): Promise<void> {
    let read = await this.readLog(this.position, '+');
    if (!read.kept && read.remade !== '' && comparePositions(read.remade, this.position) > 0) {
      // Redis restarted empty: its new log from its start. An event Redis took before it went
      // was on its way to every subscriber already; one it refused is marked by its publisher.
      const start = read.remade;
      read = await this.readLog(start, '+');
      if (comparePositions(start, this.position) > 0) this.position = start;
    }
    if (read.kept) {
      for (const [position, fields] of read.entries) {
        const envelope = fields[0] === 'e' && fields[1] !== undefined ? readEnvelope(fields[1]) : null;
        if (envelope) this.deliverLogged(position, envelope);
      }
    } else {
      // Redis lost the log (restarted empty) or trimmed past it: this node may have missed events.
      if (comparePositions(read.last, this.position) > 0) this.position = read.last;
      // This node's own events of the lost part will not come back either.
      this.outstanding = 1;
      this.delivered();
      this.local.publish('DISPATCH_GAP', { reason: 'log_lost' }, this.position);
    }
    const held = this.held ?? [];
    this.held = null;
    for (const text of held) this.receive(text);
  }

  /** A logged event from the channel or the log: delivered once, in the log's order. */
  private deliverLogged(position: string, envelope: Envelope): void {
    if (comparePositions(position, this.position) <= 0) return;
    this.position = position;
    if (envelope.o === this.origin) this.delivered();
    else if (envelope.t !== undefined)
      this.connections.lag.busReceived(Math.max(0, this.now() - envelope.t) / 1000, false);
    this.local.publish(envelope.n, envelope.e as BusEvents[typeof envelope.n], position);
  }

  private receive(text: string): void {
    const envelope = readEnvelope(text);
    if (envelope === null) return;
    if (envelope.p !== undefined) {
      if (this.held) return void this.held.push(text);
      return this.deliverLogged(envelope.p, envelope);
    }
    // Not through the log: this node's own were delivered at once; an earlier version's node's are
    // delivered as they come (without a position).
    if (envelope.o === this.origin) return;
    if (envelope.t !== undefined) {
      const lagMs = Math.max(0, this.now() - envelope.t);
      const stale = lagMs > (STALE_AFTER_MS[envelope.n] ?? Number.POSITIVE_INFINITY);
      this.connections.lag.busReceived(lagMs / 1000, stale);
      if (stale) return;
    }
    // Published by a node of this deployment from the same types: its shape is the event's.
    this.local.publish(envelope.n, envelope.e as BusEvents[typeof envelope.n]);
  }

  /** Stops receiving; the connections stay open for their owner to close. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.gapRetry !== null) clearTimeout(this.gapRetry);
    this.gapRetry = null;
    this.connections.subscriber.off('message', this.onMessage);
    this.connections.subscriber.off('ready', this.onReady);
    if (this.connections.subscriber.status === 'ready') {
      await this.connections.subscriber.unsubscribe(this.connections.channel).catch(() => undefined);
    }
  }
}
