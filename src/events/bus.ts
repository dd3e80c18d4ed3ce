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
}

export type BusEventName = keyof BusEvents;

const EVENT_NAMES: Record<BusEventName, true> = {
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: true,
  INTERACTION_CREATE: true,
  WORLD_DISPATCH: true,
  APPLICATION_DISPATCH: true,
  APPLICATION_GUILD: true,
  GATEWAY_SESSION_MOVED: true,
};

/** Whether a name received from elsewhere (another node) is one of the bus's events. */
export function isBusEventName(name: unknown): name is BusEventName {
  return typeof name === 'string' && Object.hasOwn(EVENT_NAMES, name);
}

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
