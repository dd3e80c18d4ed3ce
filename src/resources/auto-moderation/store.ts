/**
 * Guilds' auto moderation rules (`Store.autoModeration`). The rows are the guild's, not an app's:
 * every query is keyed by the guild's id, and every bot of the guild with MANAGE_GUILD reads the
 * same rules (as in v10). A create counts the guild's rules of its trigger type and writes in one
 * transaction, so two racing creates cannot both take the last place.
 */
import { storedDocument } from '../../store/rows.js';
import type { StoredRule } from './rules/rule.js';

export interface AutoModerationStore {
  /** Writes a new rule unless the guild holds `maxOfType` rules of its trigger type already. */
  createRule(rule: StoredRule, maxOfType: number): Promise<'created' | 'full'>;
  getRule(guildId: string, ruleId: string): Promise<StoredRule | null>;
  /** The guild's rules, ascending by id (as snowflakes). */
  listRules(guildId: string): Promise<StoredRule[]>;
  /** Rewrites a rule (its trigger type never changes); false when there is none. */
  updateRule(rule: StoredRule): Promise<boolean>;
  /** False when there was no such rule. */
  deleteRule(guildId: string, ruleId: string): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Guilds' auto moderation rules. */
    readonly autoModeration: AutoModerationStore;
  }
}

/** The rule a row's document holds. */
export function ruleOfDoc(doc: string): StoredRule {
  return storedDocument<StoredRule>(doc);
}
