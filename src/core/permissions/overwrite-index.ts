/**
 * Command permission overwrites indexed by what they name, so the fast path of the engine
 * (fast-access.ts) answers "the overwrite for this channel / member / role" with a map lookup
 * instead of a scan of up to 100 overwrites, several times per command.
 *
 * The index gives exactly the answers of the reference engine's scans (engine.ts): the first
 * overwrite of a type and id where it uses `findOverwrite` (user, channel, @everyone), and
 * "any of them allows" where it collects every matching overwrite (roles).
 */
import { memoizeFrozen } from '../frozen-memo.js';
import { CommandPermissionType, type CommandPermission, type GuildCommandPermissions } from './command-permissions.js';

/** What the ROLE overwrites for one id say. */
export interface RoleOverwrites {
  /** The first one's permission: what `findOverwrite` returns (the @everyone rule reads it). */
  readonly first: boolean;
  /** True when any of them allows: the role rule lets one allow win. */
  readonly anyAllows: boolean;
}

/** One list of overwrites (a command's, or the app-level one), by type and id. */
export interface OverwriteIndex {
  readonly channels: ReadonlyMap<string, boolean>;
  readonly users: ReadonlyMap<string, boolean>;
  readonly roles: ReadonlyMap<string, RoleOverwrites>;
}

const EMPTY_LIST: readonly CommandPermission[] = Object.freeze([]);

/** The index of no overwrites: what `null` and `[]` stand for. */
export const EMPTY_OVERWRITE_INDEX: OverwriteIndex = Object.freeze({
  channels: new Map<string, boolean>(),
  users: new Map<string, boolean>(),
  roles: new Map<string, RoleOverwrites>(),
});

/** Records `permission` under `id` unless an earlier overwrite of the same type already did. */
function keepFirst(map: Map<string, boolean>, id: string, permission: boolean): void {
  if (!map.has(id)) map.set(id, permission);
}

function addRole(map: Map<string, RoleOverwrites>, id: string, permission: boolean): void {
  const earlier = map.get(id);
  // Only the first one's permission is kept as `first`; every one of them counts towards `anyAllows`.
  const first = earlier ? earlier.first : permission;
  map.set(id, { first, anyAllows: (earlier?.anyAllows ?? false) || permission });
}

function buildOverwriteIndex(overwrites: readonly CommandPermission[]): OverwriteIndex {
  if (overwrites.length === 0) return EMPTY_OVERWRITE_INDEX;
  const channels = new Map<string, boolean>();
  const users = new Map<string, boolean>();
  const roles = new Map<string, RoleOverwrites>();
  for (const { id, type, permission } of overwrites) {
    // Types other than the three are never matched by the reference's scans: they are skipped.
    if (type === CommandPermissionType.Channel) keepFirst(channels, id, permission);
    else if (type === CommandPermissionType.User) keepFirst(users, id, permission);
    else if (type === CommandPermissionType.Role) addRole(roles, id, permission);
  }
  return { channels, users, roles };
}

const overwriteIndexes = new WeakMap<readonly CommandPermission[], OverwriteIndex>();

/** The index of a list of overwrites; built once per stored (frozen) list. */
export function indexOverwrites(overwrites: readonly CommandPermission[] | null): OverwriteIndex {
  if (overwrites === null || overwrites.length === 0) return EMPTY_OVERWRITE_INDEX;
  return memoizeFrozen(overwriteIndexes, overwrites, buildOverwriteIndex);
}

/**
 * One app's permissions objects in one guild, by id (a command id, or the app id for the app-level
 * overwrites): what `overwritesFor` finds, without a scan per command.
 */
export interface GuildPermissionsIndex {
  /** The overwrites stored under `id`; null when no object has that id. */
  overwritesOf(id: string): readonly CommandPermission[] | null;
}

function buildGuildPermissionsIndex(
  guildPermissions: readonly GuildCommandPermissions[],
  applicationId: string,
  guildId: string,
): GuildPermissionsIndex {
  const byId = new Map<string, readonly CommandPermission[]>();
  for (const object of guildPermissions) {
    // Other apps' and other guilds' objects are not this app's overwrites here.
    if (object.application_id !== applicationId || object.guild_id !== guildId) continue;
    // The first object with an id wins, as `find` would return it.
    if (!byId.has(object.id)) byId.set(object.id, object.permissions ?? EMPTY_LIST);
  }
  return { overwritesOf: (id) => byId.get(id) ?? null };
}

/** Per stored list: one index per (app, guild) it was filtered for; in practice a single one. */
const guildPermissionsIndexes = new WeakMap<readonly GuildCommandPermissions[], Map<string, GuildPermissionsIndex>>();

/** The app's permissions objects of `guildPermissions` in the guild, indexed by id. */
export function indexGuildPermissions(
  guildPermissions: readonly GuildCommandPermissions[],
  applicationId: string,
  guildId: string,
): GuildPermissionsIndex {
  const byScope = memoizeFrozen(
    guildPermissionsIndexes,
    guildPermissions,
    () => new Map<string, GuildPermissionsIndex>(),
  );
  const scopeKey = `${applicationId}/${guildId}`;
  let index = byScope.get(scopeKey);
  if (!index) {
    index = buildGuildPermissionsIndex(guildPermissions, applicationId, guildId);
    byScope.set(scopeKey, index);
  }
  return index;
}

const namedUserSets = new WeakMap<readonly GuildCommandPermissions[], ReadonlySet<string>>();

/**
 * The user ids that USER overwrites of `guildPermissions` name (any command's, any level): a
 * member named by none of them is decided by its role set alone.
 */
export function namedUsers(guildPermissions: readonly GuildCommandPermissions[]): ReadonlySet<string> {
  return memoizeFrozen(namedUserSets, guildPermissions, () => {
    const ids = new Set<string>();
    for (const object of guildPermissions) {
      for (const { id, type } of object.permissions ?? EMPTY_LIST) {
        if (type === CommandPermissionType.User) ids.add(id);
      }
    }
    return ids;
  });
}
