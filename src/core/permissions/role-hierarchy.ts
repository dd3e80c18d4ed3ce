/**
 * The role hierarchy. World roles have no `position` field, so slashd reads it from the order of
 * `guild.roles`, as the client lists roles: the first listed role is the highest, each next one is
 * lower, and @everyone (the role whose id is the guild id) is the lowest wherever it is listed.
 * In the example world that gives Admin > Moderator > Muted > @everyone.
 */
import type { Guild, Member } from '../world/types.js';

/** The position of @everyone: below every other role. */
export const EVERYONE_POSITION = 0;

/**
 * Where an app's bot stands when the world lists no role of it (no role with its `bot_id`): where
 * v10 creates the managed role, just above @everyone and below every role the world lists.
 */
export const UNLISTED_BOT_ROLE_POSITION = EVERYONE_POSITION + 0.5;

/** The hierarchy position of a role of the guild (higher is more powerful); null for an unknown role. */
export function rolePosition(guild: Guild, roleId: string): number | null {
  if (roleId === guild.id) return EVERYONE_POSITION;
  const ranked = guild.roles.filter((role) => role.id !== guild.id);
  const index = ranked.findIndex((role) => role.id === roleId);
  return index === -1 ? null : ranked.length - index;
}

/** The position of the member's highest role; @everyone's for a member without roles. */
export function highestRolePosition(guild: Guild, member: Member): number {
  let highest = EVERYONE_POSITION;
  for (const roleId of member.roles) {
    const position = rolePosition(guild, roleId);
    if (position !== null && position > highest) highest = position;
  }
  return highest;
}

/**
 * True when the member may manage the role: the owner manages every role; anyone else a role
 * strictly below their highest one. @everyone counts as manageable by everyone who gets this far
 * (the caller has already required MANAGE_ROLES), as v10 lets any role manager edit @everyone.
 */
export function canManageRole(guild: Guild, member: Member, roleId: string): boolean {
  if (member.user_id === guild.owner_id || roleId === guild.id) return true;
  const position = rolePosition(guild, roleId);
  return position !== null && position < highestRolePosition(guild, member);
}

/** The roles of the guild that are the app's bot's (v10's managed bot role, `bot_id`). */
export function botRoleIds(guild: Guild, applicationId: string): string[] {
  return guild.roles.filter((role) => role.bot_id === applicationId).map((role) => role.id);
}

/** The position of the app's bot's highest role: its listed bot role, else just above @everyone. */
export function botHighestRolePosition(guild: Guild, applicationId: string): number {
  let highest = UNLISTED_BOT_ROLE_POSITION;
  for (const roleId of botRoleIds(guild, applicationId)) {
    const position = rolePosition(guild, roleId);
    if (position !== null && position > highest) highest = position;
  }
  return highest;
}
