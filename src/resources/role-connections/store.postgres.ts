/** The PostgreSQL RoleConnectionStore: the role_connection_metadata and role_connections tables. */
import type { APIApplicationRoleConnection, APIApplicationRoleConnectionMetadata } from 'discord-api-types/v10';
import type { PostgresConnection } from '../../store/postgres/connection.js';
import { storedDocument } from '../../store/rows.js';
import type { RoleConnectionStore } from './store.js';

export class PostgresRoleConnectionStore implements RoleConnectionStore {
  constructor(private readonly conn: PostgresConnection) {}

  async getMetadata(applicationId: string): Promise<APIApplicationRoleConnectionMetadata[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM role_connection_metadata WHERE application_id = $1',
      [applicationId],
    );
    return result.rows[0] ? storedDocument<APIApplicationRoleConnectionMetadata[]>(result.rows[0].doc) : [];
  }

  async putMetadata(applicationId: string, records: readonly APIApplicationRoleConnectionMetadata[]): Promise<void> {
    await this.conn.pool.query(
      `INSERT INTO role_connection_metadata (application_id, doc) VALUES ($1, $2)
       ON CONFLICT (application_id) DO UPDATE SET doc = excluded.doc`,
      [applicationId, JSON.stringify(records)],
    );
  }

  async getConnection(applicationId: string, userId: string): Promise<APIApplicationRoleConnection | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM role_connections WHERE application_id = $1 AND user_id = $2',
      [applicationId, userId],
    );
    return result.rows[0] ? storedDocument<APIApplicationRoleConnection>(result.rows[0].doc) : null;
  }

  async putConnection(applicationId: string, userId: string, connection: APIApplicationRoleConnection): Promise<void> {
    await this.conn.pool.query(
      `INSERT INTO role_connections (application_id, user_id, doc) VALUES ($1, $2, $3)
       ON CONFLICT (application_id, user_id) DO UPDATE SET doc = excluded.doc`,
      [applicationId, userId, JSON.stringify(connection)],
    );
  }

  async deleteConnection(applicationId: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM role_connections WHERE application_id = $1 AND user_id = $2',
      [applicationId, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
