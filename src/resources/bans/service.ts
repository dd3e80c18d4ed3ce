/**
 * Guild bans for bots (v10 Guild Ban endpoints): ban (removing the member in the same write),
 * read, list, lift, and bulk ban; each checked against BAN_MEMBERS and the role hierarchy, and told
 * to the guild's bots (GUILD_BAN_ADD/REMOVE under GUILD_MODERATION, GUILD_MEMBER_REMOVE).
 */
import type { APIBan, APIUser, RESTPostAPIGuildBulkBanResult } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import type { WirePayload } from '../../core/wire-payload.js';
import { botBanRefusal, botMayBan, readBanBody, readBulkBanBody } from './rules.js';
import { refuse } from '../../core/refusals.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { botInGuild } from '../../core/world/guild-members.js';
import type { Guild } from '../../core/world/types.js';
import type { BanPage, GuildBan } from '../members/store.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { AuditLog } from '../audit-log/service.js';
import { AuditLogEvent } from '../audit-log/rules.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';

/**
 * A ban as slashd answers it: v10's, but the user of a ban whose user the world no longer holds
 * is only its id (a ban outlives its user, and the read must not fail).
 */
type WireBan = Omit<APIBan, 'user'> & { user: APIUser | { id: string } };

/** The users and apps a ban names (`world`), and the guild's members and bans (`members`). */
export interface BansStore {
  readonly world: Pick<WorldStore, 'getUser' | 'getApplication'>;
  readonly members: Pick<
    GuildMemberStore,
    'getGuildWithMembers' | 'banGuildMember' | 'getGuildBan' | 'listGuildBans' | 'deleteGuildBan'
  >;
}

export class BansService {
  constructor(
    private readonly store: BansStore,
    private readonly events: WorldEvents,
    private readonly auditLog: AuditLog,
  ) {}

  /** The guild, holding the members of `userIds`, where the app's bot is. */
  private async botsGuild(applicationId: string, guildId: string, userIds: readonly string[]): Promise<Guild> {
    const guild = await this.store.members.getGuildWithMembers(guildId, userIds);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    return guild;
  }

  /** The user as a ban shows it: a world user or an app's bot; null for no one. */
  private wireUser(userId: string): Promise<WirePayload<APIUser> | null> {
    return wirePublicUserOrBot(this.store.world, userId);
  }

  private async wireBan(ban: GuildBan): Promise<WireBan> {
    return { reason: ban.reason, user: (await this.wireUser(ban.user_id)) ?? { id: ban.user_id } };
  }

  async ban(applicationId: string, guildId: string, userId: string, body: unknown, reason: string | null) {
    const request = readBanBody(body);
    if (!request.ok) throw invalidFormBody(request.issues);
    const guild = await this.botsGuild(applicationId, guildId, [userId]);
    const user = await this.wireUser(userId);
    if (!user) throw apiError('UnknownUser');
    const refusal = botBanRefusal(guild, applicationId, userId);
    if (refusal) refuse(refusal);
    // `delete_message_seconds` is checked, and nothing is deleted: docs/decisions.md, "Bans".
    await this.write(applicationId, guild.id, userId, user, reason);
  }

  /** The audit entry of a ban or its removal by the app's bot (v10: MEMBER_BAN_ADD, MEMBER_BAN_REMOVE). */
  private auditEntry(
    applicationId: string,
    guildId: string,
    userId: string,
    action: AuditLogEvent,
    reason: string | null,
  ) {
    return this.auditLog.entry({
      guild_id: guildId,
      user_id: applicationId,
      target_id: userId,
      action_type: action,
      reason,
    });
  }

  /** Writes one ban with its audit entry and tells the bots; false when the guild went meanwhile. */
  private async write(
    applicationId: string,
    guildId: string,
    userId: string,
    user: WirePayload<APIUser>,
    reason: string | null,
  ): Promise<boolean> {
    const audit = this.auditEntry(applicationId, guildId, userId, AuditLogEvent.MemberBanAdd, reason);
    const written = await this.store.members.banGuildMember({ guild_id: guildId, user_id: userId, reason }, audit);
    if (!written) return false;
    const events = [guildDispatch('GUILD_BAN_ADD', guildId, null, { guild_id: guildId, user })];
    if (written.removed) events.push(guildDispatch('GUILD_MEMBER_REMOVE', guildId, null, { guild_id: guildId, user }));
    this.events.publishAll(events);
    this.auditLog.announce(audit);
    return true;
  }

  async get(applicationId: string, guildId: string, userId: string): Promise<WireBan> {
    const guild = await this.botsGuild(applicationId, guildId, []);
    if (!botMayBan(guild, applicationId)) refuse('missing-permission');
    const ban = await this.store.members.getGuildBan(guild.id, userId);
    if (!ban) throw apiError('UnknownBan');
    return this.wireBan(ban);
  }

  async list(applicationId: string, guildId: string, page: BanPage): Promise<WireBan[]> {
    const guild = await this.botsGuild(applicationId, guildId, []);
    if (!botMayBan(guild, applicationId)) refuse('missing-permission');
    const bans = await this.store.members.listGuildBans(guild.id, page);
    const wire: WireBan[] = [];
    for (const ban of bans) wire.push(await this.wireBan(ban));
    return wire;
  }

  async unban(applicationId: string, guildId: string, userId: string, reason: string | null = null): Promise<void> {
    const guild = await this.botsGuild(applicationId, guildId, []);
    if (!botMayBan(guild, applicationId)) refuse('missing-permission');
    const audit = this.auditEntry(applicationId, guild.id, userId, AuditLogEvent.MemberBanRemove, reason);
    if (!(await this.store.members.deleteGuildBan(guild.id, userId, audit))) throw apiError('UnknownBan');
    const user = (await this.wireUser(userId)) ?? { id: userId };
    this.events.publishAll([guildDispatch('GUILD_BAN_REMOVE', guild.id, null, { guild_id: guild.id, user })]);
    this.auditLog.announce(audit);
  }

  /** v10: `{banned_users, failed_users}`; 500000 when no one could be banned. */
  async bulkBan(
    applicationId: string,
    guildId: string,
    body: unknown,
    reason: string | null,
  ): Promise<RESTPostAPIGuildBulkBanResult> {
    const request = readBulkBanBody(body);
    if (!request.ok) throw invalidFormBody(request.issues);
    const { userIds } = request.value;
    const guild = await this.botsGuild(applicationId, guildId, userIds);
    if (!botMayBan(guild, applicationId, true)) refuse('missing-permission');
    const banned: string[] = [];
    const failed: string[] = [];
    for (const userId of userIds) {
      const user = await this.wireUser(userId);
      const refusal = botBanRefusal(guild, applicationId, userId);
      const already = await this.store.members.getGuildBan(guild.id, userId);
      if (!user || refusal || already || !(await this.write(applicationId, guild.id, userId, user, reason))) {
        failed.push(userId);
      } else {
        banned.push(userId);
      }
    }
    if (banned.length === 0) throw apiError('BulkBanFailed');
    return { banned_users: banned, failed_users: failed };
  }
}
