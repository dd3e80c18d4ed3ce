/** The PostgreSQL NodeLeaseStore: no two live processes on one database write the same snowflake ids. */
import { chooseNodeId } from '../../core/snowflake.js';
import type { NodeLeaseRequest, NodeLeaseStore } from '../../store/store.js';
import type { PostgresConnection } from '../../store/postgres/connection.js';

/** The advisory lock every lease choice takes, so two processes choosing at once see each other's lease. */
const LEASE_LOCK_SCOPE = 'node leases';

export class PostgresNodeLeaseStore implements NodeLeaseStore {
  constructor(private readonly conn: PostgresConnection) {}

  async acquireNodeLease(request: NodeLeaseRequest): Promise<number | null> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, '', LEASE_LOCK_SCOPE);
      const now = this.conn.now();
      const held = await client.query<{ node_id: number }>('SELECT node_id FROM node_leases WHERE expires_at >= $1', [
        now,
      ]);
      const nodeId = chooseNodeId(new Set(held.rows.map((r) => r.node_id)), request.preferred);
      if (nodeId === null) return null;
      await client.query(
        `INSERT INTO node_leases (node_id, holder, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (node_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`,
        [nodeId, request.holder, now + request.ttlMs],
      );
      return nodeId;
    });
  }

  async renewNodeLease(nodeId: number, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.conn.now();
    const result = await this.conn.pool.query(
      'UPDATE node_leases SET expires_at = $1 WHERE node_id = $2 AND holder = $3 AND expires_at >= $4',
      [now + ttlMs, nodeId, holder, now],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async releaseNodeLease(nodeId: number, holder: string, restMs: number): Promise<void> {
    await this.conn.pool.query(
      "UPDATE node_leases SET holder = '', expires_at = $1 WHERE node_id = $2 AND holder = $3",
      [this.conn.now() + restMs, nodeId, holder],
    );
  }
}
