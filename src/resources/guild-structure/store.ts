/**
 * A guild's structure, its roles and channels, written apart from its members: a bot creating a
 * role or a channel rewrites the guild's document, never its member rows (docs/decisions.md, "Roles
 * and channels"). `Store.guildStructure`.
 */
import type { AuditEntry } from '../audit-log/rules.js';
import type { Channel, Emoji, Guild, Role, Sticker } from '../../core/world/types.js';

/**
 * The roles and channels a guild has after a change, in their order (which is their position), and
 * its emojis and stickers when the change is of them (absent: kept as they are).
 */
export interface GuildStructure {
  roles: Role[];
  channels: Channel[];
  emojis?: Emoji[];
  stickers?: Sticker[];
}

/**
 * Decides a change from the guild as stored (its document, with no member): the structure after
 * it, what the caller gets back, and the audit log entries of the change (written with it). It may
 * throw to refuse; nothing is written then.
 */
export type GuildStructurePlanner<R> = (guild: Guild) => {
  structure: GuildStructure;
  result: R;
  audit?: readonly AuditEntry[];
};

/** A change applied: the guild (without members) before and after it, and the planner's result. */
export interface GuildStructureChange<R> {
  before: Guild;
  after: Guild;
  result: R;
}

export interface GuildStructureStore {
  /**
   * Runs the planner on the guild's document and writes the roles and channels it answers, in one
   * transaction: concurrent changes of one guild run one after the other. What the change drops
   * goes with it in the same transaction: a role gone is taken from every member that had it, a
   * channel gone takes its messages (their pins, reactions and files). The member rows are not
   * otherwise read or written. Null (nothing run) when there is no such guild.
   */
  changeGuildStructure<R>(guildId: string, planner: GuildStructurePlanner<R>): Promise<GuildStructureChange<R> | null>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** A guild's roles and channels, changed apart from its members. */
    readonly guildStructure: GuildStructureStore;
  }
}
