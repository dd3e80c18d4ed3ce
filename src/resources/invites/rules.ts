/**
 * Invites (v10 Invite resource): what a create body may hold, the invite as stored, when it is
 * gone (expired or used up), who may create, list and delete one, and its v10 objects. Pure: the
 * service reads the channel and writes the invite.
 */
import {
  ChannelType,
  InviteTargetType,
  InviteType,
  type APIApplication,
  type APIExtendedInvite,
  type APIInvite,
  type APIInviteGuild,
  type APIUser,
  type GatewayInviteCreateDispatchData,
  type GatewayInviteDeleteDispatchData,
} from 'discord-api-types/v10';
import {
  fieldOf,
  isAbsent,
  isRecord,
  readBoolean,
  readInteger,
  readList,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../core/io/read.js';
import {
  reportAboveMax,
  reportBelowMin,
  reportNotObject,
  reportNotOneOf,
  reportRequired,
  reportTooLong,
  type Issues,
} from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import type { IssuePath } from '../../core/io/issue.js';
import { CREATE_INSTANT_INVITE, hasAll, MANAGE_CHANNELS, MANAGE_GUILD } from '../../core/permissions/bits.js';
import type { Channel, Guild } from '../../core/world/types.js';
import type { WirePayload } from '../../core/wire-payload.js';
import { guildFeatures, toWireInviteGuildFields } from '../../core/world/guild-settings.js';

/** The longest an invite lives, in seconds: 7 days (v10); 0 is forever. */
export const MAX_INVITE_AGE_SECONDS = 604_800;
/** How long an invite lives when the body does not say, in seconds: 24 hours (v10). */
export const DEFAULT_INVITE_AGE_SECONDS = 86_400;
/** The most uses an invite may be limited to (v10); 0 is unlimited. */
export const MAX_INVITE_USES = 100;
/** The most invites a guild holds at once (v10: 1000), expired ones not counted. */
export const MAX_INVITES_PER_GUILD = 1000;
/** The length of an invite code: 8 letters and digits, as v10's are (62^8 codes). */
export const INVITE_CODE_LENGTH = 8;
/** What an invite code is made of. */
export const INVITE_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** What a code in a path may be: v10's codes and vanity codes (letters, digits, dashes), at most 100 characters. */
const INVITE_CODE_PATTERN = /^[A-Za-z0-9-]{1,100}$/;
/** The guild feature that pauses a guild's invites: no one joins through one while it is set. */
export const INVITES_DISABLED = 'INVITES_DISABLED';

/** The channels an invite may lead to: a guild's text, voice, announcement, stage, forum and media channels (no category, no thread). */
const INVITABLE_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildVoice,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildStageVoice,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
]);

/** The target types of a voice channel invite (v10). */
const TARGET_TYPES: readonly number[] = [InviteTargetType.Stream, InviteTargetType.EmbeddedApplication];

/** An invite as stored: v10's invite metadata, by the ids it names. */
export interface StoredInvite {
  code: string;
  guild_id: string;
  channel_id: string;
  /** Who created it: a user's id, or a bot's (its application id). */
  inviter_id: string | null;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: boolean;
  /** ISO 8601. */
  created_at: string;
  /** Milliseconds since the epoch; null for an invite that never expires (max_age 0). */
  expires_at_ms: number | null;
  target_type: InviteTargetType | null;
  target_user_id: string | null;
  target_application_id: string | null;
}

/** What `POST /channels/{id}/invites` asks for. */
export interface InviteRequest {
  maxAge: number;
  maxUses: number;
  temporary: boolean;
  unique: boolean;
  targetType: InviteTargetType | null;
  targetUserId: string | null;
  targetApplicationId: string | null;
}

function readBounded(body: JsonRecord, key: string, max: number, fallback: number, issues: Issues): number {
  const value = fieldOf(body, key);
  if (isAbsent(value)) return fallback;
  const path: IssuePath = [key];
  const read = readInteger(value, path, issues);
  if (read === undefined) return fallback;
  if (read < 0) reportBelowMin(issues, path, 0);
  else if (read > max) reportAboveMax(issues, path, max);
  return read;
}

