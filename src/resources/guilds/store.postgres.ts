/**
 * The PostgreSQL GuildSettingsStore: the guild's document rewritten with its settings, in one
 * transaction that holds the guild's row (FOR UPDATE: concurrent edits and structure changes wait).
 */
import type { Guild } from '../../core/world/types.js';
import { freezeDocument, storedDocument } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.postgres.js';
import type { PostgresConnection } from '../../store/postgres/connection.js';
import type { PostgresShared } from '../../store/postgres/shared.js';
import { withSettings, type GuildSettingsPlanner, type GuildSettingsStore } from './store.js';

export class PostgresGuildSettings implements GuildSettingsStore {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly shared: PostgresShared,
  ) {}

  async changeGuildSettings(guildId: string, planner: GuildSettingsPlanner) {
    return this.conn.transaction(async (client) => {
      const row = await client.query<{ doc: string }>('SELECT doc FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
      if (!row.rows[0]) return null;
      const before = freezeDocument(storedDocument<Guild>(row.rows[0].doc));
      const plan = planner(before);
      const after = freezeDocument(withSettings(before, plan.after));
      await client.query('UPDATE guilds SET doc = $2 WHERE id = $1', [
        guildId,
        this.shared.guilds.guildDocumentText(after),
      ]);
      for (const entry of plan.audit) await insertAuditEntry(client, entry);
      return { before, after };
    });
  }
}
