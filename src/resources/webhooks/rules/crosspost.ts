/**
 * Crossposting (v10 "Crosspost Message"): a message of an announcement channel published to every
 * channel following it. The original is marked CROSSPOSTED; each follower's channel gets a copy,
 * written by the follower webhook, marked IS_CROSSPOST, whose `message_reference` names the original.
 */
import { MessageFlags, MessageType } from 'discord-api-types/v10';
import { hasFlag, messageTypeOf, SUPPRESS_EMBEDS_FLAG, type StoredMessage } from '../../messages/rules/messages.js';
import type { StoredWebhook } from '../rules.js';

/** Message flag: the message was published to the channels following its channel. */
export const CROSSPOSTED_FLAG = MessageFlags.Crossposted;
/** Message flag: the message is a copy of a crosspost from a followed channel. */
export const IS_CROSSPOST_FLAG = MessageFlags.IsCrosspost;
/** The most follower channels one crosspost reaches (by the followers' ids; v10 states no number). */
export const MAX_CROSSPOST_FOLLOWERS = 500;

/** What a crosspost may publish: users' and bots' own posts, replies and interaction answers (v10: 50068 otherwise). */
const CROSSPOSTABLE_TYPES: ReadonlySet<number> = new Set([
  MessageType.Default,
  MessageType.Reply,
  MessageType.ChatInputCommand,
  MessageType.ContextMenuCommand,
]);

/** Whether the message is of a type a crosspost publishes, and no copy of another crosspost itself. */
export function isCrosspostable(message: StoredMessage): boolean {
  return CROSSPOSTABLE_TYPES.has(messageTypeOf(message)) && !hasFlag(message.flags, IS_CROSSPOST_FLAG);
}

/**
 * The copy of `original` in the follower's channel: its text and embeds (not its files, which are
 * the original's, nor its components, which answer only in the original's channel), by the
 * follower webhook, mentioning no one.
 */
export function crosspostCopy(original: StoredMessage, follower: StoredWebhook, id: string, at: number): StoredMessage {
  return {
    id,
    channel_id: follower.channel_id,
    guild_id: follower.guild_id,
    author: { kind: 'webhook', id: follower.id, username: follower.name, avatar: follower.avatar },
    content: original.content,
    embeds: original.embeds,
    components: [],
    flags: (original.flags & SUPPRESS_EMBEDS_FLAG) | IS_CROSSPOST_FLAG,
    timestamp: new Date(at).toISOString(),
    edited_timestamp: null,
    ephemeral_for_user_id: null,
    webhook_id: follower.id,
    message_reference: {
      message_id: original.id,
      channel_id: original.channel_id,
      guild_id: original.guild_id,
    },
    type: MessageType.Default,
  };
}
