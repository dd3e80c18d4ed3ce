/** What a change to one scope's commands reads and writes; the store applies it atomically. */
import type { StoredCommand } from '../../../core/commands/model.js';

/** What a planner sees of one scope, read inside the transaction that will apply its plan. */
export interface ScopeState {
  readonly commands: readonly StoredCommand[];
  /** Commands created in this scope today (UTC), bulk creates included. */
  createsToday: number;
}

/** The rows one change writes; applied all together or not at all. */
export interface CommandMutation {
  insert: StoredCommand[];
  update: StoredCommand[];
  delete: string[];
  /** Commands whose permission overwrites go (deleted or renamed), in every guild. */
  dropPermissionsOf: string[];
  /** How many of the inserts count toward the daily create limit. */
  countedCreates: number;
}

/**
 * A pure decision over the scope's current state. It may throw (an ApiError) to refuse: nothing
 * is written then.
 */
export type CommandPlanner<R> = (state: ScopeState) => { mutation: CommandMutation; result: R };

/** Snowflakes compare as numbers: shorter first, then by their digits. */
export function compareSnowflakes(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The scope's list after `mutation`, in id order: what a re-read would give, without one. */
export function applyMutation(commands: readonly StoredCommand[], mutation: CommandMutation): StoredCommand[] {
  const deleted = new Set(mutation.delete);
  const updated = new Map(mutation.update.map((c) => [c.id, c]));
  return [...commands.filter((c) => !deleted.has(c.id)).map((c) => updated.get(c.id) ?? c), ...mutation.insert].sort(
    (a, b) => compareSnowflakes(a.id, b.id),
  );
}
