/**
 * The SQLite AuditLogStore: the audit_log_entries table. `insertAuditEntry` is also called inside
 * the member tables' transactions, so that an action and its entry commit together.
 */
import { AUDIT_LOG_RETENTION_MS, type AuditEntry, type AuditLogQuery } from './rules.js';
import { snowflakeAt, snowflakeTimestampMs } from '../../core/snowflake.js';
import type { AuditLogStore } from './store.js';
import { storedDocument } from '../../store/rows.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

/** Writes the entry and drops its guild's entries past the retention (inside the caller's transaction). */
export function insertAuditEntry(conn: SqliteConnection, entry: AuditEntry): void {
  conn
    .sql('INSERT INTO audit_log_entries (guild_id, id, user_id, action_type, doc) VALUES (?, ?, ?, ?, ?)')
    .run(entry.guild_id, entry.id, entry.user_id, entry.action_type, JSON.stringify(entry));
  const oldest = snowflakeAt(snowflakeTimestampMs(entry.id) - AUDIT_LOG_RETENTION_MS);
  conn
    .sql(
      `DELETE FROM audit_log_entries WHERE guild_id = ?
       AND (length(id) < length(?) OR (length(id) = length(?) AND id < ?))`,
    )
    .run(entry.guild_id, oldest, oldest, oldest);
}

/** Ids in numeric order without casting: a shorter id is smaller, equal lengths compare as text. */
const BELOW = '(length(id) < length(@before) OR (length(id) = length(@before) AND id < @before))';
const ABOVE = '(length(id) > length(@after) OR (length(id) = length(@after) AND id > @after))';
const MATCHES = '(@user IS NULL OR user_id = @user) AND (@action IS NULL OR action_type = @action)';

export class SqliteAuditLogStore implements AuditLogStore {
  constructor(private readonly conn: SqliteConnection) {}

  async appendAuditEntry(entry: AuditEntry): Promise<boolean> {
    return this.conn.transaction(() => {
      if (!this.conn.sql('SELECT 1 FROM guilds WHERE id = ?').get(entry.guild_id)) return false;
      insertAuditEntry(this.conn, entry);
      return true;
    });
  }

  async listAuditEntries(guildId: string, query: AuditLogQuery): Promise<AuditEntry[]> {
    const params = {
      guild: guildId,
      user: query.userId,
      action: query.actionType,
      before: query.before ?? '99999999999999999999',
      after: query.after ?? '0',
      limit: query.limit,
    };
    const order = query.after === null ? 'DESC' : 'ASC';
    const docs = this.conn
      .sql(
        `SELECT doc FROM audit_log_entries WHERE guild_id = @guild AND ${MATCHES} AND ${BELOW} AND ${ABOVE}
         ORDER BY length(id) ${order}, id ${order} LIMIT @limit`,
      )
      .pluck()
      .all(params) as string[];
    return docs.map((doc) => storedDocument<AuditEntry>(doc));
  }
}
