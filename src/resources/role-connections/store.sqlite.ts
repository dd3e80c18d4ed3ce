/** The SQLite RoleConnectionStore: the role_connection_metadata and role_connections tables. */
import type { APIApplicationRoleConnection, APIApplicationRoleConnectionMetadata } from 'discord-api-types/v10';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import { storedDocument } from '../../store/rows.js';
import type { RoleConnectionStore } from './store.js';

export class SqliteRoleConnectionStore implements RoleConnectionStore {
  constructor(private readonly conn: SqliteConnection) {}

  async getMetadata(applicationId: string): Promise<APIApplicationRoleConnectionMetadata[]> {
    const row = this.conn
      .sql('SELECT doc FROM role_connection_metadata WHERE application_id = ?')
      .get(applicationId) as { doc: string } | undefined;
    return row ? storedDocument<APIApplicationRoleConnectionMetadata[]>(row.doc) : [];
  }

  async putMetadata(applicationId: string, records: readonly APIApplicationRoleConnectionMetadata[]): Promise<void> {
    this.conn
      .sql(
        `INSERT INTO role_connection_metadata (application_id, doc) VALUES (?, ?)
         ON CONFLICT (application_id) DO UPDATE SET doc = excluded.doc`,
      )
      .run(applicationId, JSON.stringify(records));
  }

  async getConnection(applicationId: string, userId: string): Promise<APIApplicationRoleConnection | null> {
    const row = this.conn
      .sql('SELECT doc FROM role_connections WHERE application_id = ? AND user_id = ?')
      .get(applicationId, userId) as { doc: string } | undefined;
    return row ? storedDocument<APIApplicationRoleConnection>(row.doc) : null;
  }

  async putConnection(applicationId: string, userId: string, connection: APIApplicationRoleConnection): Promise<void> {
    this.conn
      .sql(
        `INSERT INTO role_connections (application_id, user_id, doc) VALUES (?, ?, ?)
         ON CONFLICT (application_id, user_id) DO UPDATE SET doc = excluded.doc`,
      )
      .run(applicationId, userId, JSON.stringify(connection));
  }

  async deleteConnection(applicationId: string, userId: string): Promise<boolean> {
    const result = this.conn
      .sql('DELETE FROM role_connections WHERE application_id = ? AND user_id = ?')
      .run(applicationId, userId);
    return result.changes > 0;
  }
}
