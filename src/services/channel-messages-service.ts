/**
 * A bot's own messages in a channel (`POST /channels/{id}/messages`, and editing or deleting what
 * it sent): checked with the interaction answers' message rules, stored with them, and told to
 * bots as MESSAGE_CREATE / UPDATE / DELETE.
 */
import { MESSAGE_FLAGS_INVALID } from '../core/io/codes.js';
import { apiError, invalidFormBody, type ErrorName } from '../core/io/errors.js';
import { issue } from '../core/io/issue.js';
import { checkMessageData, messageFormError } from '../core/interactions/message-data.js';
import {
  EPHEMERAL_FLAG,
  SUPPRESS_EMBEDS_FLAG,
  SUPPRESS_NOTIFICATIONS_FLAG,
  type StoredMessage,
} from '../core/interactions/messages.js';
import { hasAll, READ_MESSAGE_HISTORY } from '../core/permissions/bits.js';
import { sendMessagesFlag } from '../core/permissions/channel-permissions.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import { toWireChannel } from '../core/world/v10-objects.js';
import { viewerId, type Viewer } from '../core/world/viewer.js';
import type { Channel, Guild } from '../core/world/types.js';
import type { InteractionStore } from '../store/store.js';
import { normalizeComponents } from '../core/interactions/component-tree.js';
import { findChannelMessage } from './channel-message-lookup.js';
import type { MessageRenderer } from './message-renderer.js';
import type { WorldEvents } from './world-events.js';
import { visibleChannel, type WorldReadStore } from './world-reads.js';

/** Channel types that hold no messages of their own: categories, forums and media channels. */
const NON_TEXT_CHANNEL_TYPES: ReadonlySet<number> = new Set([4, 15, 16]);
/** The flags a bot may set on a channel message (no EPHEMERAL: that is for interaction answers). */
const CHANNEL_MESSAGE_FLAGS = SUPPRESS_EMBEDS_FLAG | SUPPRESS_NOTIFICATIONS_FLAG;

/** v10 stores an embed without a type as a rich embed, and returns it so. */
function withEmbedType(embed: Record<string, unknown>): Record<string, unknown> {
  return { type: 'rich', ...embed };
}

/** The message rules of interaction answers, without EPHEMERAL. */
function checkChannelMessage(body: unknown, partial: boolean): Record<string, unknown> {
  const checked = checkMessageData(body, partial ? { partial: true } : {});
  if (!checked.ok) throw messageFormError(checked.issues);
  const flags = checked.value.flags;
  if (typeof flags === 'number' && (flags & EPHEMERAL_FLAG) !== 0) {
    throw invalidFormBody([
      issue(['flags'], MESSAGE_FLAGS_INVALID, `Only the flags ${CHANNEL_MESSAGE_FLAGS} may be set.`),
    ]);
  }
  return checked.value;
}

export interface ChannelMessagesDeps {
  world: WorldReadStore;
  messages: Pick<InteractionStore, 'putMessage' | 'getMessage' | 'editMessage' | 'deleteMessage'>;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
}

export class ChannelMessagesService {
  constructor(private readonly deps: ChannelMessagesDeps) {}

  /** A channel the viewer may view (VIEW_CHANNEL). */
  async channel(viewer: Viewer, channelId: string): Promise<Record<string, unknown>> {
    const { guild, channel } = await visibleChannel(this.deps.world, viewer, channelId);
    return toWireChannel(guild, channel);
  }

  /** Needs VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread). */
  async send(applicationId: string, channelId: string, body: unknown): Promise<Record<string, unknown>> {
    const viewer: Viewer = { kind: 'bot', applicationId };
    const { guild, channel, permissions } = await visibleChannel(this.deps.world, viewer, channelId);
    if (!hasAll(permissions, sendMessagesFlag(channel))) throw apiError('MissingPermissions');
    return this.render(await this.create(applicationId, guild, channel, body));
  }

  /**
   * `POST /channels/{id}/typing`: the viewer starts typing, told to bots as TYPING_START. Needs
   * what sending needs (v10 answers 50013 otherwise); nothing is stored.
   */
  async typing(viewer: Viewer, channelId: string): Promise<void> {
    const { guild, channel, permissions } = await visibleChannel(this.deps.world, viewer, channelId);
    if (NON_TEXT_CHANNEL_TYPES.has(channel.type)) throw apiError('CannotSendInNonTextChannel');
    if (!hasAll(permissions, sendMessagesFlag(channel))) throw apiError('MissingPermissions');
    await this.deps.events.typingStarted(guild, channel.id, viewerId(viewer), this.deps.now());
  }

