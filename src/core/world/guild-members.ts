/**
 * Who is in a guild as v10 shows it: the world's members, and the bot user of every application
 * installed with the `bot` scope (v10 adds a bot to the guild as a member; an app installed with
 * `applications.commands` alone has no member). The REST reads, the gateway and the world diff all
 * take the member list from here, so that they agree on it.
 */
import { snowflakeTimestampMs } from '../snowflake.js';
import { BOT_SCOPE } from '../permissions/install.js';
import { botRoleIds } from '../permissions/role-hierarchy.js';
import type { Application, Guild, Member, User } from './types.js';
import { memberOf } from './member-index.js';

/** Where the users and applications a guild names are found. */
export interface WorldDirectory {
  user: (id: string) => User | undefined;
  application: (id: string) => Application | undefined;
}

/** A member and who it is: a world user, an app's bot, or nobody any more (a dangling id). */
export interface GuildMemberView {
  member: Member;
  user: User | undefined;
  /** Set when the member is an app's bot. */
  bot: Application | undefined;
}

/** A directory over lists already in memory (a whole world, or what a request loaded). */
export function directoryOf(users: readonly User[], applications: readonly Application[]): WorldDirectory {
  const byUser = new Map(users.map((u) => [u.id, u]));
  const byApp = new Map(applications.map((a) => [a.id, a]));
  return { user: (id) => byUser.get(id), application: (id) => byApp.get(id) };
}

/**
 * The applications whose bot is in the guild: installed with the `bot` scope, and still in the
 * world (a deleted application's install no longer puts a bot anywhere).
 */
export function guildBotIds(guild: Guild, directory: Pick<WorldDirectory, 'application'>): string[] {
  return guild.installs
    .filter((install) => install.scopes.includes(BOT_SCOPE) && directory.application(install.application_id))
    .map((install) => install.application_id);
}

/** True when the app's bot is a member of the guild (installed with the `bot` scope). */
export function botInGuild(guild: Guild, applicationId: string): boolean {
  return guild.installs.some((i) => i.application_id === applicationId && i.scopes.includes(BOT_SCOPE));
}

/**
 * The bot's member. Decision (docs/decisions.md, "Gateway and REST reads"): its roles are those the
 * world lists as the bot's (`bot_id`; else none, its install's bits standing for v10's managed bot
 * role), and it
 * joined when the guild was created (the guild id's time), the world keeping no install time.
 */
export function botMember(guild: Guild, applicationId: string): Member {
  return {
    user_id: applicationId,
    roles: botRoleIds(guild, applicationId),
    nick: guild.installs.find((install) => install.application_id === applicationId)?.nick ?? null,
    joined_at: new Date(snowflakeTimestampMs(guild.id)).toISOString(),
  };
}

/** One member by user id (a bot by its application id), or undefined. */
export function findGuildMember(guild: Guild, userId: string, directory: WorldDirectory): GuildMemberView | undefined {
  const member = memberOf(guild, userId);
  if (member) return { member, user: directory.user(userId), bot: undefined };
  const app = directory.application(userId);
  if (app && botInGuild(guild, userId)) return { member: botMember(guild, userId), user: undefined, bot: app };
  return undefined;
}

function byIdAscending(a: GuildMemberView, b: GuildMemberView): number {
  const x = BigInt(a.member.user_id);
  const y = BigInt(b.member.user_id);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Every member, users and bots, in ascending user id order (the order of v10's member list). */
export function guildMembers(guild: Guild, directory: WorldDirectory): GuildMemberView[] {
  const views: GuildMemberView[] = guild.members.map((member) => ({
    member,
    user: directory.user(member.user_id),
    bot: undefined,
  }));
  const present = new Set(guild.members.map((m) => m.user_id));
  for (const appId of guildBotIds(guild, directory)) {
    if (present.has(appId)) continue;
    views.push({ member: botMember(guild, appId), user: undefined, bot: directory.application(appId) });
  }
  return views.sort(byIdAscending);
}

/** The ids a guild's member list needs looked up: member user ids and installed applications. */
export function idsNamedBy(guild: Guild): { userIds: string[]; applicationIds: string[] } {
  return {
    userIds: guild.members.map((m) => m.user_id),
    applicationIds: guild.installs.map((i) => i.application_id),
  };
}
