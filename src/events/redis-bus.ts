/**
 * The event bus across nodes: every event is published on one Redis channel of the deployment and
 * received by every node. The publishing node's own subscribers get the event at once, in process,
 * and skip its echo from Redis, so each subscriber sees each event exactly once.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { jsonValueOrUndefined } from '../core/io/json-text.js';
import { InProcessEventBus, isBusEventName, type BusEventName, type BusEvents, type EventBus } from './bus.js';

/** One event on the wire: the publishing node (`o`), the event's name (`n`) and the event (`e`). */
interface Envelope {
  o: string;
  n: BusEventName;
  e: unknown;
}

function readEnvelope(text: string): Envelope | null {
  const value = jsonValueOrUndefined(text);
  if (typeof value !== 'object' || value === null) return null;
  const { o, n, e } = value as Record<string, unknown>;
  if (typeof o !== 'string' || !isBusEventName(n) || typeof e !== 'object' || e === null) return null;
  return { o, n, e };
}

export interface RedisBusConnections {
  /** Publishes; may be shared with other commands. */
  publisher: Redis;
  /** In subscriber mode; may be shared by several buses on other channels. */
  subscriber: Redis;
  /** The deployment's bus channel (with its prefix). */
  channel: string;
}

export class RedisEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  /** This bus's id in the envelopes it publishes: its own echo is recognised and skipped. */
  private readonly origin = randomBytes(9).toString('base64url');
  /** Events Redis did not take (unreachable): other nodes missed them; this node's subscribers did not. */
  failedPublishes = 0;
  private readonly onMessage = (channel: string, text: string) => {
    if (channel === this.connections.channel) this.receive(text);
  };

  private constructor(private readonly connections: RedisBusConnections) {}

  /** Subscribes to the channel; resolves once events from other nodes are being received. */
  static async open(connections: RedisBusConnections): Promise<RedisEventBus> {
    const bus = new RedisEventBus(connections);
    connections.subscriber.on('message', bus.onMessage);
    await connections.subscriber.subscribe(connections.channel);
    return bus;
  }

  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void {
    this.local.publish(name, event);
    const envelope: Envelope = { o: this.origin, n: name, e: event };
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
    // Published by a node of this deployment from the same types: its shape is the event's.
    this.local.publish(envelope.n, envelope.e as BusEvents[typeof envelope.n]);
  }

  /** Stops receiving; the connections stay open for their owner to close. */
  async close(): Promise<void> {
    this.connections.subscriber.off('message', this.onMessage);
    if (this.connections.subscriber.status === 'ready') {
      await this.connections.subscriber.unsubscribe(this.connections.channel).catch(() => undefined);
    }
  }
}
