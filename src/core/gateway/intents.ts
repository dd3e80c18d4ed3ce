/**
 * Gateway intents (v10): which are valid, which are privileged and allowed by the app's flags,
 * and which intent each dispatch needs.
 */
import { ApplicationFlags, GatewayIntentBits } from 'discord-api-types/v10';
import { enumValues } from '../enum-values.js';

/** The v10 intents: discord-api-types' `GatewayIntentBits`, by the name the gateway code uses. */
export const Intent = GatewayIntentBits;

/** Every intent bit v10 defines; any other bit set closes with 4013. */
export const ALL_INTENTS = enumValues(Intent).reduce((all: number, bit) => all | bit, 0);

/**
 * Each privileged intent and the app flags of which one must be set for it (full or "limited",
 * i.e. < 100 guilds).
 */
const PRIVILEGED: readonly { intent: number; flags: number }[] = [
  {
    intent: Intent.GuildMembers,
    flags: ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited,
  },
  { intent: Intent.GuildPresences, flags: ApplicationFlags.GatewayPresence | ApplicationFlags.GatewayPresenceLimited },
  {
    intent: Intent.MessageContent,
    flags: ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited,
  },
];

/** True for a non-negative integer with only v10 intent bits (a string of digits is accepted too). */
export function readIntents(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return null;
  return (n & ~ALL_INTENTS) === 0 && n <= 0x7fffffff ? n : null;
}

/** True when every privileged intent asked for is allowed by the app's flags. */
export function privilegedIntentsAllowed(intents: number, appFlags: number): boolean {
  return PRIVILEGED.every(({ intent, flags }) => (intents & intent) === 0 || (appFlags & flags) !== 0);
}

const GUILDS_EVENTS: ReadonlySet<string> = new Set([
  'GUILD_CREATE',
  'GUILD_UPDATE',
  'GUILD_DELETE',
  'GUILD_ROLE_CREATE',
  'GUILD_ROLE_UPDATE',
  'GUILD_ROLE_DELETE',
  'CHANNEL_CREATE',
  'CHANNEL_UPDATE',
  'CHANNEL_DELETE',
  'CHANNEL_PINS_UPDATE',
  'THREAD_CREATE',
  'THREAD_UPDATE',
  'THREAD_DELETE',
  'THREAD_LIST_SYNC',
  'THREAD_MEMBER_UPDATE',
  'STAGE_INSTANCE_CREATE',
  'STAGE_INSTANCE_UPDATE',
  'STAGE_INSTANCE_DELETE',
]);

const GUILD_MEMBERS_EVENTS: ReadonlySet<string> = new Set([
  'GUILD_MEMBER_ADD',
  'GUILD_MEMBER_UPDATE',
  'GUILD_MEMBER_REMOVE',
  'THREAD_MEMBERS_UPDATE',
]);

const GUILD_MODERATION_EVENTS: ReadonlySet<string> = new Set([
  'GUILD_BAN_ADD',
  'GUILD_BAN_REMOVE',
  'GUILD_AUDIT_LOG_ENTRY_CREATE',
]);

const GUILD_INVITES_EVENTS: ReadonlySet<string> = new Set(['INVITE_CREATE', 'INVITE_DELETE']);

const GUILD_EXPRESSIONS_EVENTS: ReadonlySet<string> = new Set(['GUILD_EMOJIS_UPDATE', 'GUILD_STICKERS_UPDATE']);

const GUILD_SCHEDULED_EVENTS_EVENTS: ReadonlySet<string> = new Set([
  'GUILD_SCHEDULED_EVENT_CREATE',
  'GUILD_SCHEDULED_EVENT_UPDATE',
  'GUILD_SCHEDULED_EVENT_DELETE',
  'GUILD_SCHEDULED_EVENT_USER_ADD',
  'GUILD_SCHEDULED_EVENT_USER_REMOVE',
]);

const AUTO_MODERATION_CONFIGURATION_EVENTS: ReadonlySet<string> = new Set([
  'AUTO_MODERATION_RULE_CREATE',
  'AUTO_MODERATION_RULE_UPDATE',
  'AUTO_MODERATION_RULE_DELETE',
]);

const MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
]);

const REACTION_EVENTS: ReadonlySet<string> = new Set([
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
]);

const POLL_VOTE_EVENTS: ReadonlySet<string> = new Set(['MESSAGE_POLL_VOTE_ADD', 'MESSAGE_POLL_VOTE_REMOVE']);

/** True for MESSAGE_CREATE/UPDATE/DELETE(_BULK). */
export function isMessageEvent(t: string): boolean {
  return MESSAGE_EVENTS.has(t);
}

