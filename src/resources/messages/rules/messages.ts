/**
 * The message model: what slashd stores for a message in a channel (world messages, interaction
 * responses, follow-ups) and the v10 message object a client library reads.
 */
import {
  InteractionType,
  MessageFlags,
  MessageType,
  type APIBaseInteractionMetadata,
  type APIEmbed,
  type APIMessage,
  type APIMessageInteraction,
  type APIMessageTopLevelComponent,
  type APIStickerItem,
  type APIUser,
  type ApplicationCommandType,
} from 'discord-api-types/v10';
import { CommandType } from '../../../core/commands/model.js';
import { isRecord } from '../../../core/io/read.js';
import { snowflakeTimestampMs } from '../../../core/snowflake.js';
import type { InteractionRecord } from '../../interactions/rules/lifecycle.js';
import type { Application, Install, Message, User } from '../../../core/world/types.js';
import type { WirePayload } from '../../../core/wire-payload.js';
import type { WireThread } from '../../../core/world/v10-objects.js';
import { toWirePublicBot, toWirePublicUser } from '../../../core/world/wire.js';
import { resolveAttachmentUrls, toWireAttachment, type StoredAttachment } from '../../attachments/rules/model.js';
import { unsignedPaths, type AttachmentUrlOf } from '../../attachments/rules/signed-urls.js';
import { resolveComponentMedia } from '../../attachments/rules/component-media.js';
import { toWirePoll, type StoredPoll } from '../../polls/rules.js';

// Message flags (v10), the ones slashd reads or sets: discord-api-types' `MessageFlags`, named as the call sites use them.
/** Message flag: only the invoking user sees the message. */
export const EPHEMERAL_FLAG = MessageFlags.Ephemeral;
/** Message flag of a deferred response still "thinking": the answer is yet to come. */
export const LOADING_FLAG = MessageFlags.Loading;
/** Message flag: links in the message show no embeds. */
export const SUPPRESS_EMBEDS_FLAG = MessageFlags.SuppressEmbeds;
/** Message flag: the message notifies nobody. */
export const SUPPRESS_NOTIFICATIONS_FLAG = MessageFlags.SuppressNotifications;
/** Message flag: the message is laid out with components v2 only (no content, embeds, poll or stickers); never removed once set. */
export const IS_COMPONENTS_V2_FLAG = MessageFlags.IsComponentsV2;

/** True when `flag` is set in the bit set `flags`. */
export function hasFlag(flags: number, flag: number): boolean {
  return (flags & flag) !== 0;
}

/**
 * Who wrote a message: a user, an app's bot (by its application id), or a channel webhook, which is
 * no user: its name and avatar (as the execute request gave or overrode them) are kept on the message.
 */
export type MessageAuthor =
  | { kind: 'user'; id: string }
  | { kind: 'app'; id: string }
  | {
      kind: 'webhook';
      id: string;
      username: string;
      avatar: string | null;
      /** The execute's `avatar_url`, kept as sent (never fetched); `avatar` is then its hash. */
      avatar_url?: string;
    };

/** What a response or follow-up records of the interaction it answers. */
export interface StoredInteractionMetadata {
  id: string;
  /** The interaction type: 2 for a command. */
  type: number;
  user_id: string;
  authorizing_integration_owners: Record<string, string>;
  /** The command's default name. */
  name: string;
  command_type: number;
  /** Follow-ups only: the interaction's original response. */
  original_response_message_id?: string;
  /** USER commands: the targeted user. */
  target_user_id?: string;
  /** MESSAGE commands: the targeted message. */
  target_message_id?: string;
  /** Answers to clicks: the message holding the component. */
  interacted_message_id?: string;
  /** Answers to modal submissions: the interaction the modal answered. */
  triggering_interaction_metadata?: StoredInteractionMetadata;
}

/**
 * What a response to the interaction records of it: the `interaction_metadata` of its messages,
 * and a modal submission's `triggering_interaction_metadata` (the interaction the modal answered).
 */
/**
 * The integrations that authorized the interaction, as its payload told the app (a user install
 * is `"1"`); a record whose payload lacks them is the guild-install side's.
 */
function ownersOf(record: InteractionRecord): Record<string, string> {
  // Read defensively: a record stored before payloads carried the owners still reads.
  const payload: unknown = record.payload;
  const sent = isRecord(payload) ? payload.authorizing_integration_owners : undefined;
  if (isRecord(sent) && Object.values(sent).every((id) => typeof id === 'string')) {
    return { ...(sent as Record<string, string>) };
  }
  return record.guild_id ? { '0': record.guild_id } : { '0': '0' };
}

