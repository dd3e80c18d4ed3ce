/** The SQLite NodeLeaseStore: no two live processes on one database write the same snowflake ids. */
import { chooseNodeId } from '../../core/snowflake.js';
import type { NodeLeaseRequest, NodeLeaseStore } from '../../store/store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

export class SqliteNodeLeaseStore implements NodeLeaseStore {
  constructor(private readonly conn: SqliteConnection) {}

  /** One IMMEDIATE transaction: a second process choosing at the same moment waits, then sees this lease. */
  async acquireNodeLease(request: NodeLeaseRequest): Promise<number | null> {
    return this.conn.transaction(() => {
      const now = this.conn.now();
      const rows = this.conn.sql('SELECT node_id FROM node_leases WHERE expires_at >= ?').all(now) as {
        node_id: number;
      }[];
      const nodeId = chooseNodeId(new Set(rows.map((r) => r.node_id)), request.preferred);
      if (nodeId === null) return null;
      this.conn
        .sql(
          `INSERT INTO node_leases (node_id, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (node_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`,
        )
        .run(nodeId, request.holder, now + request.ttlMs);
      return nodeId;
    });
  }

  async renewNodeLease(nodeId: number, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.conn.now();
    const result = this.conn
      .sql('UPDATE node_leases SET expires_at = ? WHERE node_id = ? AND holder = ? AND expires_at >= ?')
      .run(now + ttlMs, nodeId, holder, now);
    return result.changes > 0;
  }

  async releaseNodeLease(nodeId: number, holder: string, restMs: number): Promise<void> {
    this.conn
      .sql("UPDATE node_leases SET holder = '', expires_at = ? WHERE node_id = ? AND holder = ?")
      .run(this.conn.now() + restMs, nodeId, holder);
  }
}
