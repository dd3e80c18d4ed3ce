/**
 * A change of the stored world as data: the objects to write and the ids to remove, computed from
 * the objects a change names and their stored versions (never the whole world), and the summary
 * an admin reply gives of it (docs/world.md, "What a change answers").
 */
import type { Application, Guild, OAuth2Token, User, World } from './types.js';

/** The lists of a world, in the order a world file has them. */
export const WORLD_LISTS = ['applications', 'users', 'guilds', 'oauth2_tokens'] as const;
export type WorldList = (typeof WORLD_LISTS)[number];

/** How many objects of each list. */
export type WorldCounts = Record<WorldList, number>;

/** Ids removed from each list (an OAuth2 token by its access token). */
export type WorldRemovals = Record<WorldList, string[]>;

export interface WorldChange {
  /** The objects written: new ones and those whose stored version differs (group DMs: every one named). */
  put: World;
  remove: WorldRemovals;
  /** A replacement: the stored group DMs become exactly `put.group_dms`. */
  replaceGroupDms?: boolean;
}

/** What a change did, as the admin API answers it: ids (a token's count, never its secret). */
export interface WorldChangeSummary {
  changed: { applications: string[]; users: string[]; guilds: string[]; oauth2_tokens: number };
  /** Only a replacement (a world file's import) removes. */
  removed?: { applications: string[]; users: string[]; guilds: string[]; oauth2_tokens: number };
  /** Objects named by the change that were stored exactly so already: nothing was written for them. */
  unchanged: WorldCounts;
}

/**
 * A world file read lazily: its mark is known at once, its digest and its world only when the
 * import needs them (src/world/world-file.ts).
 */
export interface WorldFileSource {
  /**
   * What stands for the file's bytes without reading them (its size, modification and change
   * times, inode, and the slashd reading it); null when the file changed too lately for its times
   * to tell a later change apart. A file with the mark recorded at the last import is taken as it.
   */
  mark: string | null;
  /** The digest of the file's bytes (and of the slashd that reads them): reads and hashes the file. */
  digest: () => string;
  /** The file's world, checked; throws naming each problem when it is not one. */
  read: () => World;
}

/** What an import records of its file (the store keeps it until the world is written otherwise). */
export interface WorldFileRecord {
  digest: string;
  mark: string | null;
}

/** The record as the store keeps it: one text, the digest first (an older slashd's record is the digest alone). */
export function worldFileRecordText(record: WorldFileRecord): string {
  return record.mark === null ? record.digest : `${record.digest} ${record.mark}`;
}

export function readWorldFileRecord(text: string | null): WorldFileRecord | null {
  if (text === null) return null;
  const space = text.indexOf(' ');
  return space < 0 ? { digest: text, mark: null } : { digest: text.slice(0, space), mark: text.slice(space + 1) };
}

/** A change that writes nothing (an import of the file imported last, under a new mark). */
export function noChange(): WorldChange {
  return { put: emptyWorld(), remove: noRemovals() };
}

/** The stored versions of the objects a change names, by id (a token by its access token). */
export interface StoredVersions {
  applications: ReadonlyMap<string, Application>;
  users: ReadonlyMap<string, User>;
  guilds: ReadonlyMap<string, Guild>;
  oauth2_tokens: ReadonlyMap<string, OAuth2Token>;
}

/** The key of each list's objects. */
export const worldKey: { [L in WorldList]: (item: World[L][number]) => string } = {
  applications: (a) => a.id,
  users: (u) => u.id,
  guilds: (g) => g.id,
  oauth2_tokens: (t) => t.access_token,
};

export function emptyWorld(): World {
  return { applications: [], users: [], guilds: [], oauth2_tokens: [] };
}

function noRemovals(): WorldRemovals {
  return { applications: [], users: [], guilds: [], oauth2_tokens: [] };
}