function readFlag(body: JsonRecord, key: string, issues: Issues): boolean {
  const value = fieldOf(body, key);
  return isAbsent(value) ? false : (readBoolean(value, [key], issues) ?? false);
}

function readOptionalSnowflake(body: JsonRecord, key: string, issues: Issues): string | null {
  const value = fieldOf(body, key);
  return isAbsent(value) ? null : (readSnowflake(value, [key], issues) ?? null);
}

function readTargetType(body: JsonRecord, issues: Issues): InviteTargetType | null {
  const value = fieldOf(body, 'target_type');
  if (isAbsent(value)) return null;
  const read = readInteger(value, ['target_type'], issues);
  if (read === undefined) return null;
  if (!TARGET_TYPES.includes(read)) {
    reportNotOneOf(issues, ['target_type'], TARGET_TYPES);
    return null;
  }
  return read;
}

/**
 * The body of `POST /channels/{id}/invites` (absent or an object): `max_age` 0-604800 (default
 * 86400), `max_uses` 0-100, `temporary`, `unique`, and a target: a stream invite names its user,
 * an embedded application invite its application. Null fields are absent, as discord.py sends them.
 */
export function readInviteBody(body: unknown): Result<InviteRequest> {
  const issues: Issues = [];
  const record: JsonRecord = isAbsent(body) ? {} : isRecord(body) ? body : (reportNotObject(issues, []), {});
  const request: InviteRequest = {
    maxAge: readBounded(record, 'max_age', MAX_INVITE_AGE_SECONDS, DEFAULT_INVITE_AGE_SECONDS, issues),
    maxUses: readBounded(record, 'max_uses', MAX_INVITE_USES, 0, issues),
    temporary: readFlag(record, 'temporary', issues),
    unique: readFlag(record, 'unique', issues),
    targetType: readTargetType(record, issues),
    targetUserId: readOptionalSnowflake(record, 'target_user_id', issues),
    targetApplicationId: readOptionalSnowflake(record, 'target_application_id', issues),
  };
  if (request.targetType === InviteTargetType.Stream && request.targetUserId === null) {
    reportRequired(issues, ['target_user_id']);
  }
  if (request.targetType === InviteTargetType.EmbeddedApplication && request.targetApplicationId === null) {
    reportRequired(issues, ['target_application_id']);
  }
  return issues.length > 0 ? fail(issues) : ok(request);
}

/** Whether a path's code could be an invite's: anything else is unknown without a read. */
export function isInviteCode(code: string): boolean {
  return INVITE_CODE_PATTERN.test(code);
}

/** Whether an invite may lead to the channel (v10: 50024 for a category or a thread). */
export function isInvitableChannel(channel: Channel): boolean {
  return INVITABLE_CHANNEL_TYPES.has(channel.type);
}

/** The invite of a request, made now. */
export function newInvite(
  code: string,
  channel: { guildId: string; channelId: string },
  inviterId: string,
  request: InviteRequest,
  nowMs: number,
): StoredInvite {
  return {
    code,
    guild_id: channel.guildId,
    channel_id: channel.channelId,
    inviter_id: inviterId,
    max_age: request.maxAge,
    max_uses: request.maxUses,
    uses: 0,
    temporary: request.temporary,
    created_at: new Date(nowMs).toISOString(),
    expires_at_ms: request.maxAge === 0 ? null : nowMs + request.maxAge * 1000,
    target_type: request.targetType,
    target_user_id: request.targetUserId,
    target_application_id: request.targetApplicationId,
  };
}

/**
 * Whether `invite` answers a request that does not ask for a unique invite (v10: an invite by the
 * same inviter to the same channel with the same settings is given again, not made anew).
 */
