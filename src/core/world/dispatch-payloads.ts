/**
 * The dispatches slashd sends about the world, by v10 name, and the `d` of each: a misspelt name,
 * or a payload of the wrong shape, fails to compile where the dispatch is built. Each payload is
 * discord-api-types' Gateway*DispatchData where slashd's payload fits it, else a local shape that
 * says why (`WireGuild`, `WireThread`...: the v10 fields discord-api-types types differently), or
 * `WireObject` where the builder still assembles a plain record (the thread member events and the
 * audit log entry: issue 22 types them).
 */
import type {
  APIUser,
  GatewayChannelPinsUpdateDispatchData,
  GatewayDispatchEvents,
  GatewayGuildBanAddDispatchData,
  GatewayGuildEmojisUpdateDispatchData,
  GatewayGuildStickersUpdateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
  GatewayInviteDeleteDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessagePollVoteDispatchData,
  GatewayMessageReactionAddDispatchData,
  GatewayMessageReactionRemoveAllDispatchData,
  GatewayMessageReactionRemoveDispatchData,
  GatewayMessageReactionRemoveEmojiDispatchData,
  GatewayTypingStartDispatchData,
} from 'discord-api-types/v10';
import type { WireMessageEvent } from './dispatch.js';
import type { WireInviteCreate } from '../../resources/invites/rules.js';
import type { WireThreadCreate, WireThreadDelete } from './diff.js';
import type { WireGuild, WireGuildChannel, WireObject, WireThread } from './v10-objects.js';

/**
 * GUILD_BAN_REMOVE's `d`: discord-api-types' `GatewayGuildBanRemoveDispatchData`, but a ban of a
 * user slashd no longer knows names the user by id alone.
 */
export interface WireBanRemove {
  guild_id: string;
  user: APIUser | { id: string };
}

/** The `d` of each world dispatch, by name. */
export interface WorldDispatchPayloads {
  [GatewayDispatchEvents.GuildUpdate]: WireGuild;
  [GatewayDispatchEvents.GuildRoleCreate]: GatewayGuildRoleModifyDispatchData;
  [GatewayDispatchEvents.GuildRoleUpdate]: GatewayGuildRoleModifyDispatchData;
  [GatewayDispatchEvents.GuildRoleDelete]: GatewayGuildRoleDeleteDispatchData;
  [GatewayDispatchEvents.GuildEmojisUpdate]: GatewayGuildEmojisUpdateDispatchData;
  [GatewayDispatchEvents.GuildStickersUpdate]: GatewayGuildStickersUpdateDispatchData;
  [GatewayDispatchEvents.ChannelCreate]: WireGuildChannel;
  [GatewayDispatchEvents.ChannelUpdate]: WireGuildChannel;
  [GatewayDispatchEvents.ChannelDelete]: WireGuildChannel;
  [GatewayDispatchEvents.ChannelPinsUpdate]: GatewayChannelPinsUpdateDispatchData;
  [GatewayDispatchEvents.ThreadCreate]: WireThreadCreate;
  [GatewayDispatchEvents.ThreadUpdate]: WireThread;
  [GatewayDispatchEvents.ThreadDelete]: WireThreadDelete;
  [GatewayDispatchEvents.ThreadMembersUpdate]: WireObject;
  [GatewayDispatchEvents.ThreadMemberUpdate]: WireObject;
  [GatewayDispatchEvents.GuildMemberAdd]: GatewayGuildMemberAddDispatchData;
  [GatewayDispatchEvents.GuildMemberUpdate]: GatewayGuildMemberUpdateDispatchData;
  [GatewayDispatchEvents.GuildMemberRemove]: GatewayGuildMemberRemoveDispatchData;
  [GatewayDispatchEvents.GuildBanAdd]: GatewayGuildBanAddDispatchData;
  [GatewayDispatchEvents.GuildBanRemove]: WireBanRemove;
  [GatewayDispatchEvents.GuildAuditLogEntryCreate]: WireObject;
  [GatewayDispatchEvents.MessageCreate]: WireMessageEvent;
  [GatewayDispatchEvents.MessageUpdate]: WireMessageEvent;
  [GatewayDispatchEvents.MessageDelete]: GatewayMessageDeleteDispatchData;
  [GatewayDispatchEvents.MessageDeleteBulk]: GatewayMessageDeleteBulkDispatchData;
  [GatewayDispatchEvents.MessageReactionAdd]: GatewayMessageReactionAddDispatchData;
  [GatewayDispatchEvents.MessageReactionRemove]: GatewayMessageReactionRemoveDispatchData;
  [GatewayDispatchEvents.MessageReactionRemoveAll]: GatewayMessageReactionRemoveAllDispatchData;
  [GatewayDispatchEvents.MessageReactionRemoveEmoji]: GatewayMessageReactionRemoveEmojiDispatchData;
  [GatewayDispatchEvents.TypingStart]: GatewayTypingStartDispatchData;
  [GatewayDispatchEvents.InviteCreate]: WireInviteCreate;
  [GatewayDispatchEvents.InviteDelete]: GatewayInviteDeleteDispatchData;
  [GatewayDispatchEvents.MessagePollVoteAdd]: GatewayMessagePollVoteDispatchData;
  [GatewayDispatchEvents.MessagePollVoteRemove]: GatewayMessagePollVoteDispatchData;
}

/**
 * The v10 name of a world dispatch, as the string it is on the wire (`'MESSAGE_CREATE'`):
 * discord-api-types' `GatewayDispatchEvents` members, spelt as their values so call sites and the
 * gateway's tables write the name v10 documents.
 */
export type WorldDispatchName = `${keyof WorldDispatchPayloads}`;

/** The `d` of dispatch `K`, joined with a plain record as every wire builder returns it. */
export type WorldDispatchData<K extends WorldDispatchName> = {
  [E in keyof WorldDispatchPayloads as `${E}`]: WorldDispatchPayloads[E];
}[K] &
  Record<string, unknown>;