/** JSON with every object's keys sorted: equal texts for equal values, whatever order keys were written in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether two world objects hold the same values (a stored one against one read from a body). */
export function sameWorldObject(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The objects of `list` that differ from their stored version (or have none), and how many do not. */
function changedOf<L extends WorldList>(
  list: L,
  items: readonly World[L][number][],
  stored: ReadonlyMap<string, World[L][number]>,
): { put: World[L][number][]; unchanged: number } {
  const key = worldKey[list];
  const put = items.filter((item) => {
    const before = stored.get(key(item));
    return before === undefined || !sameWorldObject(before, item);
  });
  return { put, unchanged: items.length - put.length };
}

/** An addition to the stored world (`POST /admin/world`): only what differs is written. */
export function additionChange(
  addition: World,
  stored: StoredVersions,
): { change: WorldChange; unchanged: WorldCounts } {
  const applications = changedOf('applications', addition.applications, stored.applications);
  const users = changedOf('users', addition.users, stored.users);
  const guilds = changedOf('guilds', addition.guilds, stored.guilds);
  const tokens = changedOf('oauth2_tokens', addition.oauth2_tokens, stored.oauth2_tokens);
  return {
    change: {
      put: {
        applications: applications.put,
        users: users.put,
        guilds: guilds.put,
        oauth2_tokens: tokens.put,
        // Few and small: every one named is written (an upsert by id).
        ...(addition.group_dms === undefined ? {} : { group_dms: addition.group_dms }),
      },
      remove: noRemovals(),
    },
    unchanged: {
      applications: applications.unchanged,
      users: users.unchanged,
      guilds: guilds.unchanged,
      oauth2_tokens: tokens.unchanged,
    },
  };
}

function byKey<L extends WorldList>(list: L, world: World): Map<string, World[L][number]> {
  const key = worldKey[list];
  return new Map((world[list] as World[L][number][]).map((item) => [key(item), item]));
}

/** The stored world becoming `next` (a world file's import): what differs is written, what `next` leaves out removed. */
export function replacementChange(stored: World, next: World): { change: WorldChange; unchanged: WorldCounts } {
  const { change, unchanged } = additionChange(next, {
    applications: byKey('applications', stored),
    users: byKey('users', stored),
    guilds: byKey('guilds', stored),
    oauth2_tokens: byKey('oauth2_tokens', stored),
  });
  for (const list of WORLD_LISTS) {
    const kept = byKey(list, next);
    const key = worldKey[list] as (item: World[WorldList][number]) => string;
    change.remove[list] = (stored[list] as World[WorldList][number][]).map(key).filter((id) => !kept.has(id));
  }
  change.put.group_dms = next.group_dms ?? [];
  change.replaceGroupDms = true;
  return { change, unchanged };
}

/** Whether the change writes or removes nothing. */
export function isEmptyChange(change: WorldChange): boolean {
  return (
    WORLD_LISTS.every((list) => change.put[list].length === 0 && change.remove[list].length === 0) &&
    (change.put.group_dms ?? []).length === 0 &&
    change.replaceGroupDms !== true
  );
}

/** The admin API's account of a change. */
export function summarize(change: WorldChange, unchanged: WorldCounts, withRemovals: boolean): WorldChangeSummary {
  const ids = (list: 'applications' | 'users' | 'guilds', from: World | WorldRemovals) =>
    (from[list] as (string | { id: string })[]).map((x) => (typeof x === 'string' ? x : x.id));
  const summary: WorldChangeSummary = {
    changed: {
      applications: ids('applications', change.put),
      users: ids('users', change.put),
      guilds: ids('guilds', change.put),
      oauth2_tokens: change.put.oauth2_tokens.length,
    },
    unchanged,
  };
  if (withRemovals) {
    summary.removed = {
      applications: change.remove.applications,
      users: change.remove.users,
      guilds: change.remove.guilds,
      oauth2_tokens: change.remove.oauth2_tokens.length,
    };
  }
  return summary;
}

/** `world` with the change applied: its objects replaced or added by id, the removed ones gone. */
export function applyChange(world: World, change: WorldChange): World {
  const next = emptyWorld();
  for (const list of WORLD_LISTS) {
    const key = worldKey[list] as (item: World[WorldList][number]) => string;
    const gone = new Set([...change.remove[list], ...(change.put[list] as World[WorldList][number][]).map(key)]);
    (next[list] as World[WorldList][number][]) = [
      ...(world[list] as World[WorldList][number][]).filter((item) => !gone.has(key(item))),
      ...(change.put[list] as World[WorldList][number][]),
    ];
  }
  return next;
}
