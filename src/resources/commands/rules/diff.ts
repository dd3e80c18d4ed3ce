/**
 * What a bulk overwrite would do, without doing it: the planner's answer over the scope's state
 * (src/core/commands/plans.ts) turned into a diff: commands added, changed (with the paths of the
 * fields that differ), unchanged and removed, the ids kept, the version bumps, and the daily
 * creates it would use. `PUT .../commands?dry_run=true` answers with it, and `slashd diff` builds
 * the same from any v10 server's list.
 */
import {
  canonicalJson,
  type CommandDefinition,
  type CommandScope,
  type StoredCommand,
} from '../../../core/commands/model.js';
import type { ScopeState } from './mutation.js';
import { isRecord, type JsonRecord } from '../../../core/io/read.js';
import { DAILY_COMMAND_CREATES_MAX, planBulkOverwrite, type BulkEntry } from './plans.js';

/** A command of the diff: its id (null for one the overwrite would create), name and type. */
export interface CommandRef {
  readonly id: string | null;
  readonly name: string;
  readonly type: number;
}

export interface ChangedCommand extends CommandRef {
  readonly id: string;
  /** Paths of the fields that differ (`description`, `options[0].name_localizations.fr`). */
  readonly fields: readonly string[];
  /** The version it has now; the overwrite gives it a new one. */
  readonly version: string;
}

export interface BulkOverwriteDiff {
  readonly added: readonly CommandRef[];
  readonly changed: readonly ChangedCommand[];
  readonly unchanged: readonly CommandRef[];
  readonly removed: readonly CommandRef[];
  /** Ids of the stored commands the overwrite keeps (changed or not), in the list's order. */
  readonly ids_kept: readonly string[];
  /** How many commands would get a new version (every changed one). */
  readonly version_bumps: number;
  readonly daily_creates: {
    /** Creates the overwrite would count toward the scope's daily limit. */
    readonly would_use: number;
    /** Counted today so far; null when unknown (another server's counter cannot be read). */
    readonly used_today: number | null;
    /** Left after the overwrite; null when unknown, or with no limit. */
    readonly left_after: number | null;
    /** The daily limit; null when the server has none (`--daily-command-creates off`). */
    readonly limit: number | null;
  };
  /** Whether applying it would change anything. */
  readonly changes: boolean;
}

/** A stand-in for the ids the planner would draw: a dry run reports no new id. */
const NO_ID = '0';

function refOf(id: string | null, definition: CommandDefinition): CommandRef {
  return { id, name: definition.name, type: definition.type };
}

function isRecordList(value: unknown): value is JsonRecord[] {
  return Array.isArray(value) && (value as unknown[]).every(isRecord);
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The paths at which two JSON values differ, down to the smallest differing field; an absent
 * field and a null one are the same (as the stored definition has them).
 */
export function changedPaths(before: unknown, after: unknown, path = ''): string[] {
  if (same(before, after)) return [];
  // Lists of objects (options, choices) are followed item by item; a list of plain values
  // (`contexts`, `channel_types`) changed as a whole.
  if (isRecordList(before) && isRecordList(after)) {
    const paths: string[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      paths.push(...changedPaths(before[i], after[i], childPath(path, i)));
    }
    return paths;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => changedPaths(before[key], after[key], childPath(path, key)));
  }
  return [path];
}

/**
 * The diff of overwriting the scope with `entries`. `createsToday` null: the counter is unknown
 * (the limit is then checked as if nothing had been created today). Throws as the overwrite
 * would (an entry point removed, too many commands, the daily limit reached).
 */
export function diffBulkOverwrite(
  scope: CommandScope,
  state: { readonly commands: readonly StoredCommand[]; readonly createsToday: number | null },
  entries: BulkEntry[],
  now: number,
  dailyCreatesMax: number = DAILY_COMMAND_CREATES_MAX,
): BulkOverwriteDiff {
  const planState: ScopeState = { commands: state.commands, createsToday: state.createsToday ?? 0 };
  const { mutation, result } = planBulkOverwrite(
    { scope, nextId: () => NO_ID, now, dailyCreatesMax },
    planState,
    entries,
  );
  const stored = new Map(state.commands.map((command) => [command.id, command]));
  const inserted = new Set(mutation.insert);
  const added: CommandRef[] = [];
  const changed: ChangedCommand[] = [];
  const unchanged: CommandRef[] = [];
  const idsKept: string[] = [];
  for (const command of result) {
    if (inserted.has(command)) {
      added.push(refOf(null, command.definition));
      continue;
    }
    idsKept.push(command.id);
    const before = stored.get(command.id)!;
    if (before === command) unchanged.push(refOf(command.id, command.definition));
    else {
      changed.push({
        id: command.id,
        name: command.definition.name,
        type: command.definition.type,
        fields: changedPaths(before.definition, command.definition),
        version: before.version,
      });
    }
  }
  const removed = mutation.delete.map((id) => refOf(id, stored.get(id)!.definition));
  const usedToday = state.createsToday;
  return {
    added,
    changed,
    unchanged,
    removed,
    ids_kept: idsKept,
    version_bumps: changed.length,
    daily_creates: {
      would_use: mutation.countedCreates,
      used_today: usedToday,
      // No limit (`--daily-command-creates off`): nothing is left or counted against one.
      left_after:
        usedToday === null || !Number.isFinite(dailyCreatesMax)
          ? null
          : dailyCreatesMax - usedToday - mutation.countedCreates,
      limit: Number.isFinite(dailyCreatesMax) ? dailyCreatesMax : null,
    },
    changes: added.length + changed.length + removed.length > 0,
  };
}
