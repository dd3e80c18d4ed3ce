/**
 * Invites (docs/v10-behaviour.md#invites): created to a channel with CREATE_INSTANT_INVITE, listed
 * with MANAGE_CHANNELS (a channel's) or MANAGE_GUILD (a guild's), read by anyone holding the code,
 * deleted with MANAGE_CHANNELS in its channel or MANAGE_GUILD; accepted by a user, who joins the
 * guild. Each change is told to the guild's bots: INVITE_CREATE / INVITE_DELETE (GUILD_INVITES,
 * with MANAGE_CHANNELS in the channel), GUILD_MEMBER_ADD (GUILD_MEMBERS) when a user joins.
 */
import { randomInt } from 'node:crypto';
import { ApplicationFlags, type APIApplication } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { guildMembers } from '../../core/world/guild-members.js';
import { hasGuildFeature } from '../../core/world/guild-settings.js';
import type { Channel, Guild, Member, User } from '../../core/world/types.js';
import { toWireGuildMember } from '../../core/world/v10-objects.js';
import { viewerChannelPermissions, viewerGuildPermissions, viewerId, type Viewer } from '../../core/world/viewer.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { AuditLog } from '../audit-log/service.js';
import { AuditLogEvent, type AuditEntry } from '../audit-log/rules.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import { guildDirectory, visibleChannel, visibleGuild, type WorldReadStore } from '../world/reads.js';
import {
  INVITE_CODE_ALPHABET,
  INVITE_CODE_LENGTH,
  INVITES_DISABLED,
  MAX_INVITES_PER_GUILD,
  inviteCreateDispatchData,
  inviteDeleteDispatchData,
  isInvitableChannel,
  isInviteCode,
  mayCreateInvite,
  mayDeleteInvite,
  mayListChannelInvites,
  mayListGuildInvites,
  newInvite,
  readInviteBody,
  reusableFor,
  toWireExtendedInvite,
  toWireInvite,
  type InviteNames,
  type InviteRequest,
  type StoredInvite,
} from './rules.js';
import type { InviteStore } from './store.js';

type WireObject = Record<string, unknown>;

/** How many codes a create tries before giving up (62^8 codes: a second try is already rare). */
const CODE_ATTEMPTS = 5;

export interface InvitesParts {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  invites: InviteStore;
  auditLog: AuditLog;
  events: WorldEvents;
  now: () => number;
  /** A fresh random code (tests may give their own). */
  code?: () => string;
}

/** A random invite code: 8 letters and digits from the CSPRNG. */
export function randomInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  return code;
}

/** `GET /invites/{code}`'s query. */
export interface InviteReadQuery {
  withCounts: boolean;
}

export class InvitesService {
  private readonly code: () => string;

  constructor(private readonly parts: InvitesParts) {
    this.code = parts.code ?? randomInviteCode;
  }

  private async names(invite: StoredInvite): Promise<InviteNames> {
    const { world } = this.parts;
    const inviter = invite.inviter_id === null ? null : await wirePublicUserOrBot(world, invite.inviter_id);
    const targetUser = invite.target_user_id === null ? null : await wirePublicUserOrBot(world, invite.target_user_id);
    const app = invite.target_application_id === null ? null : await world.getApplication(invite.target_application_id);
    const targetApplication: Partial<APIApplication> | null = app
      ? { id: app.id, name: app.name, icon: null, description: '', flags: app.flags }
      : null;
    return { inviter, targetUser, targetApplication };
  }

  private async extended(invite: StoredInvite, guild: Guild, channel: Channel): Promise<WireObject> {
    return toWireExtendedInvite(invite, guild, channel, await this.names(invite));
  }

  /** The invite's guild (with `userIds`' members) and channel; null when either is gone. */
  private async placeOf(invite: StoredInvite, userIds: readonly string[] = []) {
    const guild = await this.parts.members.getGuildWithMembers(invite.guild_id, userIds);
    const channel = guild?.channels.find((c) => c.id === invite.channel_id);
    return guild && channel ? { guild, channel } : null;
  }

