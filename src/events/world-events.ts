/**
 * Publishes what happens in the world on the event bus for the gateway: the events of a world
 * change (computed by the pure diff), and messages created, edited or deleted in a channel.
 */
import type { MessageRenderContext, StoredMessage } from '../resources/messages/rules/messages.js';
import {
  messageDeleteBulkDispatch,
  messageDeleteDispatch,
  messageDispatch,
  typingStartDispatch,
  type WorldDispatch,
  type WorldEvent,
} from '../core/world/dispatch.js';
import { findGuildMember, type WorldDirectory } from '../core/world/guild-members.js';
import type { Guild } from '../core/world/types.js';
import type { EventBus } from './bus.js';
import { loadMessageContext, type MessageContextStore } from '../resources/messages/context.js';
import type { AttachmentUrls } from '../resources/attachments/urls.js';

/**
 * What the caller of `messageCreated` has loaded already, so that it is not read again: the
 * message's render context (with its files' URLs), and its guild as read with its author's
 * member (`getGuildWithMembers` naming the author among others).
 */
export interface KnownOfMessage {
  readonly context?: MessageRenderContext;
  readonly guild?: Guild;
}

export class WorldEvents {
  constructor(
    private readonly store: Pick<MessageContextStore, 'world' | 'members'>,
    private readonly bus: EventBus,
    private readonly messages: MessageContextStore['messages'],
    /** A dispatched message's files carry the same signed URLs as its reads. */
    private readonly attachmentUrls: Pick<AttachmentUrls, 'urlOf'>,
  ) {}

  publishAll(events: readonly WorldEvent[]): void {
    for (const event of events) {
      if (event.kind === 'dispatch') this.bus.publish('WORLD_DISPATCH', event.event);
      else this.bus.publish('APPLICATION_GUILD', event.event);
    }
  }

  /**
   * A directory of exactly the users, applications and replied-to message a message names
   * (`context` when the caller loaded it already, with its files' URLs).
   */
  private async directoryFor(
    message: StoredMessage,
    loaded?: MessageRenderContext,
  ): Promise<WorldDirectory & MessageRenderContext> {
    const context = loaded ?? (await loadMessageContext({ ...this.store, messages: this.messages }, [message]));
    const attachmentUrl = loaded?.attachmentUrl ?? (await this.attachmentUrls.urlOf());
    return {
      ...context,
      attachmentUrl,
      user: (id) => context.findUser(id),
      application: (id) => context.findApplication(id),
    };
  }

  private async messageEvent(
    t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE',
    message: StoredMessage,
    recipientIds: readonly string[] = dmRecipients(message),
    known: KnownOfMessage = {},
  ): Promise<WorldDispatch> {
    const directory = await this.directoryFor(message, known.context);
    const guild = message.guild_id
      ? known.guild?.id === message.guild_id
        ? known.guild
        : await this.store.members.getGuildWithMembers(message.guild_id, [message.author.id])
      : null;
    const author = guild ? findGuildMember(guild, message.author.id, directory) : undefined;
    return messageDispatch(t, message, { guild, author, recipientIds }, directory);
  }

  /**
   * Ephemeral messages are the invoking user's alone: no bot is told of them. A DM channel's message
   * names the channel's two ends (`recipientIds`); without them, an interaction's user and app are.
   */
  async messageCreated(
    message: StoredMessage,
    recipientIds?: readonly string[],
    known: KnownOfMessage = {},
  ): Promise<void> {
    if (message.ephemeral_for_user_id !== null) return;
    this.bus.publish('WORLD_DISPATCH', await this.messageEvent('MESSAGE_CREATE', message, recipientIds, known));
  }

  async messageUpdated(message: StoredMessage): Promise<void> {
    if (message.ephemeral_for_user_id !== null) return;
    this.bus.publish('WORLD_DISPATCH', await this.messageEvent('MESSAGE_UPDATE', message));
  }

  /** A user or a bot (by its application id) started typing in a guild channel. */
  async typingStarted(guild: Guild, channelId: string, typistId: string, nowMs: number): Promise<void> {
    const user = await this.store.world.getUser(typistId);
    const app = user ? undefined : await this.store.world.getApplication(typistId);
    const directory = {
      user: (id: string) => (id === user?.id ? user : undefined),
      application: (id: string) => (id === app?.id ? app : undefined),
    };
    const typist = findGuildMember(guild, typistId, directory);
    if (typist) this.bus.publish('WORLD_DISPATCH', typingStartDispatch(guild, channelId, typist, nowMs));
  }

  async messageDeleted(message: StoredMessage): Promise<void> {
    if (message.ephemeral_for_user_id !== null) return;
    this.bus.publish('WORLD_DISPATCH', messageDeleteDispatch(message, dmRecipients(message)));
  }

  /** Messages of a guild channel deleted at once (none ephemeral: those are no bot's to delete). */
  messagesBulkDeleted(guildId: string, channelId: string, ids: readonly string[]): void {
    if (ids.length > 0) this.bus.publish('WORLD_DISPATCH', messageDeleteBulkDispatch(guildId, channelId, ids));
  }
}

/** In a DM, the user and the app the conversation is between (an interaction's user and app). */
function dmRecipients(message: StoredMessage): string[] {
  if (message.guild_id) return [];
  const ids = new Set<string>([message.author.id]);
  if (message.interaction_metadata) ids.add(message.interaction_metadata.user_id);
  if (message.application_id) ids.add(message.application_id);
  return [...ids];
}
