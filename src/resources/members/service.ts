/**
 * Guild members for bots (v10 Guild Member endpoints): edit (nickname, roles, timeout, voice
 * flags), add or remove one role, kick, search, and the bot's own nickname. Each checked against
 * the bot's permissions and the role hierarchy, written per member with its audit entries in one
 * transaction, and told to the guild's bots (GUILD_MEMBER_UPDATE/REMOVE under GUILD_MEMBERS).
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import type { Issue } from '../../core/io/issue.js';
import type { Result } from '../../core/io/result.js';
import { AuditLogEvent, type AuditEntry, type AuditEntryInput } from '../audit-log/rules.js';
import { readMemberEdit, readOwnNickEdit, readSearchQuery, type MemberEdit } from './rules/member-edits.js';
import {
  botMayManageRole,
  editedMember,
  kickRefusal,
  memberEditAudit,
  memberEditRefusal,
  memberUpdateChanges,
  roleChanges,
  withoutEveryone,
} from './rules/member-rules.js';
import { CHANGE_NICKNAME, hasAll } from '../../core/permissions/bits.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { botUsername } from '../../core/world/wire.js';
import { botInGuild, botMember, guildMembers, type GuildMemberView } from '../../core/world/guild-members.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Guild, Member } from '../../core/world/types.js';
import {
  appBasePermissions,
  toWireGuildMember,
  toWireMemberUser,
  type WireGuildMember,
} from '../../core/world/v10-objects.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';
import type { AuditLog } from '../audit-log/service.js';
import { guildDirectory } from '../world/reads.js';
import type { WorldEvents } from '../../events/world-events.js';

export interface MembersParts {
  /** The guild with every member, and the users and apps its members name. */
  world: Pick<WorldStore, 'getGuild' | 'getUser' | 'getApplication'>;
  members: Pick<GuildMemberStore, 'getGuildWithMembers' | 'updateGuildMember' | 'deleteGuildMember' | 'setBotNick'>;
  auditLog: AuditLog;
  events: WorldEvents;
  now: () => number;
}

function bodyOf<T>(result: Result<T>): T {
  if (!result.ok) throw invalidFormBody(result.issues);
  return result.value;
}

export class MembersService {
  constructor(private readonly parts: MembersParts) {}

  /** The guild, holding the member of `userId`, where the app's bot is. */
  private async botsGuild(applicationId: string, guildId: string, userIds: readonly string[]): Promise<Guild> {
    const guild = await this.parts.members.getGuildWithMembers(guildId, userIds);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    return guild;
  }

  /** A member the bot may write: a world member (a bot's member is its install's: the hierarchy keeps others off it). */
  private memberToWrite(guild: Guild, userId: string): Member {
    const member = memberOf(guild, userId);
    if (member) return member;
    if (botInGuild(guild, userId)) refuse('hierarchy');
    throw apiError('UnknownMember');
  }

  private async view(member: Member): Promise<GuildMemberView> {
    return { member, user: (await this.parts.world.getUser(member.user_id)) ?? undefined, bot: undefined };
  }

  private audit(applicationId: string, guildId: string, userId: string, reason: string | null) {
    return (action: AuditLogEvent, changes?: AuditEntry['changes']): AuditEntry =>
      this.parts.auditLog.entry({
        guild_id: guildId,
        user_id: applicationId,
        target_id: userId,
        action_type: action,
        ...(changes ? { changes } : {}),
        reason,
      });
  }

  /**
   * Writes the member with its entries and tells the bots (nothing is written when nothing
   * changed); UnknownMember when it left meanwhile.
   */
  private async write(guild: Guild, member: Member, entries: AuditEntry[]): Promise<WirePayload<WireGuildMember>> {
    if (entries.length > 0 && !(await this.parts.members.updateGuildMember(guild.id, member, entries))) {
      throw apiError('UnknownMember');
    }
    const wire = toWireGuildMember(guild, await this.view(member));
    if (entries.length === 0) return wire;
    this.parts.events.publishAll([
      guildDispatch('GUILD_MEMBER_UPDATE', guild.id, null, { ...wire, guild_id: guild.id }),
    ]);
    for (const entry of entries) this.parts.auditLog.announce(entry);
    return wire;
  }

  /** Applies a checked edit: one write, MEMBER_UPDATE and MEMBER_ROLE_UPDATE entries for what changed. */
  private async apply(applicationId: string, guild: Guild, member: Member, edit: MemberEdit, reason: string | null) {
    if (edit.channel_id) throw apiError('TargetNotInVoice');
    const after = editedMember(member, edit);
    const entry = this.audit(applicationId, guild.id, member.user_id, reason);
    const entries = memberEditAudit(guild, member, after).map(({ action, changes }) => entry(action, changes));
    return this.write(guild, entries.length > 0 ? after : member, entries);
  }

  /** The roles of an edit, each a role of the guild the bot may give or take (10011, 50013). */
  private checkRoles(guild: Guild, applicationId: string, member: Member, roles: readonly string[]): void {
    const { added, removed } = roleChanges(member, roles);
    for (const roleId of [...added, ...removed]) {
      if (!guild.roles.some((role) => role.id === roleId)) throw apiError('UnknownRole');
      if (!botMayManageRole(guild, applicationId, roleId)) refuse('hierarchy');
    }
  }

