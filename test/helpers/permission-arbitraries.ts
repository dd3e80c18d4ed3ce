/**
 * fast-check generators of permission inputs, shared by the engine's properties and the fast
 * path's: bit sets, channel overwrites, default_member_permissions and command overwrites, each
 * over the ids a test names.
 */
import fc from 'fast-check';
import { ALL } from '../../src/core/permissions/bits.js';
import type { CommandPermission } from '../../src/core/permissions/command-permissions.js';
import type { PermissionOverwrite } from '../../src/core/world/types.js';
import { overwrite } from '../permissions-fixtures.js';

/** Any combination of `flags`, as one bit set. */
export function bitSetOf(flags: readonly bigint[]): fc.Arbitrary<bigint> {
  return fc.subarray([...flags]).map((chosen) => chosen.reduce((all, flag) => all | flag, 0n));
}

/**
 * Channel overwrites for some of the roles and members (an id at most once): each allows some of
 * `bits` and denies some of them, or everything.
 */
export function channelOverwritesOf(
  roleIds: readonly string[],
  userIds: readonly string[],
  bits: fc.Arbitrary<bigint>,
): fc.Arbitrary<PermissionOverwrite[]> {
  return fc
    .uniqueArray(
      fc.record({
        id: fc.constantFrom(...roleIds, ...userIds),
        allow: bits,
        deny: fc.oneof(bits, fc.constant(ALL)),
      }),
      { selector: (entry) => entry.id, maxLength: 5 },
    )
    .map((entries) => entries.map((e) => overwrite(e.id, userIds.includes(e.id) ? 1 : 0, e.allow, e.deny)));
}

/** default_member_permissions: null, '0', some of `bits`, everything, and then any of `malformed`. */
export function defaultMemberPermissionsOf(
  bits: fc.Arbitrary<bigint>,
  malformed: readonly string[] = [],
): fc.Arbitrary<string | null> {
  const valid = [fc.constant(null), fc.constant('0'), bits.map((b) => b.toString()), fc.constant(ALL.toString())];
  return malformed.length > 0 ? fc.oneof(...valid, fc.constantFrom(...malformed)) : fc.oneof(...valid);
}

/** The ids command overwrites may name, by kind. */
export interface OverwriteTargets {
  roles: readonly string[];
  users: readonly string[];
  channels: readonly string[];
}

/**
 * One command overwrite: a role, user or channel overwrite naming an id of its kind, and with
 * `mixed`, also one whose type and id disagree (what the reference must skip or match as stored).
 */
export function commandPermissionOf(targets: OverwriteTargets, mixed = false): fc.Arbitrary<CommandPermission> {
  const { roles, users, channels } = targets;
  const byKind = [
    fc.record({ id: fc.constantFrom(...roles), type: fc.constant(1 as const), permission: fc.boolean() }),
    fc.record({ id: fc.constantFrom(...users), type: fc.constant(2 as const), permission: fc.boolean() }),
    fc.record({ id: fc.constantFrom(...channels), type: fc.constant(3 as const), permission: fc.boolean() }),
  ];
  if (!mixed) return fc.oneof(...byKind);
  return fc.oneof(
    ...byKind,
    fc.record({
      id: fc.constantFrom(...roles, ...users, ...channels),
      type: fc.constantFrom(1 as const, 2 as const, 3 as const),
      permission: fc.boolean(),
    }),
  );
}
