/**
 * A guild's roles as a bot changes them (v10 Guild Role endpoints): what a body may hold, and each
 * change as the roles after it, refused by v10's rules (MANAGE_ROLES; only roles below one's highest
 * are created, edited, moved or deleted there; one grants only permissions one has, unless an
 * administrator; @everyone is never deleted or moved). Pure: the store runs these as planners.
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { fieldOf, isAbsent, isRecord, type JsonRecord } from '../../core/io/read.js';
import { reportNotObject, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { MANAGE_ROLES, parsePermissions } from '../../core/permissions/bits.js';
import { rolePosition } from '../../core/permissions/role-hierarchy.js';
import type { Channel, Guild, Role } from '../../core/world/types.js';
import type { StructureActor } from '../guild-structure/rules/actor.js';
import {
  isBelowActor,
  requireGrantable,
  requireGuildPermission,
  requireManageableRole,
} from '../guild-structure/rules/actor.js';
import {
  boundedInteger,
  optionalBitSet,
  optionalBoolean,
  optionalInteger,
  optionalText,
} from '../guild-structure/rules/fields.js';
import { reorder, unknownMoveIssues, type Move } from '../guild-structure/rules/reorder.js';

/** The most roles a guild has, @everyone included (v10). */
export const MAX_GUILD_ROLES = 250;
/** The longest role name (v10). */
export const MAX_ROLE_NAME_LENGTH = 100;
/** The largest RGB color (v10). */
export const MAX_ROLE_COLOR = 0xffffff;
/** The name of a role created without one (v10). */
export const DEFAULT_ROLE_NAME = 'new role';

/** What a create or edit body sets; absent fields are left as they are (or default). */
export interface RoleFields {
  name?: string;
  permissions?: string;
  color?: number;
  hoist?: boolean;
  mentionable?: boolean;
}

/** The primary color of v10's `colors` object, which client libraries send instead of `color`. */
function readColors(body: JsonRecord, issues: Issues): number | undefined {
  const colors = fieldOf(body, 'colors');
  if (isAbsent(colors)) return optionalInteger(body, 'color', 0, MAX_ROLE_COLOR, issues);
  if (!isRecord(colors)) {
    reportNotObject(issues, ['colors']);
    return undefined;
  }
  const primary = fieldOf(colors, 'primary_color');
  return isAbsent(primary)
    ? undefined
    : boundedInteger(primary, ['colors', 'primary_color'], 0, MAX_ROLE_COLOR, issues);
}

/** The body of `POST /guilds/{g}/roles` and `PATCH /guilds/{g}/roles/{r}` (absent: an empty body). */
export function readRoleBody(body: unknown): Result<RoleFields> {
  const issues: Issues = [];
  if (body === undefined || body === null) return ok({});
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const fields: RoleFields = {};
  const name = optionalText(body, 'name', 1, MAX_ROLE_NAME_LENGTH, issues);
  if (name !== undefined) fields.name = name;
  const permissions = optionalBitSet(body, 'permissions', issues);
  if (permissions !== undefined) fields.permissions = permissions;
  const color = readColors(body, issues);
  if (color !== undefined) fields.color = color;
  const hoist = optionalBoolean(body, 'hoist', issues);
  if (hoist !== undefined) fields.hoist = hoist;
  const mentionable = optionalBoolean(body, 'mentionable', issues);
  if (mentionable !== undefined) fields.mentionable = mentionable;
  return issues.length > 0 ? fail(issues) : ok(fields);
}

/** The role with `fields` written in; color, hoist and mentionable kept only when set. */
function withFields(role: Role, fields: RoleFields): Role {
  const next: Role = { ...role };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.permissions !== undefined) next.permissions = fields.permissions;
  if (fields.color !== undefined) next.color = fields.color;
  if (fields.hoist !== undefined) next.hoist = fields.hoist;
  if (fields.mentionable !== undefined) next.mentionable = fields.mentionable;
  if (next.color === 0) delete next.color;
  if (next.hoist === false) delete next.hoist;
  if (next.mentionable === false) delete next.mentionable;
  return next;
}

