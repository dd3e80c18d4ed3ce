/**
 * The internal event bus. The gateway (a later adapter) subscribes and delivers dispatches to
 * connected bots; tests subscribe to observe them. In-process now; a Redis-backed bus will
 * implement the same interface for many nodes.
 */
import { EventEmitter } from 'node:events';
import type { GuildCommandPermissions } from '../core/permissions/command-permissions.js';

export interface BusEvents {
  /** Gateway dispatch APPLICATION_COMMAND_PERMISSIONS_UPDATE, for one application. */
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: { applicationId: string; data: GuildCommandPermissions };
  /** Gateway dispatch INTERACTION_CREATE, for apps without an interactions endpoint URL. */
  INTERACTION_CREATE: { applicationId: string; data: Record<string, unknown> };
}

export type BusEventName = keyof BusEvents;

export interface EventBus {
  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void;
  subscribe<K extends BusEventName>(name: K, listener: (event: BusEvents[K]) => void): () => void;
}

export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every gateway session is a listener; the default cap of 10 would only warn.
    this.emitter.setMaxListeners(0);
  }

  publish<K extends BusEventName>(name: K, event: BusEvents[K]): void {
    this.emitter.emit(name, event);
  }

  subscribe<K extends BusEventName>(name: K, listener: (event: BusEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
