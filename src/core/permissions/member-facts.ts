/**
 * Everything the command-permission engine reads of the world for one member in one channel,
 * as a short text: two scenes with the same facts get the same decision for every command of an
 * app (given the same app, commands and overwrites), whatever else differs in their guilds. The
 * member's own id is apart (`userId`): it matters only where an overwrite names that member, so
 * members with the same role set share the facts text, and with it the cached answer. The
 * command picker's answer cache (services/command-index-cache.ts) puts the facts in its key, so a
 * change of a role, a channel, the member or the user that could change a decision gives another
 * key, and one that could not (a message, an unrelated member) keeps the cached answer.
 *
 * Keep in step with what `AccessScene` and the rules of fast-access.ts read of the guild, the
 * member, the user and the channel (test/permissions-index-cache.test.ts holds them equal).
 */
import type { Channel, Guild, Member, User } from '../world/types.js';
import { channelPermissions, isAdministrator } from './channel-permissions.js';
import { governingChannel } from './channels.js';
import { everyoneId } from './command-permissions.js';

export interface MemberFacts {
  /** The facts as text but the member's id (see `memberFacts`). */
  readonly key: string;
  /** The member's user id: what USER overwrites name. */
  readonly userId: string;
  /** The member's permissions in the channel: `channelPermissions(guild, member, channel)`. */
  readonly channelBits: bigint;
}

/**
 * The facts, JSON-encoded (ids are client input: an encoding with no separator to forge):
 * the guild id (guild commands, @everyone and all-channels ids), the governing channel's id and
 * nsfw flag (channel overwrites, age restriction), the user's age verification (age restriction),
 * owner and administrator, the member's permissions in
 * the channel, and the member's distinct roles but @everyone, sorted (role overwrites: the role
 * rule does not depend on their order).
 */
export function memberFacts(guild: Guild, channel: Channel, member: Member, user: User): MemberFacts {
  const commandChannel = governingChannel(guild, channel);
  const everyone = everyoneId(guild.id);
  const roles = [...new Set(member.roles)].filter((roleId) => roleId !== everyone).sort();
  const channelBits = channelPermissions(guild, member, channel);
  const key = JSON.stringify([
    guild.id,
    commandChannel.id,
    Boolean(commandChannel.nsfw),
    Boolean(user.age_verified),
    member.user_id === guild.owner_id,
    isAdministrator(guild, member),
    channelBits.toString(),
    roles,
  ]);
  return { key, userId: member.user_id, channelBits };
}
