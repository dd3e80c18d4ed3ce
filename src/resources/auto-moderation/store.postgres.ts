/**
 * The PostgreSQL AutoModerationStore: the auto_moderation_rules table. A guild's creates run one
 * at a time under its scope lock, so two cannot both take the last place of a trigger type.
 */
import type { PostgresConnection } from '../../store/postgres/connection.js';
import type { StoredRule } from './rules/rule.js';
import { ruleOfDoc, type AutoModerationStore } from './store.js';

/** The scope lock of a guild's rule creates. */
const CREATE_SCOPE = 'auto-moderation';

export class PostgresAutoModerationStore implements AutoModerationStore {
  constructor(private readonly conn: PostgresConnection) {}

  async createRule(rule: StoredRule, maxOfType: number): Promise<'created' | 'full'> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, rule.guild_id, CREATE_SCOPE);
      const count = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM auto_moderation_rules WHERE guild_id = $1 AND trigger_type = $2',
        [rule.guild_id, rule.trigger_type],
      );
      if (Number(count.rows[0]?.n ?? 0) >= maxOfType) return 'full';
      await client.query(
        'INSERT INTO auto_moderation_rules (guild_id, id, trigger_type, doc) VALUES ($1, $2, $3, $4)',
        [rule.guild_id, rule.id, rule.trigger_type, JSON.stringify(rule)],
      );
      return 'created';
    });
  }

  async getRule(guildId: string, ruleId: string): Promise<StoredRule | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM auto_moderation_rules WHERE guild_id = $1 AND id = $2',
      [guildId, ruleId],
    );
    return result.rows[0] ? ruleOfDoc(result.rows[0].doc) : null;
  }

  async listRules(guildId: string): Promise<StoredRule[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM auto_moderation_rules WHERE guild_id = $1 ORDER BY length(id), id',
      [guildId],
    );
    return result.rows.map((row) => ruleOfDoc(row.doc));
  }

  async updateRule(rule: StoredRule): Promise<boolean> {
    const result = await this.conn.pool.query(
      'UPDATE auto_moderation_rules SET doc = $1 WHERE guild_id = $2 AND id = $3',
      [JSON.stringify(rule), rule.guild_id, rule.id],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async deleteRule(guildId: string, ruleId: string): Promise<boolean> {
    const result = await this.conn.pool.query('DELETE FROM auto_moderation_rules WHERE guild_id = $1 AND id = $2', [
      guildId,
      ruleId,
    ]);
    return (result.rowCount ?? 0) > 0;
  }
}