/**
 * The intent a dispatch needs (v10's list), or 0 for one that needs none. Message events need
 * GUILD_MESSAGES in a guild and DIRECT_MESSAGES in a DM; a DM's channel pins need DIRECT_MESSAGES;
 * TYPING_START needs GUILD_MESSAGE_TYPING or DIRECT_MESSAGE_TYPING; MESSAGE_REACTION_* need
 * GUILD_MESSAGE_REACTIONS or DIRECT_MESSAGE_REACTIONS; MESSAGE_POLL_VOTE_* need GUILD_MESSAGE_POLLS
 * or DIRECT_MESSAGE_POLLS; USER_UPDATE (the bot's own user) needs none.
 * An event slashd does not know is not sent (it needs every bit).
 */
export function intentFor(t: string, inGuild: boolean): number {
  if (MESSAGE_EVENTS.has(t)) return inGuild ? Intent.GuildMessages : Intent.DirectMessages;
  if (t === 'CHANNEL_PINS_UPDATE' && !inGuild) return Intent.DirectMessages;
  if (t === 'TYPING_START') return inGuild ? Intent.GuildMessageTyping : Intent.DirectMessageTyping;
  if (REACTION_EVENTS.has(t)) return inGuild ? Intent.GuildMessageReactions : Intent.DirectMessageReactions;
  if (POLL_VOTE_EVENTS.has(t)) return inGuild ? Intent.GuildMessagePolls : Intent.DirectMessagePolls;
  if (GUILDS_EVENTS.has(t)) return Intent.Guilds;
  if (GUILD_MEMBERS_EVENTS.has(t)) return Intent.GuildMembers;
  if (GUILD_MODERATION_EVENTS.has(t)) return Intent.GuildModeration;
  if (GUILD_EXPRESSIONS_EVENTS.has(t)) return Intent.GuildExpressions;
  if (GUILD_INVITES_EVENTS.has(t)) return Intent.GuildInvites;
  if (GUILD_SCHEDULED_EVENTS_EVENTS.has(t)) return Intent.GuildScheduledEvents;
  if (t === 'WEBHOOKS_UPDATE') return Intent.GuildWebhooks;
  if (AUTO_MODERATION_CONFIGURATION_EVENTS.has(t)) return Intent.AutoModerationConfiguration;
  if (t === 'AUTO_MODERATION_ACTION_EXECUTION') return Intent.AutoModerationExecution;
  if (t === 'USER_UPDATE') return 0;
  return -1;
}

/** True when a session with these intents gets dispatch `t`. */
export function intentsAllow(intents: number, t: string, inGuild: boolean): boolean {
  const needed = intentFor(t, inGuild);
  if (needed === 0) return true;
  if (needed === -1) return false;
  return (intents & needed) !== 0;
}

/**
 * A message as a bot without MESSAGE_CONTENT sees it (v10): content, embeds, attachments,
 * components and poll emptied, unless the message is in the bot's DM, mentions the bot, or is
 * the bot's own. A reply's `referenced_message` is a message too, judged on its own.
 */
export function messageForIntents(
  d: Record<string, unknown>,
  intents: number,
  botUserId: string,
  inDm: boolean,
): Record<string, unknown> {
  if ((intents & Intent.MessageContent) !== 0 || inDm) return d;
  return withoutContent(d, botUserId);
}

function readableBy(d: Record<string, unknown>, botUserId: string): boolean {
  const author = d.author as { id?: unknown } | undefined;
  if (author?.id === botUserId) return true;
  const mentions = Array.isArray(d.mentions) ? (d.mentions as { id?: unknown }[]) : [];
  return mentions.some((m) => m?.id === botUserId);
}

function withoutContent(d: Record<string, unknown>, botUserId: string): Record<string, unknown> {
  const referenced = d.referenced_message;
  const reply =
    typeof referenced === 'object' && referenced !== null && !Array.isArray(referenced)
      ? withoutContent(referenced as Record<string, unknown>, botUserId)
      : referenced;
  if (readableBy(d, botUserId)) return reply === referenced ? d : { ...d, referenced_message: reply };
  const stripped: Record<string, unknown> = { ...d };
  if ('content' in d) stripped.content = '';
  if ('embeds' in d) stripped.embeds = [];
  if ('attachments' in d) stripped.attachments = [];
  if ('components' in d) stripped.components = [];
  if ('poll' in d) delete stripped.poll;
  if ('referenced_message' in d) stripped.referenced_message = reply;
  return stripped;
}