  /** `PATCH /guilds/{g}/members/{u}`: the member as it is after. */
  async edit(applicationId: string, guildId: string, userId: string, body: unknown, reason: string | null) {
    const read = bodyOf(readMemberEdit(body, this.parts.now()));
    const guild = await this.botsGuild(applicationId, guildId, [userId]);
    const edit = read.roles ? { ...read, roles: withoutEveryone(guild, read.roles) } : read;
    const member = this.memberToWrite(guild, userId);
    const refusal = memberEditRefusal(guild, applicationId, member, edit);
    if (refusal) refuse(refusal);
    if (edit.roles) this.checkRoles(guild, applicationId, member, edit.roles);
    return this.apply(applicationId, guild, member, edit, reason);
  }

  /** `PUT` (`give`) or `DELETE /guilds/{g}/members/{u}/roles/{r}`: nothing changes when it is already so. */
  async setRole(
    applicationId: string,
    guildId: string,
    userId: string,
    roleId: string,
    give: boolean,
    reason: string | null,
  ) {
    const guild = await this.botsGuild(applicationId, guildId, [userId]);
    const member = this.memberToWrite(guild, userId);
    const roles = give ? [...new Set([...member.roles, roleId])] : member.roles.filter((id) => id !== roleId);
    const edit: MemberEdit = { roles };
    const refusal = memberEditRefusal(guild, applicationId, member, edit);
    if (refusal) refuse(refusal);
    // Every member holds @everyone: giving or taking it changes nothing, as in a `roles` list.
    if (roleId === guild.id) return;
    if (!guild.roles.some((role) => role.id === roleId)) throw apiError('UnknownRole');
    this.checkRoles(guild, applicationId, member, roles);
    await this.apply(applicationId, guild, member, edit, reason);
  }

  /**
   * A timeout an auto moderation rule gives (no bot acts: the rule does, so no permission is
   * checked): the member's `communication_disabled_until`, written with the rule's audit entry and
   * told as GUILD_MEMBER_UPDATE. False when the member is not in the guild (left meanwhile).
   */
  async timeoutByRule(guildId: string, userId: string, until: string, entry: AuditEntryInput): Promise<boolean> {
    const guild = await this.parts.members.getGuildWithMembers(guildId, [userId]);
    const member = guild ? memberOf(guild, userId) : undefined;
    if (!guild || !member) return false;
    await this.write(guild, { ...member, communication_disabled_until: until }, [this.parts.auditLog.entry(entry)]);
    return true;
  }

  /** `DELETE /guilds/{g}/members/{u}`: the member removed with its MEMBER_KICK entry. */
  async kick(applicationId: string, guildId: string, userId: string, reason: string | null): Promise<void> {
    const guild = await this.botsGuild(applicationId, guildId, [userId]);
    const member = this.memberToWrite(guild, userId);
    const refusal = kickRefusal(guild, applicationId, member);
    if (refusal) refuse(refusal);
    const entry = this.audit(applicationId, guild.id, userId, reason)(AuditLogEvent.MemberKick);
    if (!(await this.parts.members.deleteGuildMember(guild.id, userId, entry))) throw apiError('UnknownMember');
    const user = toWireMemberUser(await this.view(member));
    this.parts.events.publishAll([guildDispatch('GUILD_MEMBER_REMOVE', guild.id, null, { guild_id: guild.id, user })]);
    this.parts.auditLog.announce(entry);
  }

  /**
   * `PATCH /guilds/{g}/members/@me`: the bot's own nickname (CHANGE_NICKNAME), kept in its install
   * (the bot's member is the install's), written with its MEMBER_UPDATE entry.
   */
  async editOwnNick(applicationId: string, guildId: string, body: unknown, reason: string | null) {
    const edit = bodyOf(readOwnNickEdit(body));
    const guild = await this.botsGuild(applicationId, guildId, []);
    if (edit.nick !== undefined && !hasAll(appBasePermissions(guild, applicationId), CHANGE_NICKNAME)) {
      refuse('missing-permission');
    }
    const app = (await this.parts.world.getApplication(applicationId)) ?? undefined;
    const before = botMember(guild, applicationId);
    const changes = edit.nick === undefined ? [] : memberUpdateChanges(before, { ...before, nick: edit.nick });
    if (edit.nick === undefined || changes.length === 0) {
      return toWireGuildMember(guild, { member: before, user: undefined, bot: app });
    }
    const entry = this.audit(applicationId, guild.id, applicationId, reason)(AuditLogEvent.MemberUpdate, changes);
    if (!(await this.parts.members.setBotNick(guild.id, applicationId, edit.nick, entry)))
      throw apiError('UnknownGuild');
    const wire = toWireGuildMember(guild, { member: { ...before, nick: edit.nick }, user: undefined, bot: app });
    this.parts.events.publishAll([
      guildDispatch('GUILD_MEMBER_UPDATE', guild.id, null, { ...wire, guild_id: guild.id }),
    ]);
    this.parts.auditLog.announce(entry);
    return wire;
  }

  /** `GET /guilds/{g}/members/search`: members whose username or nickname starts with the query (any case). */
  async search(applicationId: string, guildId: string, queryText: Parameters<typeof readSearchQuery>[0]) {
    const issues: Issue[] = [];
    const { query, limit } = readSearchQuery(queryText, issues);
    if (issues.length > 0) throw invalidFormBody(issues);
    const guild = await this.parts.world.getGuild(guildId);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    const prefix = query.toLowerCase();
    const starts = (text: string | null | undefined) =>
      typeof text === 'string' && text.toLowerCase().startsWith(prefix);
    return guildMembers(guild, await guildDirectory(this.parts.world, guild))
      .filter(
        (view) => starts(view.member.nick) || starts(view.user?.username) || starts(view.bot && botUsername(view.bot)),
      )
      .slice(0, limit)
      .map((view) => toWireGuildMember(guild, view));
  }
}
