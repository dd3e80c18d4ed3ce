/** Snowflake node ids (0..1023), leased so that two processes on one database never share one. */

export interface NodeLeaseRequest {
  /** A random value naming this process; renewals and the release must present it. */
  holder: string;
  /** Tried first (e.g. derived from the pid); any free id will do. */
  preferred: number;
  ttlMs: number;
}

export interface NodeLeaseStore {
  /** Takes the preferred node id, or another free one, in one transaction; null when all are held. */
  acquireNodeLease(request: NodeLeaseRequest): Promise<number | null>;
  /** Extends a lease this holder still has; false when it has expired (another may hold it now). */
  renewNodeLease(nodeId: number, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the id back; it rests for `restMs` so that its next holder's ids start later. */
  releaseNodeLease(nodeId: number, holder: string, restMs: number): Promise<void>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** The nodes' leases (which node serves what). */
    readonly leases: NodeLeaseStore;
  }
}
