/**
 * The world events slashd publishes for the gateway (docs/v10-behaviour.md#gateway): a v10 dispatch
 * about a guild or a DM channel, and an app joining or leaving a guild. The gateway filters them
 * per session (intents, VIEW_CHANNEL, MESSAGE_CONTENT); the core only says what happened.
 */
import type {
  APIGuildMemberNoUser,
  GatewayMessageDeleteDispatchData,
  GatewayMessageEventExtraFields,
  GatewayTypingStartDispatchData,
} from 'discord-api-types/v10';
import {
  toWireMessage,
  type MessageRenderContext,
  type StoredMessage,
  type WireMessage,
} from '../../resources/messages/rules/messages.js';
import type { WirePayload } from '../wire-payload.js';
import type { GuildMemberView } from './guild-members.js';
import type { Guild } from './types.js';
import { toWireGuildMember } from './v10-objects.js';
import type { WorldDispatchData, WorldDispatchName } from './dispatch-payloads.js';

export type { WorldDispatchData, WorldDispatchName, WorldDispatchPayloads } from './dispatch-payloads.js';

/** MESSAGE_CREATE's and MESSAGE_UPDATE's `d`: the message with the two fields v10 adds in a guild. */
export type WireMessageEvent = WireMessage & Pick<GatewayMessageEventExtraFields, 'guild_id' | 'member'>;

/** A v10 dispatch about the world: the bus's WORLD_DISPATCH event (of dispatch `K`, or of any). */
export interface WorldDispatch<K extends WorldDispatchName = WorldDispatchName> {
  /** The v10 dispatch name. */
  t: K;
  /** null for a DM channel. */
  guildId: string | null;
  /** The channel the event is about or happens in; null when guild-wide. */
  channelId: string | null;
  /** A DM's recipients (user ids, a bot by its application id); in a guild, the members a thread member event concerns, else []. */
  recipientIds: readonly string[];
  /** The payload exactly as v10 sends it. */
  d: WorldDispatchData<K>;
}

/** An app's bot joined (`installed`) or left a guild: the bus's APPLICATION_GUILD event. */
export interface ApplicationGuildChange {
  applicationId: string;
  guildId: string;
  installed: boolean;
}

export type WorldEvent =
  { kind: 'dispatch'; event: WorldDispatch } | { kind: 'application_guild'; event: ApplicationGuildChange };

export function guildDispatch<K extends WorldDispatchName>(
  t: K,
  guildId: string,
  channelId: string | null,
  d: WorldDispatchData<K>,
): WorldEvent {
  return { kind: 'dispatch', event: { t, guildId, channelId, recipientIds: [], d } };
}

/** The author's member as a message carries it: the member object without its user. */
function messageMember(guild: Guild, view: GuildMemberView): APIGuildMemberNoUser {
  const { user: _user, ...member } = toWireGuildMember(guild, view);
  return member satisfies APIGuildMemberNoUser;
}

export interface MessagePlace {
  /** The message's guild, or null in a DM. */
  guild: Guild | null;
  /** The author's member in that guild, when it has one. */
  author?: GuildMemberView | undefined;
  /** A DM's recipients; ignored in a guild. */
  recipientIds?: readonly string[];
}

/**
 * MESSAGE_CREATE or MESSAGE_UPDATE: the message object with `guild_id` and, in a guild, the
 * author's `member` (v10 adds both to the message object of these two dispatches).
 */
export function messageDispatch(
  t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE',
  message: StoredMessage,
  place: MessagePlace,
  ctx: MessageRenderContext,
): WorldDispatch<'MESSAGE_CREATE' | 'MESSAGE_UPDATE'> {
  const d: WirePayload<WireMessageEvent> = toWireMessage(message, ctx);
  if (place.guild) {
    d.guild_id = place.guild.id;
    if (place.author) d.member = messageMember(place.guild, place.author);
  }
  return {
    t,
    guildId: place.guild?.id ?? null,
    channelId: message.channel_id,
    recipientIds: place.guild ? [] : (place.recipientIds ?? []),
    d,
  };
}

/** MESSAGE_DELETE: `{id, channel_id, guild_id?}`. */
export function messageDeleteDispatch(message: StoredMessage, recipientIds: readonly string[] = []): WorldDispatch {
  const d: WirePayload<GatewayMessageDeleteDispatchData> = {
    id: message.id,
    channel_id: message.channel_id,
  } satisfies GatewayMessageDeleteDispatchData;
  if (message.guild_id) d.guild_id = message.guild_id;
  return {
    t: 'MESSAGE_DELETE',
    guildId: message.guild_id,
    channelId: message.channel_id,
    recipientIds: message.guild_id ? [] : recipientIds,
    d,
  };
}

/** MESSAGE_DELETE_BULK: `{ids, channel_id, guild_id}` (bulk delete is of a guild channel only). */
export function messageDeleteBulkDispatch(guildId: string, channelId: string, ids: readonly string[]): WorldDispatch {
  return {
    t: 'MESSAGE_DELETE_BULK',
    guildId,
    channelId,
    recipientIds: [],
    d: { ids: [...ids], channel_id: channelId, guild_id: guildId },
  };
}

/**
 * TYPING_START: who started typing where, in unix seconds; in a guild with `guild_id` and the
 * typist's whole member object (its user included, unlike a message's `member`).
 */
export function typingStartDispatch(
  guild: Guild,
  channelId: string,
  typist: GuildMemberView,
  nowMs: number,
): WorldDispatch {
  const d: WirePayload<GatewayTypingStartDispatchData> = {
    channel_id: channelId,
    guild_id: guild.id,
    user_id: typist.member.user_id,
    timestamp: Math.floor(nowMs / 1000),
    member: toWireGuildMember(guild, typist),
  } satisfies GatewayTypingStartDispatchData;
  return { t: 'TYPING_START', guildId: guild.id, channelId, recipientIds: [], d };
}