export function reusableFor(invite: StoredInvite, inviterId: string, request: InviteRequest): boolean {
  return (
    invite.inviter_id === inviterId &&
    invite.uses === 0 &&
    invite.max_age === request.maxAge &&
    invite.max_uses === request.maxUses &&
    invite.temporary === request.temporary &&
    invite.target_type === request.targetType &&
    invite.target_user_id === request.targetUserId &&
    invite.target_application_id === request.targetApplicationId
  );
}

/** Whether the invite still admits anyone at `nowMs`: not expired, not used up. */
export function inviteLive(invite: StoredInvite, nowMs: number): boolean {
  if (invite.expires_at_ms !== null && invite.expires_at_ms <= nowMs) return false;
  return invite.max_uses === 0 || invite.uses < invite.max_uses;
}

/** Whether a use just taken was the invite's last (it is then deleted, with INVITE_DELETE). */
export function usedUp(invite: StoredInvite): boolean {
  return invite.max_uses !== 0 && invite.uses >= invite.max_uses;
}

/** v10: CREATE_INSTANT_INVITE in the channel (its VIEW_CHANNEL checked by the read). */
export function mayCreateInvite(channelPermissions: bigint): boolean {
  return hasAll(channelPermissions, CREATE_INSTANT_INVITE);
}

/** v10: a channel's invites are listed with MANAGE_CHANNELS there. */
export function mayListChannelInvites(channelPermissions: bigint): boolean {
  return hasAll(channelPermissions, MANAGE_CHANNELS);
}

/** v10: a guild's invites are listed with MANAGE_GUILD. */
export function mayListGuildInvites(guildPermissions: bigint): boolean {
  return hasAll(guildPermissions, MANAGE_GUILD);
}

/** v10: an invite is deleted with MANAGE_CHANNELS in its channel, or MANAGE_GUILD. */
export function mayDeleteInvite(channelPermissions: bigint, guildPermissions: bigint): boolean {
  return hasAll(channelPermissions, MANAGE_CHANNELS) || hasAll(guildPermissions, MANAGE_GUILD);
}

/** The users and application an invite names, as the reads found them (null: gone). */
export interface InviteNames {
  inviter: WirePayload<APIUser> | null;
  targetUser: WirePayload<APIUser> | null;
  targetApplication: Partial<APIApplication> | null;
}

/** The invite's partial guild (v10's invite guild), with the guild's own settings. */
export function toWireInviteGuild(guild: Guild): WirePayload<APIInviteGuild> {
  const wire: WirePayload<APIInviteGuild> = {
    id: guild.id,
    name: guild.name,
    splash: null,
    banner: null,
    ...toWireInviteGuildFields(guild),
    features: guildFeatures(guild),
    vanity_url_code: null,
    nsfw_level: 0,
    premium_subscription_count: 0,
  } satisfies APIInviteGuild;
  // v10 sends `nsfw` too, which discord-api-types' invite guild lacks.
  wire.nsfw = false;
  return wire;
}

function targetFields(invite: StoredInvite, names: InviteNames) {
  return {
    ...(invite.target_type !== null ? { target_type: invite.target_type } : {}),
    ...(names.targetUser ? { target_user: names.targetUser } : {}),
    ...(names.targetApplication ? { target_application: names.targetApplication } : {}),
  };
}

function expiresAt(invite: StoredInvite): string | null {
  return invite.expires_at_ms === null ? null : new Date(invite.expires_at_ms).toISOString();
}

/** The invite object (`GET /invites/{code}`, the answer of accepting one). */
export function toWireInvite(
  invite: StoredInvite,
  guild: Guild,
  channel: Channel,
  names: InviteNames,
): WirePayload<APIInvite> {
  const wire: WirePayload<APIInvite> = {
    type: InviteType.Guild,
    code: invite.code,
    guild: toWireInviteGuild(guild),
    channel: { id: channel.id, type: channel.type as ChannelType.GuildText, name: channel.name },
    ...(names.inviter ? { inviter: names.inviter } : {}),
    ...targetFields(invite, names),
    expires_at: expiresAt(invite),
  } satisfies APIInvite;
  // v10 sends the guild's id beside the guild (its OpenAPI document requires it); discord-api-types lacks it.
  wire.guild_id = guild.id;
  return wire;
}

