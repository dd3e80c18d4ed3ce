/**
 * The snowflake node id of this process, leased from the store: processes sharing a database get
 * distinct ids whatever their pids, so their snowflakes cannot collide.
 */
import { randomBytes } from 'node:crypto';
import { NODE_ID_COUNT, SnowflakeGenerator } from '../../core/snowflake.js';
import type { NodeLeaseStore } from '../../store/store.js';

/** How long a lease lasts without renewal: a crashed process's id is free again after this, in ms. */
export const NODE_LEASE_TTL_MS = 60_000;
/** How often the lease is renewed, in ms: a few renewals may fail before it lapses. */
export const NODE_LEASE_RENEW_MS = 15_000;
/** How long a released id rests, in ms: its next holder's ids start in a later millisecond. */
export const NODE_LEASE_REST_MS = 1_000;

export class NodeIdsExhaustedError extends Error {
  constructor() {
    super(`All ${NODE_ID_COUNT} snowflake node ids are leased by live processes on this database.`);
  }
}

export class NodeLease {
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> = Promise.resolve();
  /** When the lease was last taken or renewed (ms since the epoch; /metrics shows its age). */
  renewedAt: number;

  private constructor(
    private readonly store: NodeLeaseStore,
    private readonly holder: string,
    readonly ids: SnowflakeGenerator,
    private readonly now: () => number,
  ) {
    this.renewedAt = now();
  }

  /** Takes a node id (the preferred one if it is free) and returns the lease with its generator. */
  static async acquire(store: NodeLeaseStore, preferred: number, now: () => number): Promise<NodeLease> {
    const holder = randomBytes(12).toString('base64url');
    const nodeId = await store.acquireNodeLease({ holder, preferred, ttlMs: NODE_LEASE_TTL_MS });
    if (nodeId === null) throw new NodeIdsExhaustedError();
    const lease = new NodeLease(store, holder, SnowflakeGenerator.forNode(nodeId, now), now);
    lease.timer = setInterval(() => {
      lease.renewing = lease.renew().catch(() => undefined);
    }, NODE_LEASE_RENEW_MS);
    lease.timer.unref();
    return lease;
  }

  get nodeId(): number {
    return this.ids.nodeId;
  }

  /** Extends the lease; if it lapsed (the process stalled past the TTL), moves to a fresh id. */
  async renew(): Promise<void> {
    if (await this.store.renewNodeLease(this.nodeId, this.holder, NODE_LEASE_TTL_MS)) {
      this.renewedAt = this.now();
      return;
    }
    const nodeId = await this.store.acquireNodeLease({
      holder: this.holder,
      preferred: this.nodeId,
      ttlMs: NODE_LEASE_TTL_MS,
    });
    if (nodeId === null) throw new NodeIdsExhaustedError();
    this.ids.moveToNode(nodeId);
    this.renewedAt = this.now();
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing;
    try {
      await this.store.releaseNodeLease(this.nodeId, this.holder, NODE_LEASE_REST_MS);
    } catch {
      // A store that can no longer be written (closed, unreachable) keeps the lease until it lapses.
    }
  }
}
