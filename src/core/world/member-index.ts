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