export function interactionMetadataOf(record: InteractionRecord): StoredInteractionMetadata {
  return {
    id: record.id,
    type: record.type,
    user_id: record.user_id,
    authorizing_integration_owners: ownersOf(record),
    name: record.command_name,
    command_type: record.command_type,
    ...(record.type === 3 && record.message_id ? { interacted_message_id: record.message_id } : {}),
    ...(record.triggering_metadata ? { triggering_interaction_metadata: record.triggering_metadata } : {}),
  };
}

/** Interaction types whose metadata names no command: clicks (3) and modal submissions (5). */
const COMPONENT_INTERACTION_TYPES: readonly number[] = [InteractionType.MessageComponent, InteractionType.ModalSubmit];

export interface StoredMessage {
  id: string;
  channel_id: string;
  guild_id: string | null;
  author: MessageAuthor;
  content: string;
  embeds: Record<string, unknown>[];
  components: Record<string, unknown>[];
  /** Message flags as stored; EPHEMERAL is added on output when `ephemeral_for_user_id` is set. */
  flags: number;
  /** ISO 8601. */
  timestamp: string;
  edited_timestamp: string | null;
  interaction_metadata?: StoredInteractionMetadata;
  /** The one user who may see the message; null for a message everyone in the channel sees. */
  ephemeral_for_user_id: string | null;
  webhook_id?: string;
  application_id?: string;
  tts?: boolean;
  /** Its files (the bytes are in the attachment store); absent is none. */
  attachments?: StoredAttachment[];
  /** Users (a bot by its application id) the message mentions; absent: none. */
  mentions?: string[];
  /** Roles the message mentions; absent: none. */
  mention_roles?: string[];
  mention_everyone?: boolean;
  /** A reply: the message it answers. */
  message_reference?: StoredMessageReference;
  /** Its poll (docs/v10-behaviour.md#polls); the votes are the polls store's. */
  poll?: StoredPoll;
  /** Its stickers (`sticker_ids` as the message was sent: src/resources/expressions/rules/message-stickers.ts); absent: none. */
  sticker_items?: APIStickerItem[];
  /** A message type set when the message is made (a poll's result, 46); absent: worked out by `messageTypeOf`. */
  type?: MessageType;
}

/** What a reply records of the message it answers (v10's `message_reference`, type 0). */
export interface StoredMessageReference {
  message_id: string;
  channel_id: string;
  guild_id: string | null;
}

/** A message of a channel: one of the world file, or one slashd stored (responses, follow-ups). */
export type ChannelMessage = Message | StoredMessage;

export function isStoredMessage(message: ChannelMessage): message is StoredMessage {
  return 'author' in message;
}

/** Either kind of message in the stored model. */
export function toStoredMessage(message: ChannelMessage, guildId: string | null): StoredMessage {
  return isStoredMessage(message) ? message : fromWorldMessage(message, guildId);
}

/** Where `toWireMessage` finds the users and applications a message names. */
export interface MessageRenderContext {
  findUser(id: string): User | undefined;
  findApplication(id: string): Application | undefined;
  /** The URLs of attachments (signed, on slashd's public URL); unsigned paths when not given. */
  attachmentUrl?: AttachmentUrlOf;
  /**
   * The message a reply answers: null when it is gone (v10's `referenced_message: null`),
   * undefined when it was not looked up (no `referenced_message`).
   */
  findReferenced?(reference: StoredMessageReference): StoredMessage | null | undefined;
  /** Whether the message is pinned (its `pinned`); not looked up: false. */
  isPinned?(message: StoredMessage): boolean;
}

/**
 * A message's `interaction_metadata` as slashd sends it. discord-api-types has one interface per
 * interaction type and no `name` or `command_type`, which v10 sends for a command; slashd builds
 * every type from one stored record, so the fields of a type are optional here.
 */
export interface WireInteractionMetadata extends APIBaseInteractionMetadata<InteractionType> {
  name?: string;
  command_type?: ApplicationCommandType;
  interacted_message_id?: string;
  triggering_interaction_metadata?: WireInteractionMetadata;
  target_user?: APIUser;
  target_message_id?: string;
}

/** The v10 message object, with slashd's `interaction_metadata` (above) and thread (a thread's parent is never unset). */
export interface WireMessage extends Omit<APIMessage, 'interaction_metadata' | 'thread'> {
  interaction_metadata?: WireInteractionMetadata;
  thread?: WireThread;
}

/** A message as a reader receives it: `toWireMessage`'s, with what the read adds (reactions, poll results, thread). */
export type RenderedMessage = WirePayload<WireMessage>;

type WireUser = WirePayload<APIUser>;
/** An object of the wire not (yet) typed by its v10 shape. */
type WireObject = Record<string, unknown>;

