/**
 * Commands and command permissions. Every call names the application: one application never
 * reads or writes another's rows. Multi-row changes take a pure planner, which the store runs on
 * the state it reads inside the transaction that applies the planner's answer.
 */
import type { CommandScope, StoredCommand } from '../../core/commands/model.js';
import type { CommandPlanner } from './rules/mutation.js';
import type { Frozen } from '../../core/frozen-memo.js';
import type { CacheCounts } from '../../core/byte-lru.js';
import type { CommandPermission, GuildCommandPermissions } from '../../core/permissions/command-permissions.js';

export type { CommandMutation, CommandPlanner, ScopeState } from './rules/mutation.js';

/** What a permissions planner sees, read inside the transaction that applies its plan. */
export interface PermissionsState {
  /** Every permissions object of the app in the guild. */
  readonly permissions: readonly GuildCommandPermissions[];
  /** The command the target id names (global, or of this guild); null when it names none. */
  command: StoredCommand | null;
}

export type PermissionsPlanner = (state: PermissionsState) => CommandPermission[];

/** Writes a scope's commands (oldest id first, read for this call alone) as the bytes of one view of its list. */
export type ListRenderer = (commands: readonly StoredCommand[]) => Buffer;

export interface CommandStore {
  /** The per-process lists this store holds, for /metrics: none where the connection holds the caches (SQLite). */
  cacheCounts(): CacheCounts[];
  /** The scope's commands, oldest id first. */
  listCommands(scope: CommandScope): Promise<Frozen<StoredCommand[]>>;
  /**
   * The scope's list as `render` writes it for `view` (a key naming that rendering), kept as bytes
   * until the scope is written (by this process or any other): a hit builds no command object.
   */
  listCommandsRendered(scope: CommandScope, view: string, render: ListRenderer): Promise<Buffer>;
  getCommand(scope: CommandScope, commandId: string): Promise<StoredCommand | null>;
  /**
   * Runs the planner on the scope's state (its commands, the creates counted today) and applies
   * its mutation, atomically: concurrent planners of one scope run one after the other, and a
   * planner that throws changes nothing (the error reaches the caller).
   */
  mutateCommands<R>(scope: CommandScope, planner: CommandPlanner<R>): Promise<R>;
  /** Commands created in the scope today (UTC) so far: what a planner sees as `createsToday`, read without a lock. */
  countCreatesToday(scope: CommandScope): Promise<number>;
  /** Forgets the application's creates counted today, in every scope: its daily limit starts afresh (an admin's reset). */
  resetCreatesToday(applicationId: string): Promise<void>;

  /** Every permissions object of one application in one guild. */
  listCommandPermissions(applicationId: string, guildId: string): Promise<Frozen<GuildCommandPermissions[]>>;
  getCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): Promise<GuildCommandPermissions | null>;
  /**
   * Replaces the overwrites of one command (or of the app: targetId = app id) in one guild. The
   * planner decides over the state read inside the same transaction (it may throw to refuse), so
   * a command deleted meanwhile cannot keep overwrites.
   */
  mutateCommandPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    planner: PermissionsPlanner,
  ): Promise<GuildCommandPermissions>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Applications' commands and their permissions. */
    readonly commands: CommandStore;
  }
}
