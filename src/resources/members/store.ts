/**
 * A guild's members as rows of their own (one per guild and user), not inside the guild's
 * document: a member write touches one row, and a read of a guild names the members it needs, so
 * neither costs more in a guild of 100,000 members than in one of 10 (docs/decisions.md, "Members
 * as rows"). `Store.members`; the guild's document itself is written by the world's `putGuild`.
 */
import type { AuditEntry } from '../audit-log/rules.js';
import type { Guild, Member } from '../../core/world/types.js';

/** A user banned from a guild: kept by guild and user, with the reason given (v10's ban object). */
export interface GuildBan {
  guild_id: string;
  user_id: string;
  reason: string | null;
}

/** A page of a guild's bans: ascending by user id, after or before a user id. */
export interface BanPage {
  before: string | null;
  after: string | null;
  limit: number;
}

/** A member write named a user banned from the guild: nothing was written. */
export class BannedUserError extends Error {
  constructor(
    readonly guildId: string,
    readonly userId: string,
  ) {
    super(`user ${userId} is banned from guild ${guildId}`);
    this.name = 'BannedUserError';
  }
}

export interface GuildMemberStore {
  /**
   * The guild with only the members of `userIds` that exist (in the guild's member order); the
   * other members are not read. Null when there is no such guild. For reading only: writing the
   * result back with `putGuild` would drop the members left out.
   */
  getGuildWithMembers(guildId: string, userIds: readonly string[]): Promise<Guild | null>;
  /** The guild a channel (or thread) belongs to, with only the members of `userIds`, as above. */
  findGuildByChannelWithMembers(channelId: string, userIds: readonly string[]): Promise<Guild | null>;
  /** The ids of the guilds whose members include this user (ascending). */
  guildIdsOfMember(userId: string): Promise<string[]>;
  /**
   * Adds the member to the guild, or replaces the member with its user id where it stands; the
   * guild's other members are neither read nor written. False (nothing written) when the guild
   * does not exist; rejects with BannedUserError (nothing written) when the user is banned there.
   */
  putGuildMember(guildId: string, member: Member): Promise<boolean>;
  /**
   * Replaces a member that is in the guild, with its audit entries in the same transaction. False
   * (nothing written) when the guild or the member does not exist.
   */
  updateGuildMember(guildId: string, member: Member, audit?: readonly AuditEntry[]): Promise<boolean>;
  /**
   * False when the guild or the member does not exist; else the member is removed, with its audit
   * entry (when given) in the same transaction.
   */
  deleteGuildMember(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean>;

  /**
   * Sets the nickname of the app's bot in the guild (kept in its install: the bot's member is the
   * install's), with its audit entry (when given) in the same transaction; the guild's other
   * fields and its members are not written. False (nothing written) when the guild does not exist
   * or the app is not installed there.
   */
  setBotNick(guildId: string, applicationId: string, nick: string | null, audit?: AuditEntry): Promise<boolean>;

  /**
   * Bans the user: the ban written (an existing one's reason replaced) and the member, if any,
   * removed, in one transaction. Null (nothing written) when the guild does not exist; else the
   * member removed (null: the user was not a member). The audit entry, when given, is written in
   * the same transaction.
   */
  banGuildMember(ban: GuildBan, audit?: AuditEntry): Promise<{ removed: Member | null } | null>;
  getGuildBan(guildId: string, userId: string): Promise<GuildBan | null>;
  /** Ascending by user id: the first `limit` after `after`, or the last `limit` before `before`. */
  listGuildBans(guildId: string, page: BanPage): Promise<GuildBan[]>;
  /** False when there is no such ban; else it is lifted, with its audit entry (when given) in the same transaction. */
  deleteGuildBan(guildId: string, userId: string, audit?: AuditEntry): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** A guild's members and bans, each a row of its own; the guild read with the members named. */
    readonly members: GuildMemberStore;
  }
}
