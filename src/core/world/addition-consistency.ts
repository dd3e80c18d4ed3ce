/**
 * The world-wide rules (consistency.ts) on an addition to the stored world, without reading the
 * whole world: the addition is checked together with the stored objects it refers to or collides
 * with (its context), and each issue names the place its object takes in the merged world (the
 * stored objects it keeps first, then the addition's), as a check of the whole merged world does,
 * so a refusal names the same paths.
 */
import type { Issue } from '../io/issue.js';
import { checkWorldConsistency } from './consistency.js';
import type { World } from './types.js';
import { WORLD_LISTS, type WorldCounts, type WorldList } from './world-change.js';

function isWorldList(segment: unknown): segment is WorldList {
  return (WORLD_LISTS as readonly unknown[]).includes(segment);
}

/** Each issue of a list's object moved by `shift(list, index)`; null drops it. */
function moved(issues: readonly Issue[], shift: (list: WorldList, index: number) => number | null): Issue[] {
  return issues.flatMap((found) => {
    const [list, index, ...rest] = found.path;
    if (!isWorldList(list) || typeof index !== 'number') return [found];
    const at = shift(list, index);
    return at === null ? [] : [{ ...found, path: [list, at, ...rest] }];
  });
}

/**
 * The rules broken by `addition` merged with `context` (stored objects, none of them replaced by
 * the addition), each at its object's index in the addition. The context's own objects are stored
 * already: what they break is not the addition's doing, and is not reported.
 */
export function checkAddition(addition: World, context: World): Issue[] {
  const combined = {
    applications: [...context.applications, ...addition.applications],
    users: [...context.users, ...addition.users],
    guilds: [...context.guilds, ...addition.guilds],
    oauth2_tokens: [...context.oauth2_tokens, ...addition.oauth2_tokens],
    // Group DMs are checked alone (their ids against each other, their recipients against users).
    ...(addition.group_dms === undefined ? {} : { group_dms: addition.group_dms }),
  };
  return moved(checkWorldConsistency(combined), (list, index) => {
    const own = index - context[list].length;
    return own >= 0 ? own : null;
  });
}

/** Issues at the addition's indexes, moved to the merged world's: after the `kept` stored objects of each list. */
export function atMergedIndexes(issues: readonly Issue[], kept: WorldCounts): Issue[] {
  return moved(issues, (list, index) => kept[list] + index);
}
