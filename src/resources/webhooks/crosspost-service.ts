/**
 * `POST /channels/{c}/messages/{m}/crosspost`: a message of an announcement channel published to
 * every channel following it (their follower webhooks, type 2). The original gets CROSSPOSTED
 * (MESSAGE_UPDATE), each follower's channel a copy (MESSAGE_CREATE), all in one transaction so that
 * of two racing crossposts one publishes and the other is 40033.
 */
import { ChannelType } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { hasAll, MANAGE_MESSAGES, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import { sendMessagesFlag } from '../../core/permissions/channel-permissions.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { InteractionStore } from '../../store/store.js';
import { findChannelMessage, isWorldFileMessage } from '../messages/lookup.js';
import type { MessageRenderer } from '../messages/renderer.js';
import { hasFlag, type StoredMessage } from '../messages/rules/messages.js';
import { visibleChannel, type WorldReads } from '../world/reads.js';
import { CROSSPOSTED_FLAG, crosspostCopy, isCrosspostable, MAX_CROSSPOST_FOLLOWERS } from './rules/crosspost.js';
import type { WebhookStore } from './store.js';

export interface CrosspostDeps extends WorldReads {
  webhooks: Pick<WebhookStore, 'listFollowers'>;
  messages: Pick<InteractionStore, 'getMessage' | 'crosspostMessage' | 'editWorldMessage' | 'changedWorldMessages'>;
  renderer: Pick<MessageRenderer, 'render'>;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
}

export class CrosspostService {
  constructor(private readonly deps: CrosspostDeps) {}

  /**
   * The bot publishes a message of an announcement channel: its own with SEND_MESSAGES, another's
   * with MANAGE_MESSAGES too (v10); answers the original as it now is.
   */
  async crosspost(applicationId: string, channelId: string, messageId: string): Promise<Record<string, unknown>> {
    const { guild, channel, permissions } = await visibleChannel(this.deps, { kind: 'bot', applicationId }, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
    const message = await findChannelMessage(this.deps.messages, guild, channel, messageId, applicationId);
    if (!message || message.ephemeral_for_user_id !== null) throw apiError('UnknownMessage');
    if (channel.type !== ChannelType.GuildAnnouncement) throw apiError('WrongChannelType');
    const needed = sendMessagesFlag(channel) | (isBotsOwn(message, applicationId) ? 0n : MANAGE_MESSAGES);
    if (!hasAll(permissions, needed)) throw apiError('MissingPermissions');
    if (hasFlag(message.flags, CROSSPOSTED_FLAG)) throw apiError('MessageAlreadyCrossposted');
    if (!isCrosspostable(message)) throw apiError('InvalidMessageType');
    // A world-file message is copied into the store first (as its first edit would be), then marked there.
    if (isWorldFileMessage(guild, channel.id, message.id)) await this.deps.messages.editWorldMessage(message);
    const at = this.deps.now();
    const followers = await this.deps.webhooks.listFollowers(channel.id, MAX_CROSSPOST_FOLLOWERS);
    const copies = followers.map((follower) => crosspostCopy(message, follower, this.deps.ids.next(), at));
    const published: StoredMessage = { ...message, flags: message.flags | CROSSPOSTED_FLAG };
    const written = await this.deps.messages.crosspostMessage(published, copies, CROSSPOSTED_FLAG);
    if (written === 'gone') throw apiError('UnknownMessage');
    if (written === 'already') throw apiError('MessageAlreadyCrossposted');
    await this.deps.events.messageUpdated(published);
    for (const copy of copies) await this.deps.events.messageCreated(copy);
    return this.deps.renderer.render(published);
  }
}

/** The bot's own post (an interaction answer is the webhook's: another's, as for deleting it). */
function isBotsOwn(message: StoredMessage, applicationId: string): boolean {
  return message.author.kind === 'app' && message.author.id === applicationId && !message.interaction_metadata;
}
