/**
 * No interaction lost with a session: each one handed to a gateway session is pending (in Redis)
 * until its dispatch is kept in that session's resume buffer. If the node holding the session dies
 * first, the interaction is re-sent: by the node where the bot RESUMEs that session (after the
 * replay), or to the app's newest live session (a fresh IDENTIFY, or found by every node's watch
 * once the dead node's heartbeat lapsed). Never after its deadline, never once it is no longer
 * pending in the store (answered or failed), and never twice by one session.
 */
import { shardOf } from '../core/gateway/shards.js';
import type { EventBus } from '../events/bus.js';
import type { GatewayMetrics } from '../metrics/metrics.js';
import type { InteractionStore } from '../store/store.js';
import type { PendingInteraction, PendingInteractions } from './pending-interactions.js';
import type { Session } from './session.js';
import type { SessionRecord, SessionRegistry } from './session-registry.js';
import type { SessionTable } from './session-table.js';

/**
 * How long an interaction may wait, handed to a session of a live node, before the watch looks at
 * it (ms): the bus's usual delay is far below it.
 */
const IN_FLIGHT_MS = 250;

export interface RescueDeps {
  pending: PendingInteractions;
  registry: SessionRegistry;
  sessions: SessionTable;
  bus: EventBus;
  metrics: GatewayMetrics;
  /** Whether the interaction still waits for its first answer (null: not known, e.g. deleted). */
  states: Pick<InteractionStore, 'getInteractionState'> | null;
  now: () => number;
}

export class InteractionRescue {
  constructor(private readonly deps: RescueDeps) {}

  /** Keeps the interaction pending before it is published for `sessionId`. */
  handOver(applicationId: string, entry: PendingInteraction): Promise<void> {
    return this.deps.pending.keep(applicationId, entry);
  }

  /**
   * A session resumed here: what was handed to it and never reached its buffer is dispatched now
   * (after the replay), then the app's interactions stranded on dead sessions may come to it too.
   */
  async resumed(session: Session): Promise<void> {
    const entries = await this.deps.pending.of(session.applicationId);
    for (const entry of entries) {
      if (entry.sessionId !== session.id || !(await this.stillWaiting(session.applicationId, entry))) continue;
      if (session.dispatchInteraction(entry.data)) this.deps.metrics.interactionResent();
    }
    await this.rescue(session.applicationId, entries, session);
  }

  /** A fresh session of the app (IDENTIFY here): interactions stranded on dead sessions come to it. */
  async identified(session: Session): Promise<void> {
    await this.rescue(session.applicationId, await this.deps.pending.of(session.applicationId), session);
  }

  /**
   * Every node, every heartbeat: interactions past their deadline leave (counted lost); those
   * handed to a session this node holds and still not in its buffer are dispatched to it here
   * (the bus did not bring them: published while this node's subscription was being made again,
   * as after Redis stalled); those stranded on a session whose node died go to the app's newest
   * live session.
   */
  async watch(): Promise<void> {
    const now = this.deps.now();
    const lost = await this.deps.pending.expire(now);
    for (let i = 0; i < lost; i++) this.deps.metrics.interactionLost();
    for (const applicationId of await this.deps.pending.waiting(now)) {
      const entries = await this.deps.pending.of(applicationId);
      const stale = entries.filter((entry) => now - entry.handedAt >= IN_FLIGHT_MS);
      const elsewhere: PendingInteraction[] = [];
      for (const entry of stale) {
        const local = this.deps.sessions.get(entry.sessionId);
        if (local?.applicationId !== applicationId) elsewhere.push(entry);
        else if ((await this.stillWaiting(applicationId, entry)) && local.dispatchInteraction(entry.data)) {
          // Once per session: one the bus did bring meanwhile is not dispatched again.
          this.deps.metrics.interactionResent();
        }
      }
      if (elsewhere.length > 0) await this.rescue(applicationId, elsewhere, null);
    }
  }

  /** Entries handed to a session that is gone or whose node is dead go to a live one of the app. */
  private async rescue(
    applicationId: string,
    entries: readonly PendingInteraction[],
    fresh: Session | null,
  ): Promise<void> {
    if (entries.length === 0) return;
    const records = await this.deps.registry.sessionsOf(applicationId);
    const byId = new Map(records.map((record) => [record.id, record]));
    for (const entry of entries) {
      const target = byId.get(entry.sessionId);
      if (target?.nodeAlive) continue;
      const next = destination(records, entry.guildId, fresh);
      if (next === null || next === entry.sessionId) continue;
      if (!(await this.stillWaiting(applicationId, entry))) continue;
      if (!(await this.deps.pending.move(applicationId, entry.id, entry.sessionId, next))) continue;
      const local = this.deps.sessions.get(next);
      if (local) local.dispatchInteraction(entry.data);
      else this.deps.bus.publish('INTERACTION_CREATE', { applicationId, data: entry.data, sessionId: next });
      this.deps.metrics.interactionResent();
    }
  }

  /** Before its deadline and still waiting for its first answer; one that is not leaves now. */
  private async stillWaiting(applicationId: string, entry: PendingInteraction): Promise<boolean> {
    let waiting = entry.deadline > this.deps.now();
    if (waiting && this.deps.states) {
      const state = await this.deps.states.getInteractionState(applicationId, entry.id);
      waiting = state === 'pending';
    }
    if (!waiting) await this.deps.pending.forget(applicationId, entry.id);
    return waiting;
  }
}

/** The session an interaction of this guild goes to now: the fresh one if its shard fits, or the newest live one. */
function destination(records: readonly SessionRecord[], guildId: string | null, fresh: Session | null): string | null {
  if (fresh && shardOf(guildId, fresh.numShards) === fresh.shardId) return fresh.id;
  return newestLive(records.filter((record) => shardOf(guildId, record.numShards) === record.shardId))?.id ?? null;
}

/** The newest session attached to a live node. */
export function newestLive<T extends SessionRecord>(records: readonly T[]): T | null {
  let newest: T | null = null;
  for (const record of records) {
    if (record.attached && record.nodeAlive && (newest === null || record.since > newest.since)) newest = record;
  }
  return newest;
}
