/**
 * A guild's member by user id without scanning the member list: the store hands out guilds deeply
 * frozen, so the index built from one member list holds for as long as that list lives (and goes
 * with it, through the WeakMap). A list that is not frozen (a test's fixture, a guild built per
 * request) is scanned, as it may still change.
 */
import { memoizeFrozen } from '../frozen-memo.js';
import type { Member } from './types.js';

const indexes = new WeakMap<readonly Member[], ReadonlyMap<string, Member>>();

function indexOf(members: readonly Member[]): ReadonlyMap<string, Member> {
  return new Map(members.map((member) => [member.user_id, member]));
}

/** The guild's member with this user id, or undefined. */
export function memberOf(guild: { readonly members: readonly Member[] }, userId: string): Member | undefined {
  const { members } = guild;
  if (!Object.isFrozen(members)) return members.find((member) => member.user_id === userId);
  return memoizeFrozen(indexes, members, indexOf).get(userId);
}

/** True when the user is a member of the guild (bots through installs are not: see guild-members.ts). */
export function isMember(guild: { readonly members: readonly Member[] }, userId: string): boolean {
  return memberOf(guild, userId) !== undefined;
}

/** Snowflakes in numeric order without BigInt: a shorter id is smaller, equal lengths compare as text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

const sortedLists = new WeakMap<readonly Member[], readonly Member[]>();

function sortedById(members: readonly Member[]): readonly Member[] {
  return [...members].sort((a, b) => compareIds(a.user_id, b.user_id));
}

/**
 * Up to `limit` members in ascending user id order, starting after the user id `after` (null: from
 * the first), as v10 pages a guild's member list. The order is computed once per frozen list.
 */
export function membersPage(
  guild: { readonly members: readonly Member[] },
  after: string | null,
  limit: number,
): Member[] {
  const sorted = Object.isFrozen(guild.members)
    ? memoizeFrozen(sortedLists, guild.members, sortedById)
    : sortedById(guild.members);
  let low = 0;
  let high = sorted.length;
  if (after !== null) {
    // The first member whose id is greater than `after`.
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareIds(sorted[middle]!.user_id, after) <= 0) low = middle + 1;
      else high = middle;
    }
  }
  return sorted.slice(low, low + limit);
}