/** A public user object from an identity alone: the public form shows no other field of a User. */
function publicUser(id: string, username: string): WireUser {
  return toWirePublicUser({ id, username, token: '', locale: '', age_verified: false });
}

/** Who v10 shows for an id that names nobody any more: a user named like a deleted account. */
function unknownUser(id: string): WireUser {
  return publicUser(id, 'Deleted User');
}

function wireUser(id: string, ctx: MessageRenderContext): WireUser {
  const user = ctx.findUser(id);
  return user ? toWirePublicUser(user) : unknownUser(id);
}

/** An app's messages are written by its bot user (same id as the application, world contract). */
function wireBotUser(id: string, ctx: MessageRenderContext): WireUser {
  const app = ctx.findApplication(id);
  return app ? toWirePublicBot(app) : ({ ...unknownUser(id), bot: true } satisfies APIUser);
}

/**
 * A webhook's message is written by the webhook (v10): its id, the name and avatar it sent with,
 * a bot, and the old discriminator "0000" that client libraries read as "no user".
 */
function wireWebhookAuthor(author: Extract<MessageAuthor, { kind: 'webhook' }>): WireUser {
  return {
    ...publicUser(author.id, author.username),
    avatar: author.avatar,
    discriminator: '0000',
    bot: true,
  } satisfies APIUser;
}

function wireAuthor(author: MessageAuthor, ctx: MessageRenderContext): WireUser {
  if (author.kind === 'webhook') return wireWebhookAuthor(author);
  return author.kind === 'app' ? wireBotUser(author.id, ctx) : wireUser(author.id, ctx);
}

function isContextMenu(commandType: number): boolean {
  return commandType === CommandType.User || commandType === CommandType.Message;
}

/** 20 for answers to slash and entry point commands, 23 for context menus, 0 for anything else. */
export function messageTypeOf(message: StoredMessage): number {
  if (message.type !== undefined) return message.type;
  const metadata = message.interaction_metadata;
  if (!metadata && message.message_reference) return MessageType.Reply;
  if (!metadata || COMPONENT_INTERACTION_TYPES.includes(metadata.type)) return MessageType.Default;
  return isContextMenu(metadata.command_type) ? MessageType.ContextMenuCommand : MessageType.ChatInputCommand;
}

function wireInteractionMetadata(
  metadata: StoredInteractionMetadata,
  ctx: MessageRenderContext,
): WirePayload<WireInteractionMetadata> {
  const wire: WirePayload<WireInteractionMetadata> = {
    id: metadata.id,
    type: metadata.type,
    user: wireUser(metadata.user_id, ctx),
    authorizing_integration_owners: metadata.authorizing_integration_owners,
  } satisfies WireInteractionMetadata;
  // v10's metadata of a click or a modal submission names the message or interaction behind it, no command.
  if (!COMPONENT_INTERACTION_TYPES.includes(metadata.type)) {
    wire.name = metadata.name;
    wire.command_type = metadata.command_type;
  }
  if (metadata.interacted_message_id) wire.interacted_message_id = metadata.interacted_message_id;
  if (metadata.triggering_interaction_metadata) {
    wire.triggering_interaction_metadata = wireInteractionMetadata(metadata.triggering_interaction_metadata, ctx);
  }
  if (metadata.original_response_message_id) wire.original_response_message_id = metadata.original_response_message_id;
  if (metadata.target_user_id) wire.target_user = wireUser(metadata.target_user_id, ctx);
  if (metadata.target_message_id) wire.target_message_id = metadata.target_message_id;
  return wire;
}

/** The deprecated `interaction` field: client libraries still read it for the command's name. */
function wireLegacyInteraction(
  metadata: StoredInteractionMetadata,
  ctx: MessageRenderContext,
): WirePayload<APIMessageInteraction> {
  return {
    id: metadata.id,
    type: metadata.type,
    name: metadata.name,
    user: wireUser(metadata.user_id, ctx),
  } satisfies APIMessageInteraction;
}

function wireFlags(message: StoredMessage): number {
  return message.ephemeral_for_user_id !== null ? message.flags | EPHEMERAL_FLAG : message.flags;
}

/**
 * Answers to interactions are sent through the interaction's webhook, whose id is the application
 * id; a message the bot posts itself (`POST /channels/{id}/messages`) has neither field.
 */
function addAppFields(wire: WireMessage, message: StoredMessage): void {
  const appId = message.author.kind === 'app' && message.interaction_metadata ? message.author.id : undefined;
  const webhookId = message.webhook_id ?? appId;
  const applicationId = message.application_id ?? appId;
  if (webhookId) wire.webhook_id = webhookId;
  if (applicationId) wire.application_id = applicationId;
}

