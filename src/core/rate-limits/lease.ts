/**
 * Leases: a node that shares its counters with other nodes takes a share of a counter's window at
 * once (a lease of `leaseSize` requests) and admits requests from it without asking the shared
 * store again. The shared count only ever grows by what is leased, so the nodes together never
 * admit more than the limit. What a lease costs is precision the other way: requests another node
 * has leased but not yet used count as used, so near the limit a node may refuse while another
 * still holds a few, at most `leaseSize - 1` per node and window; and `X-RateLimit-Remaining`
 * counts those as used too, so it never overstates what is left. With a share that rounds to one
 * request (every limit under 1/share, such as all of v10's published numbers at the default
 * share) a lease is one request: each request is counted in the shared store, exactly.
 */
import type { WindowCount } from './window.js';

/** The share of a counter's limit a node leases at once by default: 1/64 (limits under 128 lease one request at a time). */
export const DEFAULT_LEASE_SHARE = 1 / 64;

/** How many requests one lease of a counter with this limit asks for: at least one. */
export function leaseSize(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}

/** What this node holds of one counter's window. */
export interface Lease {
  /** When the window ends (epoch ms). */
  readonly resetAt: number;
  /** Requests leased and not yet admitted. */
  readonly inHand: number;
  /** The highest position in the window this node was granted: what it reports as counted. */
  readonly highest: number;
  /** The shared count reached the limit: no further lease in this window can grant anything. */
  readonly drained: boolean;
}

/** The shared store's answer to one lease request. */
export interface LeaseReply {
  /** The shared count after adding the lease's size. */
  readonly total: number;
  /** What remains of the window (ms). */
  readonly ttlMs: number;
  /** Requests granted, from 0 (the window was already full) to the lease's size. */
  readonly granted: number;
  /** The size asked for. */
  readonly size: number;
}

/** A taken request: its count (its position in the window as this node knows it) and the lease after it. */
export interface Taken {
  readonly count: WindowCount;
  readonly lease: Lease;
}

/** A lease that still holds its window at `now`. */
export function liveLease(lease: Lease | undefined, now: number): Lease | undefined {
  return lease !== undefined && lease.resetAt > now ? lease : undefined;
}

/**
 * Admits or refuses a request from what this node holds, or answers undefined when it must ask
 * the shared store (no live lease, or one with nothing in hand that is not drained).
 */
export function takeFromLease(held: Lease | undefined, now: number, limit: number): Taken | undefined {
  const lease = liveLease(held, now);
  if (lease === undefined) return undefined;
  if (lease.inHand > 0) {
    const inHand = lease.inHand - 1;
    return { count: { count: lease.highest - inHand, resetAt: lease.resetAt }, lease: { ...lease, inHand } };
  }
  if (!lease.drained) return undefined;
  // Over the limit until the window ends: refused without asking the shared store again.
  return { count: { count: Math.max(lease.highest, limit) + 1, resetAt: lease.resetAt }, lease };
}

/**
 * The requester's count from a lease reply (the first request of what was granted, or a count
 * over the limit when nothing was), and what the node holds afterwards: the rest of the grant,
 * added to a live lease of the same window.
 */
export function applyLeaseReply(held: Lease | undefined, now: number, reply: LeaseReply, limit: number): Taken {
  const resetAt = now + reply.ttlMs;
  const before = reply.total - reply.size;
  const granted = Math.max(0, Math.min(reply.granted, reply.size));
  const live = liveLease(held, now);
  const drained = before + granted >= limit;
  if (granted === 0) {
    const lease: Lease = {
      resetAt,
      inHand: live?.inHand ?? 0,
      highest: Math.max(live?.highest ?? 0, before),
      drained: true,
    };
    return { count: { count: Math.max(reply.total, limit + 1), resetAt }, lease };
  }
  const lease: Lease = {
    resetAt: live?.resetAt ?? resetAt,
    inHand: (live?.inHand ?? 0) + granted - 1,
    highest: Math.max(live?.highest ?? 0, before + granted),
    drained: drained || (live?.drained ?? false),
  };
  return { count: { count: before + 1, resetAt: lease.resetAt }, lease };
}