/** The invite with its metadata (creating one, a channel's or a guild's list). */
export function toWireExtendedInvite(
  invite: StoredInvite,
  guild: Guild,
  channel: Channel,
  names: InviteNames,
): WirePayload<APIExtendedInvite> {
  return {
    ...toWireInvite(invite, guild, channel, names),
    uses: invite.uses,
    max_uses: invite.max_uses,
    max_age: invite.max_age,
    temporary: invite.temporary,
    created_at: invite.created_at,
  } satisfies APIExtendedInvite;
}

/** INVITE_CREATE's `d`: discord-api-types' shape, with `uses` a count where it types it 0. */
export type WireInviteCreate = Omit<GatewayInviteCreateDispatchData, 'uses'> & { uses: number };

export function inviteCreateDispatchData(invite: StoredInvite, names: InviteNames): WireInviteCreate {
  return {
    channel_id: invite.channel_id,
    code: invite.code,
    created_at: invite.created_at,
    guild_id: invite.guild_id,
    ...(names.inviter ? { inviter: names.inviter } : {}),
    max_age: invite.max_age,
    max_uses: invite.max_uses,
    ...targetFields(invite, names),
    temporary: invite.temporary,
    uses: invite.uses,
    expires_at: expiresAt(invite),
  } satisfies WireInviteCreate;
}

export function inviteDeleteDispatchData(invite: StoredInvite): WirePayload<GatewayInviteDeleteDispatchData> {
  return { channel_id: invite.channel_id, guild_id: invite.guild_id, code: invite.code };
}

/** A member's nickname: at most 32 characters (v10). */
export const MAX_NICK_LENGTH = 32;
/** The most roles one `PUT /guilds/{g}/members/{u}` gives (v10's role cap of a guild). */
export const MAX_ADDED_MEMBER_ROLES = 250;

/** What `PUT /guilds/{g}/members/{u}` asks for: the user's `guilds.join` token, and the member's first state. */
export interface MemberAddRequest {
  accessToken: string;
  nick: string | null;
  roles: string[];
  mute: boolean;
  deaf: boolean;
}

/** The body of `PUT /guilds/{g}/members/{u}`: `access_token` required; `nick`, `roles`, `mute`, `deaf`. */
export function readMemberAddBody(body: unknown): Result<MemberAddRequest> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const token = fieldOf(body, 'access_token');
  let accessToken = '';
  if (isAbsent(token)) reportRequired(issues, ['access_token']);
  else accessToken = readString(token, ['access_token'], issues) ?? '';
  const nickValue = fieldOf(body, 'nick');
  let nick: string | null = null;
  if (!isAbsent(nickValue)) {
    nick = readString(nickValue, ['nick'], issues) ?? null;
    if (nick !== null && nick.length > MAX_NICK_LENGTH) reportTooLong(issues, ['nick'], MAX_NICK_LENGTH);
  }
  const roles: string[] = [];
  const rolesValue = fieldOf(body, 'roles');
  if (!isAbsent(rolesValue)) {
    const list = readList(rolesValue, ['roles'], issues);
    if (list && list.length > MAX_ADDED_MEMBER_ROLES) reportAboveMax(issues, ['roles'], MAX_ADDED_MEMBER_ROLES);
    list?.forEach((value, i) => {
      const id = readSnowflake(value, ['roles', i], issues);
      if (id !== undefined && !roles.includes(id)) roles.push(id);
    });
  }
  const request = {
    accessToken,
    nick,
    roles,
    mute: readFlag(body, 'mute', issues),
    deaf: readFlag(body, 'deaf', issues),
  };
  return issues.length > 0 ? fail(issues) : ok(request);
}
