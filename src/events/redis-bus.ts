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
import { InProcessEventBus, isBusEventName, type BusEventName, type BusEvents, type EventBus } from './bus.js';

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
}

function readEnvelope(text: string): Envelope | null {
  const value = jsonValueOrUndefined(text);
  if (typeof value !== 'object' || value === null) return null;
  const { o, n, e, t } = value as Record<string, unknown>;
  if (typeof o !== 'string' || !isBusEventName(n) || typeof e !== 'object' || e === null) return null;
  return typeof t === 'number' && Number.isFinite(t) ? { o, n, e, t } : { o, n, e };
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
}

export class RedisEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
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
    this.connections.subscriber.subscribe(this.connections.channel).catch(() => {
      this.connections.subscriber.disconnect(true);
    });
  };

  private constructor(private readonly connections: RedisBusConnections) {
    this.now = connections.now ?? Date.now;
  }

  /** Subscribes to the channel; resolves once events from other nodes are being received. */
  static async open(connections: RedisBusConnections): Promise<RedisEventBus> {
    const bus = new RedisEventBus(connections);
    connections.subscriber.on('message', bus.onMessage);
    await connections.subscriber.subscribe(connections.channel);
    connections.subscriber.on('ready', bus.onReady);
    return bus;
  }

  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void {
    this.local.publish(name, event);
    const envelope: Envelope = { o: this.origin, n: name, e: event, t: this.now() };
    this.connections.publisher.publish(this.connections.channel, JSON.stringify(envelope)).catch(() => {
      this.failedPublishes++;
    });
  }

  subscribe<K extends BusEventName>(name: K, listener: (event: BusEvents[K]) => void): () => void {
    return this.local.subscribe(name, listener);
  }

  private receive(text: string): void {
    const envelope = readEnvelope(text);
    if (envelope === null || envelope.o === this.origin) return;
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
    this.connections.subscriber.off('message', this.onMessage);
    this.connections.subscriber.off('ready', this.onReady);
    if (this.connections.subscriber.status === 'ready') {
      await this.connections.subscriber.unsubscribe(this.connections.channel).catch(() => undefined);
    }
  }
}