  private audit(guildId: string, actorId: string, action: AuditLogEvent, invite: StoredInvite, reason: string | null) {
    const values = {
      code: invite.code,
      channel_id: invite.channel_id,
      inviter_id: invite.inviter_id,
      uses: invite.uses,
      max_uses: invite.max_uses,
      max_age: invite.max_age,
      temporary: invite.temporary,
    };
    const side = action === AuditLogEvent.InviteCreate ? 'new_value' : 'old_value';
    const changes = Object.entries(values).map(([key, value]) => ({ key, [side]: value })) as AuditEntry['changes'];
    return this.parts.auditLog.entry({
      guild_id: guildId,
      user_id: actorId,
      target_id: null,
      action_type: action,
      ...(changes ? { changes } : {}),
      reason,
    });
  }

  /** A reference the request names: the stream's user, the embedded application. */
  private async checkTargets(request: InviteRequest): Promise<void> {
    if (request.targetUserId !== null && !(await wirePublicUserOrBot(this.parts.world, request.targetUserId))) {
      throw apiError('UnknownUser');
    }
    if (request.targetApplicationId !== null) {
      const app = await this.parts.world.getApplication(request.targetApplicationId);
      if (!app || (app.flags & ApplicationFlags.Embedded) === 0) throw apiError('UnknownApplication');
    }
  }

