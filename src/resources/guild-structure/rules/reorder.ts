/**
 * Reordering roles or channels (`PATCH /guilds/{g}/roles`, `PATCH /guilds/{g}/channels`, a
 * `position` in an edit): a list of `{id, position}` moves the items it names; the others keep
 * their place relative to each other. Pure.
 */
import { GUILD_STRUCTURE_UNKNOWN_ID } from '../../../core/io/codes.js';
import { fieldOf, isAbsent, isRecord, readBoolean, readList, readSnowflake } from '../../../core/io/read.js';
import { reportAboveMax, reportNotObject, reportRequired, report, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { boundedInteger } from './fields.js';

/** The most items one reorder names: a guild's roles or channels, whichever is more (v10's bounds). */
export const MAX_REORDER_ITEMS = 500;
/** The largest position a body may name: v10's int32. */
const MAX_POSITION = 2 ** 31 - 1;

/** One item of a reorder body. */
export interface Move {
  id: string;
  /** Absent: the item keeps its place (a channel may move to another category only). */
  position?: number;
  /** Channels only: the category to move into (null: none); absent: the same. */
  parent_id?: string | null;
  /** Channels only: take the new category's overwrites. */
  lock_permissions?: boolean;
}

/** The body of a reorder: a list of moves; `withParents` reads the channels' fields too. */
export function readMoves(body: unknown, withParents: boolean): Result<Move[]> {
  const issues: Issues = [];
  const list = readList(body, [], issues);
  if (!list) return fail(issues);
  if (list.length > MAX_REORDER_ITEMS) reportAboveMax(issues, [], MAX_REORDER_ITEMS);
  const moves: Move[] = [];
  list.slice(0, MAX_REORDER_ITEMS).forEach((item, index) => {
    if (!isRecord(item)) return reportNotObject(issues, [index]);
    const idValue = fieldOf(item, 'id');
    if (isAbsent(idValue)) return reportRequired(issues, [index, 'id']);
    const id = readSnowflake(idValue, [index, 'id'], issues);
    const move: Move = { id: id ?? '0' };
    const position = fieldOf(item, 'position');
    const target = isAbsent(position)
      ? undefined
      : boundedInteger(position, [index, 'position'], 0, MAX_POSITION, issues);
    if (target !== undefined) move.position = target;
    if (withParents) readParentMove(item, index, move, issues);
    moves.push(move);
  });
  return issues.length > 0 ? fail(issues) : ok(moves);
}

function readParentMove(item: Readonly<Record<string, unknown>>, index: number, move: Move, issues: Issues): void {
  if (Object.hasOwn(item, 'parent_id')) {
    const parent = item.parent_id;
    move.parent_id = parent === null ? null : (readSnowflake(parent, [index, 'parent_id'], issues) ?? null);
  }
  const lock = fieldOf(item, 'lock_permissions');
  if (!isAbsent(lock)) move.lock_permissions = readBoolean(lock, [index, 'lock_permissions'], issues) ?? false;
}

/** 50035 at each move naming an id `known` does not hold. */
export function unknownMoveIssues(moves: readonly Move[], known: ReadonlySet<string>, what: string): Issues {
  const issues: Issues = [];
  moves.forEach((move, index) => {
    if (!known.has(move.id)) report(issues, [index, 'id'], GUILD_STRUCTURE_UNKNOWN_ID, `Unknown ${what}: ${move.id}`);
  });
  return issues;
}

/**
 * `items` (in ascending position order) with the targets applied: each named item goes to its
 * target index, every other item stays at its own; an item moved up sits above one that stayed
 * at the same index, one moved down below it.
 */
export function reorder<T>(items: readonly T[], idOf: (item: T) => string, targets: ReadonlyMap<string, number>): T[] {
  const keyed = items.map((item, index) => {
    const target = targets.get(idOf(item)) ?? index;
    return { item, index, target, shift: Math.sign(target - index) };
  });
  keyed.sort((a, b) => a.target - b.target || a.shift - b.shift || a.index - b.index);
  return keyed.map((k) => k.item);
}
