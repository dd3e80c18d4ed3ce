/**
 * Joining and leaving guilds apart from invites (docs/v10-behaviour.md#invites): an app's bot adds
 * a user who granted it `guilds.join` (`PUT /guilds/{g}/members/{u}`: 201 with the member, 204
 * when already one), a user or a bot leaves (`DELETE /users/@me/guilds/{g}`), and a user reads
 * their own member (`GET /users/@me/guilds/{g}/member`, `guilds.members.read`). Bots are told as
 * for any member change: GUILD_MEMBER_ADD / GUILD_MEMBER_REMOVE, GUILD_DELETE to a bot that left.
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import {
  CREATE_INSTANT_INVITE,
  DEAFEN_MEMBERS,
  MANAGE_NICKNAMES,
  MANAGE_ROLES,
  MUTE_MEMBERS,
  hasAll,
} from '../../core/permissions/bits.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { botInGuild } from '../../core/world/guild-members.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Guild, Member } from '../../core/world/types.js';
import { appBasePermissions, toWireGuildMember, toWireMemberUser } from '../../core/world/v10-objects.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';
import { Scope } from '../oauth2/rules/scopes.js';
import { botMayManageRole } from '../members/rules/member-rules.js';
import type { WorldService } from '../world/service.js';
import { readMemberAddBody, type MemberAddRequest } from './rules.js';
import type { InviteStore } from './store.js';

type WireObject = Record<string, unknown>;

export interface JoiningParts {
  world: Pick<WorldStore, 'getUser' | 'findOAuth2Token'>;
  members: Pick<GuildMemberStore, 'getGuildWithMembers' | 'deleteGuildMember'>;
  invites: Pick<InviteStore, 'addMember'>;
  /** The world's writes a bot leaving goes through (its install loses `bot`, GUILD_DELETE to its sessions). */
  worldService: Pick<WorldService, 'changeGuild'>;
  events: WorldEvents;
  now: () => number;
}

/** The permissions each part of an added member's first state needs (v10). */
function checkMemberState(guild: Guild, applicationId: string, request: MemberAddRequest): void {
  const bits = appBasePermissions(guild, applicationId);
  if (!hasAll(bits, CREATE_INSTANT_INVITE)) refuse('missing-permission');
  if (request.nick !== null && !hasAll(bits, MANAGE_NICKNAMES)) refuse('missing-permission');
  if (request.mute && !hasAll(bits, MUTE_MEMBERS)) refuse('missing-permission');
  if (request.deaf && !hasAll(bits, DEAFEN_MEMBERS)) refuse('missing-permission');
  const roles = request.roles.filter((id) => id !== guild.id);
  if (roles.length > 0 && !hasAll(bits, MANAGE_ROLES)) refuse('missing-permission');
  for (const roleId of roles) {
    if (!guild.roles.some((role) => role.id === roleId)) throw apiError('UnknownRole');
    if (!botMayManageRole(guild, applicationId, roleId)) refuse('hierarchy');
  }
}

export class JoiningService {
  constructor(private readonly parts: JoiningParts) {}

  /** `PUT /guilds/{g}/members/{u}`: the member added (201), or null when the user is one already (204). */
  async addMember(applicationId: string, guildId: string, userId: string, body: unknown): Promise<WireObject | null> {
    const read = readMemberAddBody(body);
    if (!read.ok) throw invalidFormBody(read.issues);
    const request = read.value;
    const guild = await this.parts.members.getGuildWithMembers(guildId, [userId]);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    const token = await this.parts.world.findOAuth2Token(request.accessToken);
    if (!token || token.application_id !== applicationId || token.user_id !== userId) {
      throw apiError('InvalidOAuth2Token');
    }
    if (!token.scopes.includes(Scope.GuildsJoin)) throw apiError('MissingOAuth2Scope');
    const user = await this.parts.world.getUser(userId);
    if (!user) throw apiError('UnknownUser');
    if (memberOf(guild, userId)) return null;
    checkMemberState(guild, applicationId, request);
    const member: Member = {
      user_id: userId,
      roles: request.roles.filter((id) => id !== guild.id),
      nick: request.nick,
      joined_at: new Date(this.parts.now()).toISOString(),
      ...(request.mute ? { mute: true } : {}),
      ...(request.deaf ? { deaf: true } : {}),
    };
    const outcome = await this.parts.invites.addMember(guild.id, member);
    if (outcome === 'no-guild') throw apiError('UnknownGuild');
    if (outcome === 'banned') throw apiError('UserBanned');
    if (outcome === 'member') return null;
    const wire = toWireGuildMember(guild, { member, user, bot: undefined });
    this.parts.events.publishAll([guildDispatch('GUILD_MEMBER_ADD', guild.id, null, { ...wire, guild_id: guild.id })]);
    return wire;
  }

  /** `DELETE /users/@me/guilds/{g}`: the user's member removed, or the bot's install losing `bot`. */
  async leave(viewer: Viewer, guildId: string): Promise<void> {
    if (viewer.kind === 'bot') {
      const left = await this.parts.worldService.changeGuild(guildId, (guild) => {
        if (!botInGuild(guild, viewer.applicationId)) throw apiError('UnknownGuild');
        const installs = guild.installs.map((install) =>
          install.application_id === viewer.applicationId
            ? { ...install, scopes: install.scopes.filter((scope) => scope !== Scope.Bot) }
            : install,
        );
        return { ...guild, installs };
      });
      if (!left) throw apiError('UnknownGuild');
      return;
    }
    const guild = await this.parts.members.getGuildWithMembers(guildId, [viewer.userId]);
    const member = guild ? memberOf(guild, viewer.userId) : undefined;
    if (!guild || !member) throw apiError('UnknownGuild');
    if (guild.owner_id === viewer.userId) throw apiError('InvalidGuild');
    const user = (await this.parts.world.getUser(viewer.userId)) ?? undefined;
    if (!(await this.parts.members.deleteGuildMember(guild.id, viewer.userId))) throw apiError('UnknownGuild');
    const wireUser = toWireMemberUser({ member, user, bot: undefined });
    this.parts.events.publishAll([
      guildDispatch('GUILD_MEMBER_REMOVE', guild.id, null, { guild_id: guild.id, user: wireUser }),
    ]);
  }

  /** `GET /users/@me/guilds/{g}/member`: the user's own member (10004 outside the guild, as v10). */
  async ownMember(userId: string, guildId: string): Promise<WireObject> {
    const guild = await this.parts.members.getGuildWithMembers(guildId, [userId]);
    const member = guild ? memberOf(guild, userId) : undefined;
    if (!guild || !member) throw apiError('UnknownGuild');
    const user = (await this.parts.world.getUser(userId)) ?? undefined;
    return toWireGuildMember(guild, { member, user, bot: undefined });
  }
}
