/**
 * The PostgreSQL AuditLogStore: the audit_log_entries table. `insertAuditEntry` is also called
 * inside the member tables' transactions, so that an action and its entry commit together.
 */
import { AUDIT_LOG_RETENTION_MS, type AuditEntry, type AuditLogQuery } from './rules.js';
import { snowflakeAt, snowflakeTimestampMs } from '../../core/snowflake.js';
import type { AuditLogStore } from './store.js';
import { storedDocument } from '../../store/rows.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';

/** Writes the entry and drops its guild's entries past the retention (inside the caller's transaction). */
export async function insertAuditEntry(client: PostgresClient, entry: AuditEntry): Promise<void> {
  await client.query(
    'INSERT INTO audit_log_entries (guild_id, id, user_id, action_type, doc) VALUES ($1, $2, $3, $4, $5)',
    [entry.guild_id, entry.id, entry.user_id, entry.action_type, JSON.stringify(entry)],
  );
  const oldest = snowflakeAt(snowflakeTimestampMs(entry.id) - AUDIT_LOG_RETENTION_MS);
  await client.query(`DELETE FROM audit_log_entries WHERE guild_id = $1 AND (length(id), id) < (length($2), $2)`, [
    entry.guild_id,
    oldest,
  ]);
}

export class PostgresAuditLogStore implements AuditLogStore {
  constructor(private readonly conn: PostgresConnection) {}

  async appendAuditEntry(entry: AuditEntry): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      // Held shared: a guild being deleted waits, or this waits for it.
      const guild = await client.query('SELECT 1 FROM guilds WHERE id = $1 FOR SHARE', [entry.guild_id]);
      if (!guild.rowCount) return false;
      await insertAuditEntry(client, entry);
      return true;
    });
  }

  async listAuditEntries(guildId: string, query: AuditLogQuery): Promise<AuditEntry[]> {
    // Snowflakes in numeric order without casting: a shorter id is smaller, equal lengths compare as text.
    const order = query.after === null ? 'DESC' : 'ASC';
    const result = await this.conn.pool.query<{ doc: string }>(
      `SELECT doc FROM audit_log_entries WHERE guild_id = $1
         AND ($2::text IS NULL OR user_id = $2) AND ($3::int IS NULL OR action_type = $3)
         AND (length(id), id) < (length($4), $4)
         AND (length(id), id) > (length($5), $5)
       ORDER BY length(id) ${order}, id ${order} LIMIT $6`,
      [
        guildId,
        query.userId,
        query.actionType,
        query.before ?? '99999999999999999999',
        query.after ?? '0',
        query.limit,
      ],
    );
    return result.rows.map((row) => storedDocument<AuditEntry>(row.doc));
  }
}