/** Bits the change adds to the role: what the actor must hold to grant. */
function addedBits(before: string, after: string | undefined): bigint {
  return after === undefined ? 0n : parsePermissions(after) & ~parsePermissions(before);
}

/** The roles with a new one at position 1 (v10: just above @everyone, below every other role). */
export function createRole(guild: Guild, actor: StructureActor, id: string, fields: RoleFields): Role[] {
  requireGuildPermission(actor, MANAGE_ROLES);
  if (guild.roles.length >= MAX_GUILD_ROLES) throw apiError('MaxGuildRoles', { params: { limit: MAX_GUILD_ROLES } });
  requireGrantable(actor, addedBits('0', fields.permissions));
  const role = withFields({ id, name: DEFAULT_ROLE_NAME, permissions: '0' }, fields);
  return withRanked(guild, [...guild.roles.filter((r) => r.id !== guild.id), role]);
}

/**
 * The guild's roles with those but @everyone in the order of `ranked` (highest first), @everyone
 * kept where the list has it (it is the lowest wherever it stands): a world's order stays as written.
 */
function withRanked(guild: Guild, ranked: readonly Role[]): Role[] {
  const rest = [...ranked];
  const roles = guild.roles.flatMap((role) => (role.id === guild.id ? [role] : rest.splice(0, 1)));
  return [...roles, ...rest];
}

export function findRole(guild: Guild, roleId: string): Role {
  const role = guild.roles.find((r) => r.id === roleId);
  if (!role) throw apiError('UnknownRole');
  return role;
}

export function editRole(guild: Guild, actor: StructureActor, roleId: string, fields: RoleFields): Role[] {
  requireGuildPermission(actor, MANAGE_ROLES);
  const role = findRole(guild, roleId);
  requireManageableRole(guild, actor, roleId);
  requireGrantable(actor, addedBits(role.permissions, fields.permissions));
  return guild.roles.map((r) => (r.id === roleId ? withFields(r, fields) : r));
}

/** The roles and channels without the role: no channel keeps an overwrite for it. */
export function deleteRole(
  guild: Guild,
  actor: StructureActor,
  roleId: string,
): { roles: Role[]; channels: Channel[] } {
  requireGuildPermission(actor, MANAGE_ROLES);
  const role = findRole(guild, roleId);
  // v10 answers both with 50028: @everyone is every guild's, a bot's role goes with its bot.
  if (roleId === guild.id || role.bot_id !== undefined) throw apiError('InvalidRole');
  requireManageableRole(guild, actor, roleId);
  const channels = guild.channels.map((channel) =>
    channel.permission_overwrites.some((o) => o.type === 0 && o.id === roleId)
      ? { ...channel, permission_overwrites: channel.permission_overwrites.filter((o) => o.id !== roleId) }
      : channel,
  );
  return { roles: guild.roles.filter((r) => r.id !== roleId), channels };
}

/**
 * The roles reordered: positions are v10's (1 just above @everyone, which stays at 0). A role
 * whose position changes must be below the actor's highest, and so must the position it goes to.
 */
export function reorderRoles(guild: Guild, actor: StructureActor, moves: readonly Move[]): Role[] {
  requireGuildPermission(actor, MANAGE_ROLES);
  const issues = unknownMoveIssues(moves, new Set(guild.roles.map((r) => r.id)), 'role');
  if (issues.length > 0) throw invalidFormBody(issues);
  const ranked = guild.roles.filter((r) => r.id !== guild.id);
  // Ascending: index 0 is position 1.
  const ascending = [...ranked].reverse();
  const targets = new Map<string, number>();
  for (const move of moves) {
    const current = rolePosition(guild, move.id) ?? 0;
    if (move.position === undefined || move.position === current) continue;
    if (move.id === guild.id) throw apiError('InvalidRole');
    requireManageableRole(guild, actor, move.id);
    if (!isBelowActor(actor, move.position)) throw apiError('MissingPermissions');
    targets.set(move.id, Math.max(0, move.position - 1));
  }
  return withRanked(guild, reorder(ascending, (r) => r.id, targets).reverse());
}
