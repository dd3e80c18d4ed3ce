/**
 * A bot's own messages in a channel (`POST /channels/{id}/messages`, and editing or deleting what
 * it sent): checked with the interaction answers' message rules, stored with them, and told to
 * bots as MESSAGE_CREATE / UPDATE / DELETE.
 */
import { ApiError, invalidFormBody, issue, JsonCode, type Issue } from '../core/errors.js';
import { MESSAGE_FLAGS_INVALID } from '../core/interactions/codes.js';
import { EPHEMERAL_FLAG, fromWorldMessage, type StoredMessage } from '../core/interactions/messages.js';
import {
  checkMessageData,
  emptyMessageError,
  isEmptyMessageFailure,
  SUPPRESS_EMBEDS_FLAG,
  SUPPRESS_NOTIFICATIONS_FLAG,
} from '../core/interactions/message-data.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import type { Channel, Guild } from '../core/world/types.js';
import type { Store } from '../store/store.js';
import type { MessageRenderer } from './message-renderer.js';
import type { WorldEvents } from './world-events.js';

/** Channel types that hold no messages of their own: categories, forums and media channels. */
const NON_TEXT_CHANNEL_TYPES: ReadonlySet<number> = new Set([4, 15, 16]);
/** The flags a bot may set on a channel message (no EPHEMERAL: that is for interaction answers). */
const CHANNEL_MESSAGE_FLAGS = SUPPRESS_EMBEDS_FLAG | SUPPRESS_NOTIFICATIONS_FLAG;

export const cannotSendInNonTextChannel = () =>
  new ApiError(400, JsonCode.CannotSendInNonTextChannel, 'Cannot send messages in a non-text channel');
export const missingPermissions = () => new ApiError(403, JsonCode.MissingPermissions, 'Missing Permissions');
export const cannotEditOthersMessage = () =>
  new ApiError(403, JsonCode.CannotEditOtherUsersMessage, 'Cannot edit a message authored by another user');

/** v10 stores an embed without a type as a rich embed, and returns it so. */
function withEmbedType(embed: Record<string, unknown>): Record<string, unknown> {
  return { type: 'rich', ...embed };
}

function formError(issues: Issue[]): ApiError {
  return isEmptyMessageFailure(issues) ? emptyMessageError() : invalidFormBody(issues);
}

/** The message rules of interaction answers, without EPHEMERAL. */
function checkChannelMessage(body: unknown, partial: boolean): Record<string, unknown> {
  const checked = checkMessageData(body, partial ? { partial: true } : {});
  if (!checked.ok) throw formError(checked.issues);
  const flags = checked.value.flags;
  if (typeof flags === 'number' && (flags & EPHEMERAL_FLAG) !== 0) {
    throw invalidFormBody([
      issue(['flags'], MESSAGE_FLAGS_INVALID, `Only the flags ${CHANNEL_MESSAGE_FLAGS} may be set.`),
    ]);
  }
  return checked.value;
}

export interface ChannelMessagesDeps {
  store: Store;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
}

export class ChannelMessagesService {
  constructor(private readonly deps: ChannelMessagesDeps) {}

  /** The caller has checked the bot's right to send here. */
  async send(applicationId: string, guild: Guild, channel: Channel, body: unknown): Promise<StoredMessage> {
    if (NON_TEXT_CHANNEL_TYPES.has(channel.type)) throw cannotSendInNonTextChannel();
    const data = checkChannelMessage(body, false);
    const message: StoredMessage = {
      id: this.deps.ids.next(),
      channel_id: channel.id,
      guild_id: guild.id,
      author: { kind: 'app', id: applicationId },
      content: typeof data.content === 'string' ? data.content : '',
      embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : [],
      components: Array.isArray(data.components) ? data.components : [],
      flags: typeof data.flags === 'number' ? data.flags & CHANNEL_MESSAGE_FLAGS : 0,
      tts: data.tts === true,
      timestamp: new Date(this.deps.now()).toISOString(),
      edited_timestamp: null,
      ephemeral_for_user_id: null,
    };
    await this.deps.store.putMessage(message);
    await this.deps.events.messageCreated(message);
    return message;
  }

  /** A message of the channel as `viewerId` may see it: stored by slashd, or of the world file. */
  async find(guild: Guild, channel: Channel, messageId: string, viewerId: string): Promise<StoredMessage | null> {
    const stored = await this.deps.store.getMessage(channel.id, messageId);
    if (stored) {
      const visible = stored.ephemeral_for_user_id === null || stored.ephemeral_for_user_id === viewerId;
      return visible && stored.guild_id === guild.id ? stored : null;
    }
    const world = guild.messages.find((m) => m.id === messageId && m.channel_id === channel.id);
    return world ? fromWorldMessage(world, guild.id) : null;
  }

  /** Only the bot's own messages (not its interaction answers: those are the webhook's). */
  private ownMessage(
    message: StoredMessage | null,
    applicationId: string,
    refusal: () => ApiError,
  ): StoredMessage | null {
    if (!message) return null;
    if (message.author.kind !== 'app' || message.author.id !== applicationId || message.interaction_metadata) {
      throw refusal();
    }
    return message;
  }

  async edit(applicationId: string, message: StoredMessage | null, body: unknown): Promise<StoredMessage | null> {
    const own = this.ownMessage(message, applicationId, cannotEditOthersMessage);
    if (!own) return null;
    const data = checkChannelMessage(body, true);
    const edited: StoredMessage = {
      ...own,
      content: typeof data.content === 'string' ? data.content : data.content === null ? '' : own.content,
      embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : data.embeds === null ? [] : own.embeds,
      components: Array.isArray(data.components) ? data.components : data.components === null ? [] : own.components,
      flags: typeof data.flags === 'number' ? data.flags & CHANNEL_MESSAGE_FLAGS : own.flags,
      edited_timestamp: new Date(this.deps.now()).toISOString(),
    };
    if (!(await this.deps.store.editMessage(edited))) return null;
    await this.deps.events.messageUpdated(edited);
    return edited;
  }

  /** Decision: a bot deletes only its own messages (v10's MANAGE_MESSAGES moderation is not served). */
  async delete(applicationId: string, message: StoredMessage | null): Promise<boolean> {
    const own = this.ownMessage(message, applicationId, missingPermissions);
    if (!own || !(await this.deps.store.deleteMessage(own.channel_id, own.id))) return false;
    await this.deps.events.messageDeleted(own);
    return true;
  }

  render(message: StoredMessage): Promise<Record<string, unknown>> {
    return this.deps.renderer.render(message);
  }
}
