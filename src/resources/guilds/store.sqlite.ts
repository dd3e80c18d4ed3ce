/** The SQLite GuildSettingsStore: the guild's document rewritten with its settings, in one transaction. */
import { freezeDocument } from '../../store/rows.js';
import { insertAuditEntry } from '../audit-log/store.sqlite.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { SqliteShared } from '../../store/sqlite/shared.js';
import { withSettings, type GuildSettingsPlanner, type GuildSettingsStore } from './store.js';

export class SqliteGuildSettings implements GuildSettingsStore {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly shared: SqliteShared,
  ) {}

  async changeGuildSettings(guildId: string, planner: GuildSettingsPlanner) {
    return this.conn.transaction(() => {
      const { guilds } = this.shared;
      const before = guilds.guildWithoutMembers(guildId);
      if (!before) return null;
      const plan = planner(before);
      const after = freezeDocument(withSettings(before, plan.after));
      this.conn.sql('UPDATE guilds SET doc = ? WHERE id = ?').run(guilds.guildDocumentText(after), guildId);
      for (const entry of plan.audit) insertAuditEntry(this.conn, entry);
      this.conn.cached.forgetGuild(guildId);
      return { before, after };
    });
  }
}