  /** `POST /channels/{id}/invites`: the invite made (or, without `unique`, an equal one given again). */
  async create(viewer: Viewer, channelId: string, body: unknown, reason: string | null): Promise<WireObject> {
    const read = readInviteBody(body);
    if (!read.ok) throw invalidFormBody(read.issues);
    const request = read.value;
    const place = await visibleChannel(this.parts, viewer, channelId);
    if (!isInvitableChannel(place.channel)) refuse('wrong-channel-type');
    if (!mayCreateInvite(place.permissions)) refuse('missing-permission');
    await this.checkTargets(request);
    const nowMs = this.parts.now();
    const inviterId = viewerId(viewer);
    if (!request.unique) {
      const existing = (await this.parts.invites.listChannelInvites(channelId, nowMs)).find((invite) =>
        reusableFor(invite, inviterId, request),
      );
      if (existing) return this.extended(existing, place.guild, place.channel);
    }
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const ids = { guildId: place.guild.id, channelId };
      const invite = newInvite(this.code(), ids, inviterId, request, nowMs);
      const entry = this.audit(place.guild.id, inviterId, AuditLogEvent.InviteCreate, invite, reason);
      const outcome = await this.parts.invites.createInvite(invite, nowMs, MAX_INVITES_PER_GUILD, entry);
      if (outcome === 'full') throw apiError('MaxInvites', { params: { limit: MAX_INVITES_PER_GUILD } });
      if (outcome === 'code-taken') continue;
      const names = await this.names(invite);
      this.parts.events.publishAll([
        guildDispatch('INVITE_CREATE', invite.guild_id, channelId, inviteCreateDispatchData(invite, names)),
      ]);
      this.parts.auditLog.announce(entry);
      return toWireExtendedInvite(invite, place.guild, place.channel, names);
    }
    throw new Error(`no free invite code after ${CODE_ATTEMPTS} attempts`);
  }

  /** `GET /channels/{id}/invites`: MANAGE_CHANNELS there. */
  async listChannel(viewer: Viewer, channelId: string): Promise<WireObject[]> {
    const place = await visibleChannel(this.parts, viewer, channelId);
    if (!mayListChannelInvites(place.permissions)) refuse('missing-permission');
    const invites = await this.parts.invites.listChannelInvites(channelId, this.parts.now());
    const wire: WireObject[] = [];
    for (const invite of invites) wire.push(await this.extended(invite, place.guild, place.channel));
    return wire;
  }

  /** `GET /guilds/{id}/invites`: MANAGE_GUILD. */
  async listGuild(viewer: Viewer, guildId: string): Promise<WireObject[]> {
    const guild = await visibleGuild(this.parts, viewer, guildId);
    if (!mayListGuildInvites(viewerGuildPermissions(guild, viewer))) refuse('missing-permission');
    const invites = await this.parts.invites.listGuildInvites(guild.id, this.parts.now());
    const wire: WireObject[] = [];
    for (const invite of invites) {
      const channel = guild.channels.find((c) => c.id === invite.channel_id);
      if (channel) wire.push(await this.extended(invite, guild, channel));
    }
    return wire;
  }

  /** The live invite of a code in a path (10006 for anything else). */
  private async live(code: string): Promise<StoredInvite> {
    const invite = isInviteCode(code) ? await this.parts.invites.getInvite(code, this.parts.now()) : null;
    if (!invite) throw apiError('UnknownInvite');
    return invite;
  }

  /** `GET /invites/{code}`: to anyone holding the code; `with_counts` adds the guild's member count. */
  async get(code: string, query: InviteReadQuery): Promise<WireObject> {
    const invite = await this.live(code);
    const place = await this.placeOf(invite);
    if (!place) throw apiError('UnknownInvite');
    const wire: WireObject = toWireInvite(invite, place.guild, place.channel, await this.names(invite));
    if (query.withCounts) {
      const guild = await this.parts.world.getGuild(invite.guild_id);
      const members = guild ? guildMembers(guild, await guildDirectory(this.parts.world, guild)).length : 0;
      wire.approximate_member_count = members;
      wire.approximate_presence_count = 0;
    }
    return wire;
  }

  /** `DELETE /invites/{code}`: MANAGE_CHANNELS in its channel, or MANAGE_GUILD; the invite as it was. */
  async delete(viewer: Viewer, code: string, reason: string | null): Promise<WireObject> {
    const invite = await this.live(code);
    const place = await this.placeOf(invite, [viewerId(viewer)]);
    if (!place) throw apiError('UnknownInvite');
    const { guild, channel } = place;
    const channelBits = viewerChannelPermissions(guild, viewer, channel);
    if (!mayDeleteInvite(channelBits, viewerGuildPermissions(guild, viewer))) refuse('missing-permission');
    const entry = this.audit(guild.id, viewerId(viewer), AuditLogEvent.InviteDelete, invite, reason);
    const deleted = await this.parts.invites.deleteInvite(invite.code, entry);
    if (!deleted) throw apiError('UnknownInvite');
    this.parts.events.publishAll([
      guildDispatch('INVITE_DELETE', guild.id, channel.id, inviteDeleteDispatchData(deleted)),
    ]);
    this.parts.auditLog.announce(entry);
    return this.extended(deleted, guild, channel);
  }

  /**
   * `POST /invites/{code}` by a user (the client's accept), and `slashd join`: the user joins the
   * invite's guild, a use is counted (the invite deleted after its last), and the bots are told.
   * A member already there joins nothing and uses nothing.
   */
  async accept(user: User, code: string): Promise<WireObject> {
    const invite = await this.live(code);
    const place = await this.placeOf(invite, [user.id]);
    if (!place) throw apiError('UnknownInvite');
    if (hasGuildFeature(place.guild, INVITES_DISABLED)) throw apiError('InvitesDisabled');
    const member: Member = {
      user_id: user.id,
      roles: [],
      nick: null,
      joined_at: new Date(this.parts.now()).toISOString(),
    };
    const outcome = await this.parts.invites.acceptInvite(invite.code, member, this.parts.now());
    if (outcome.kind === 'unknown') throw apiError('UnknownInvite');
    if (outcome.kind === 'banned') throw apiError('UserBanned');
    const names = await this.names(outcome.invite);
    const wire: WireObject = toWireInvite(outcome.invite, place.guild, place.channel, names);
    if (outcome.kind === 'member') return { ...wire, new_member: false };
    const { guild } = place;
    const added = toWireGuildMember(guild, { member, user, bot: undefined });
    const events = [guildDispatch('GUILD_MEMBER_ADD', guild.id, null, { ...added, guild_id: guild.id })];
    if (outcome.usedUp) {
      events.push(guildDispatch('INVITE_DELETE', guild.id, place.channel.id, inviteDeleteDispatchData(outcome.invite)));
    }
    this.parts.events.publishAll(events);
    return { ...wire, new_member: true };
  }
}
