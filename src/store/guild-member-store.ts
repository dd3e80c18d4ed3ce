/**
 * A guild's members as rows of their own (one per guild and user), not inside the guild's
 * document: a member write touches one row, and a read of a guild names the members it needs, so
 * neither costs more in a guild of 100,000 members than in one of 10 (docs/decisions.md, "Members
 * as rows"). Part of WorldStore; the guild's document itself is written by `putGuild`.
 */
import type { Guild, Member } from '../core/world/types.js';

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
   * does not exist.
   */
  putGuildMember(guildId: string, member: Member): Promise<boolean>;
  /** False when the guild or the member does not exist. */
  deleteGuildMember(guildId: string, userId: string): Promise<boolean>;
}