  /** One message; needs VIEW_CHANNEL and READ_MESSAGE_HISTORY. */
  async get(viewer: Viewer, channelId: string, messageId: string): Promise<Record<string, unknown>> {
    const { guild, channel, permissions } = await visibleChannel(this.deps.world, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
    const message = await this.find(guild, channel, messageId, viewerId(viewer));
    if (!message) throw apiError('UnknownMessage');
    return this.deps.renderer.renderFor(message, viewerId(viewer));
  }

  async edit(
    applicationId: string,
    channelId: string,
    messageId: string,
    body: unknown,
  ): Promise<Record<string, unknown>> {
    const found = await this.botsView(applicationId, channelId, messageId);
    const edited = await this.editOwn(applicationId, found, body);
    if (!edited) throw apiError('UnknownMessage');
    return this.render(edited);
  }

  async delete(applicationId: string, channelId: string, messageId: string): Promise<void> {
    const found = await this.botsView(applicationId, channelId, messageId);
    if (!(await this.deleteOwn(applicationId, found))) throw apiError('UnknownMessage');
  }

  /** The message as the bot sees it in a channel it may view. */
  private async botsView(applicationId: string, channelId: string, messageId: string): Promise<StoredMessage | null> {
    const viewer: Viewer = { kind: 'bot', applicationId };
    const { guild, channel } = await visibleChannel(this.deps.world, viewer, channelId);
    return this.find(guild, channel, messageId, applicationId);
  }

  /** The caller has checked the bot's right to send here. */
  private async create(applicationId: string, guild: Guild, channel: Channel, body: unknown): Promise<StoredMessage> {
    if (NON_TEXT_CHANNEL_TYPES.has(channel.type)) throw apiError('CannotSendInNonTextChannel');
    const data = checkChannelMessage(body, false);
    const message: StoredMessage = {
      id: this.deps.ids.next(),
      channel_id: channel.id,
      guild_id: guild.id,
      author: { kind: 'app', id: applicationId },
      content: typeof data.content === 'string' ? data.content : '',
      embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : [],
      components: Array.isArray(data.components) ? normalizeComponents(data.components as unknown[]) : [],
      flags: typeof data.flags === 'number' ? data.flags & CHANNEL_MESSAGE_FLAGS : 0,
      tts: data.tts === true,
      timestamp: new Date(this.deps.now()).toISOString(),
      edited_timestamp: null,
      ephemeral_for_user_id: null,
    };
    await this.deps.messages.putMessage(message);
    await this.deps.events.messageCreated(message);
    return message;
  }

  private find(guild: Guild, channel: Channel, messageId: string, viewerId: string): Promise<StoredMessage | null> {
    return findChannelMessage(this.deps.messages, guild, channel, messageId, viewerId);
  }

  /** Only the bot's own messages (not its interaction answers: those are the webhook's). */
  private ownMessage(message: StoredMessage | null, applicationId: string, refusal: ErrorName): StoredMessage | null {
    if (!message) return null;
    if (message.author.kind !== 'app' || message.author.id !== applicationId || message.interaction_metadata) {
      throw apiError(refusal);
    }
    return message;
  }

  private async editOwn(
    applicationId: string,
    message: StoredMessage | null,
    body: unknown,
  ): Promise<StoredMessage | null> {
    const own = this.ownMessage(message, applicationId, 'CannotEditOtherUsersMessage');
    if (!own) return null;
    const data = checkChannelMessage(body, true);
    const edited: StoredMessage = {
      ...own,
      content: typeof data.content === 'string' ? data.content : data.content === null ? '' : own.content,
      embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : data.embeds === null ? [] : own.embeds,
      components: Array.isArray(data.components)
        ? normalizeComponents(data.components as unknown[])
        : data.components === null
          ? []
          : own.components,
      flags: typeof data.flags === 'number' ? data.flags & CHANNEL_MESSAGE_FLAGS : own.flags,
      edited_timestamp: new Date(this.deps.now()).toISOString(),
    };
    if (!(await this.deps.messages.editMessage(edited))) return null;
    await this.deps.events.messageUpdated(edited);
    return edited;
  }

  /** Decision: a bot deletes only its own messages (v10's MANAGE_MESSAGES moderation is not served). */
  private async deleteOwn(applicationId: string, message: StoredMessage | null): Promise<boolean> {
    const own = this.ownMessage(message, applicationId, 'MissingPermissions');
    if (!own || !(await this.deps.messages.deleteMessage(own.channel_id, own.id))) return false;
    await this.deps.events.messageDeleted(own);
    return true;
  }

  private render(message: StoredMessage): Promise<Record<string, unknown>> {
    return this.deps.renderer.render(message);
  }
}
