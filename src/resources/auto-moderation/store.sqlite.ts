/** The SQLite AutoModerationStore: the auto_moderation_rules table. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { StoredRule } from './rules/rule.js';
import { ruleOfDoc, type AutoModerationStore } from './store.js';

export class SqliteAutoModerationStore implements AutoModerationStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createRule(rule: StoredRule, maxOfType: number): Promise<'created' | 'full'> {
    return this.conn.transaction(() => {
      const { n } = this.conn
        .sql('SELECT count(*) AS n FROM auto_moderation_rules WHERE guild_id = ? AND trigger_type = ?')
        .get(rule.guild_id, rule.trigger_type) as { n: number };
      if (n >= maxOfType) return 'full';
      this.conn
        .sql('INSERT INTO auto_moderation_rules (guild_id, id, trigger_type, doc) VALUES (?, ?, ?, ?)')
        .run(rule.guild_id, rule.id, rule.trigger_type, JSON.stringify(rule));
      return 'created';
    });
  }

  async getRule(guildId: string, ruleId: string): Promise<StoredRule | null> {
    const row = this.conn
      .sql('SELECT doc FROM auto_moderation_rules WHERE guild_id = ? AND id = ?')
      .get(guildId, ruleId) as { doc: string } | undefined;
    return row ? ruleOfDoc(row.doc) : null;
  }

  async listRules(guildId: string): Promise<StoredRule[]> {
    const rows = this.conn
      .sql('SELECT doc FROM auto_moderation_rules WHERE guild_id = ? ORDER BY length(id), id')
      .all(guildId) as { doc: string }[];
    return rows.map((row) => ruleOfDoc(row.doc));
  }

  async updateRule(rule: StoredRule): Promise<boolean> {
    const result = this.conn
      .sql('UPDATE auto_moderation_rules SET doc = ? WHERE guild_id = ? AND id = ?')
      .run(JSON.stringify(rule), rule.guild_id, rule.id);
    return result.changes > 0;
  }

  async deleteRule(guildId: string, ruleId: string): Promise<boolean> {
    const result = this.conn
      .sql('DELETE FROM auto_moderation_rules WHERE guild_id = ? AND id = ?')
      .run(guildId, ruleId);
    return result.changes > 0;
  }
}