/** A mentioned id: a user, or a bot by its application id. */
function wireMentioned(id: string, ctx: MessageRenderContext): WireUser {
  return ctx.findUser(id) || !ctx.findApplication(id) ? wireUser(id, ctx) : wireBotUser(id, ctx);
}

/** A reply's `message_reference`, and the message it answers when the context looked it up (one level deep). */
function addReply(
  wire: WireObject,
  reference: StoredMessageReference,
  ctx: MessageRenderContext,
  isCrosspost: boolean,
): void {
  wire.message_reference = {
    type: 0,
    message_id: reference.message_id,
    channel_id: reference.channel_id,
    ...(reference.guild_id ? { guild_id: reference.guild_id } : {}),
  };
  // A crosspost's copy names its original but answers nothing: no `referenced_message` (v10).
  if (isCrosspost) return;
  const referenced = ctx.findReferenced?.(reference);
  if (referenced === undefined) return;
  const flat: MessageRenderContext = {
    findUser: (id) => ctx.findUser(id),
    findApplication: (id) => ctx.findApplication(id),
    ...(ctx.attachmentUrl !== undefined ? { attachmentUrl: ctx.attachmentUrl } : {}),
    ...(ctx.isPinned ? { isPinned: (m: StoredMessage) => ctx.isPinned?.(m) ?? false } : {}),
  };
  wire.referenced_message = referenced === null ? null : toWireMessage(referenced, flat);
}

/**
 * The v10 message object. Embeds and components are stored as the app sent them, after the core's
 * rules checked them (`embeds.ts`, `message-components.ts`): they go out as their v10 shapes.
 */
export function toWireMessage(message: StoredMessage, ctx: MessageRenderContext): WirePayload<WireMessage> {
  const attachments = message.attachments ?? [];
  const urlOf = ctx.attachmentUrl ?? unsignedPaths;
  const ephemeral = message.ephemeral_for_user_id !== null;
  const wire: WirePayload<WireMessage> = {
    id: message.id,
    type: messageTypeOf(message),
    channel_id: message.channel_id,
    author: wireAuthor(message.author, ctx),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.edited_timestamp,
    tts: message.tts ?? false,
    mention_everyone: message.mention_everyone ?? false,
    mentions: (message.mentions ?? []).map((id) => wireMentioned(id, ctx)),
    mention_roles: message.mention_roles ?? [],
    attachments: attachments.map((a) => toWireAttachment(message.channel_id, a, urlOf, ephemeral)),
    embeds: resolveAttachmentUrls(message.embeds, attachments, (a) =>
      urlOf(message.channel_id, a, false),
    ) as APIEmbed[],
    pinned: ctx.isPinned?.(message) ?? false,
    flags: wireFlags(message),
    components: resolveComponentMedia(message.components, attachments, (a, proxy) =>
      urlOf(message.channel_id, a, proxy),
    ) as unknown as APIMessageTopLevelComponent[],
  } satisfies WireMessage;
  addAppFields(wire, message);
  if (message.message_reference) {
    addReply(wire, message.message_reference, ctx, hasFlag(message.flags, MessageFlags.IsCrosspost));
  }
  if (message.poll) wire.poll = toWirePoll(message.poll, message.poll.results);
  if (message.sticker_items) wire.sticker_items = message.sticker_items;
  if (message.interaction_metadata) {
    wire.interaction_metadata = wireInteractionMetadata(message.interaction_metadata, ctx);
    wire.interaction = wireLegacyInteraction(message.interaction_metadata, ctx);
  }
  return wire;
}

/** Ephemeral messages are seen only by the user who invoked the interaction. */
export function messageVisibleTo(message: StoredMessage, userId: string): boolean {
  return message.ephemeral_for_user_id === null || message.ephemeral_for_user_id === userId;
}

/**
 * A message of the world file, in the stored model; its time is its snowflake's. Its author is a
 * bot when `author_id` names an app installed in the guild (`installs`): a bot's user id is its
 * application's.
 */
export function fromWorldMessage(
  message: Message,
  guildId: string | null,
  installs: readonly Pick<Install, 'application_id'>[] = [],
): StoredMessage {
  const byBot = installs.some((install) => install.application_id === message.author_id);
  return {
    id: message.id,
    channel_id: message.channel_id,
    guild_id: guildId,
    author: { kind: byBot ? 'app' : 'user', id: message.author_id },
    content: message.content,
    embeds: [],
    components: [],
    flags: 0,
    timestamp: new Date(snowflakeTimestampMs(message.id)).toISOString(),
    edited_timestamp: null,
    ephemeral_for_user_id: null,
  };
}
