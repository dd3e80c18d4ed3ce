/**
 * A guild's own fields and settings (`PATCH /guilds/{id}`), written into its document apart from
 * its roles, channels and members. `Store.guildSettings`.
 */
import type { AuditEntry } from '../audit-log/rules.js';
import type { Guild } from '../../core/world/types.js';

/**
 * Decides the edit from the guild as stored (its document, with no member): the guild after it
 * (only its name, locale and settings are written) and the audit entries written with it. It may
 * throw to refuse; nothing is written then.
 */
export type GuildSettingsPlanner = (guild: Guild) => { after: Guild; audit: readonly AuditEntry[] };

export interface GuildSettingsStore {
  /**
   * Runs the planner on the guild's document and writes the name, locale and settings it answers,
   * with its audit entries, in one transaction (concurrent edits of one guild run one after the
   * other). Null (nothing run) when there is no such guild.
   */
  changeGuildSettings(guildId: string, planner: GuildSettingsPlanner): Promise<{ before: Guild; after: Guild } | null>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** A guild's own fields and settings, changed apart from its structure and members. */
    readonly guildSettings: GuildSettingsStore;
  }
}

/** The document `before` with the fields an edit writes taken from `after`. */
export function withSettings(before: Guild, after: Guild): Guild {
  return {
    ...before,
    name: after.name,
    preferred_locale: after.preferred_locale,
    ...(after.settings ? { settings: after.settings } : {}),
  };
}
