/**
 * A bot's or a user's own messages in a channel (`POST /channels/{id}/messages`, and editing or
 * deleting what they sent; deleting another's with MANAGE_MESSAGES): checked with the interaction
 * answers' message rules, stored with them, and told to bots as MESSAGE_CREATE / UPDATE / DELETE.
 */
import { ChannelType, MessageFlags, PermissionFlagsBits } from 'discord-api-types/v10';
import { MESSAGE_FLAGS_INVALID } from '../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { issue } from '../../core/io/issue.js';
import { checkMessageData, messageFormError } from './rules/message-data.js';
import { editedMessageState } from './rules/components-v2.js';
import {
  EPHEMERAL_FLAG,
  IS_COMPONENTS_V2_FLAG,
  SUPPRESS_EMBEDS_FLAG,
  SUPPRESS_NOTIFICATIONS_FLAG,
  toWireMessage,
  type MessageAuthor,
  type MessageRenderContext,
  type RenderedMessage,
  type StoredMessage,
} from './rules/messages.js';
import { ATTACH_FILES, hasAll, MANAGE_MESSAGES, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import { sendMessagesFlag } from '../../core/permissions/channel-permissions.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { toWireChannel, type WireChannel } from '../../core/world/v10-objects.js';
import { withCounters } from '../../core/world/channel-counters.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { Channel, Guild } from '../../core/world/types.js';
import type { InteractionStore } from '../../store/store.js';
import { normalizeComponents } from './rules/component-tree.js';
import { userMentionIds } from './rules/message-mentions.js';
import { findChannelMessage, isWorldFileMessage } from './lookup.js';
import type { MessageRenderer } from './renderer.js';
import { addressEditedMessage, addressNewMessage, type AddressingPlace } from './addressing.js';
import type { WorldEvents } from '../../events/world-events.js';
import {
  attachFiles,
  checkComponentMedia,
  type AttachmentsService,
  type IncomingFile,
} from '../attachments/service.js';
import { channelGuildOf, channelPlaceIn, visibleChannel, type WorldReadStore } from '../world/reads.js';
import { postRefusal } from '../threads/rules/thread-rules.js';
import { refuseThread } from '../threads/place.js';
import type { DmChannelsService, WirePrivateChannel } from '../dms/service.js';
import type { DmChannel } from '../dms/store.js';
import type { Slowmode, SlowmodeSender } from './slowmode.js';
import { storedPollOf, type PollRequest } from '../polls/rules.js';
import { stickerItemsOf } from '../expressions/rules/message-stickers.js';
import type { PollStore } from '../polls/store.js';
import type { AutoModerationService } from '../auto-moderation/service.js';
import { checkPremiumButtons } from '../entitlements/premium-buttons.js';
import type { EntitlementStore } from '../entitlements/store.js';

/** Channel types that hold no messages of their own: categories, forums and media channels. */
const NON_TEXT_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildCategory,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
]);
/** The flags a bot may set on a channel message (no EPHEMERAL: that is for interaction answers). */
export const CHANNEL_MESSAGE_FLAGS = SUPPRESS_EMBEDS_FLAG | SUPPRESS_NOTIFICATIONS_FLAG | IS_COMPONENTS_V2_FLAG;

/** Flags an edit's `flags` never clears: components v2 once set, and a crosspost's marks. */
const KEPT_ON_EDIT_FLAGS = IS_COMPONENTS_V2_FLAG | MessageFlags.Crossposted | MessageFlags.IsCrosspost;

/** v10 stores an embed without a type as a rich embed, and returns it so. */
export function withEmbedType(embed: Record<string, unknown>): Record<string, unknown> {
  return { type: 'rich', ...embed };
}

/** The message rules of interaction answers, without EPHEMERAL; `editing` is the message an edit changes. */
export function checkChannelMessage(body: unknown, editing?: StoredMessage): Record<string, unknown> {
  const checked = checkMessageData(body, editing ? { partial: true, editing: editedMessageState(editing) } : {});
  if (!checked.ok) throw messageFormError(checked.issues);
  const flags = checked.value.flags;
  if (typeof flags === 'number' && (flags & EPHEMERAL_FLAG) !== 0) {
    throw invalidFormBody([
      issue(['flags'], MESSAGE_FLAGS_INVALID, `Only the flags ${CHANNEL_MESSAGE_FLAGS} may be set.`),
    ]);
  }
  return checked.value;
}

/** What a message posted by an author the caller authorized carries besides its body. */
export type PostedFields = Pick<StoredMessage, 'webhook_id' | 'application_id'> & { id?: string };

export interface ChannelMessagesDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  messages: Pick<
    InteractionStore,
    | 'putMessage'
    | 'getMessage'
    | 'editMessage'
    | 'deleteMessage'
    | 'editWorldMessage'
    | 'changedWorldMessages'
    | 'channelCounters'
  >;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
  /** Files of messages sent as multipart bodies. */
  attachments: AttachmentsService;
  /** DM channels, whose messages are theirs. */
  dms: DmChannelsService;
  /** The slowmode intervals a user's message takes. */
  slowmode: Slowmode;
  /** The polls of new messages (docs/v10-behaviour.md#polls). */
  polls: Pick<PollStore, 'createPoll' | 'deletePoll'>;
  /** The guild's auto moderation rules, which screen a user's message before it is stored. */
  autoModeration: Pick<AutoModerationService, 'screen'>;
  /** The SKUs premium buttons name. */
  skus: Pick<EntitlementStore, 'listSkus'>;
}

export class ChannelMessagesService {
  constructor(private readonly deps: ChannelMessagesDeps) {}

  /** A channel the viewer may view (VIEW_CHANNEL). */
  async channel(viewer: Viewer, channelId: string): Promise<WireChannel | WirePrivateChannel> {
    const dm = await this.deps.dms.find(viewer, channelId);
    if (dm) return this.deps.dms.wire(dm, viewer);
    // A group DM to its recipients (a bot is never one: 50001).
    const groupDm = await this.deps.dms.findGroupDm(viewer, channelId);
    if (groupDm && viewer.kind === 'user') return this.deps.dms.wireGroupDm(groupDm, viewer.userId);
    const { guild, channel } = await visibleChannel(this.deps, viewer, channelId);
    return toWireChannel(guild, channel, withCounters(guild, await this.deps.messages.channelCounters([channel.id])));
  }

  /** A bot's or a user's message; needs VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread), ATTACH_FILES with files. */
  async send(
    viewer: Viewer,
    channelId: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<RenderedMessage> {
    const sending = await this.sendingPlace(viewer, channelId);
    if (sending.dm) return this.deps.dms.send(viewer, sending.dm, body, files);
    if (files.length > 0 && !sending.mayAttach) throw apiError('MissingPermissions');
    const { place } = sending;
    const ticket = this.deps.slowmode.take(place.channel, slowmodeSender(viewer, place.permissions), 'message');
    try {
      const { message, context } = await this.create(authorOf(viewer), place, body, files);
      return toWireMessage(message, context);
    } catch (error) {
      // Nothing was sent: the interval is not spent.
      ticket.release();
      throw error;
    }
  }

  /** What `send` checks before the body (an upload's, before it is read): throws its refusal; whether files may come. */
  async sendAccess(viewer: Viewer, channelId: string): Promise<{ mayAttach: boolean }> {
    return { mayAttach: (await this.sendingPlace(viewer, channelId)).mayAttach };
  }

  /** Where the viewer sends: a DM of theirs, or a channel they may send in (else the refusal). */
  private async sendingPlace(
    viewer: Viewer,
    channelId: string,
  ): Promise<
    { dm: DmChannel; place?: never; mayAttach: true } | { dm?: never; place: AddressingPlace; mayAttach: boolean }
  > {
    // A guild's channel is no DM: the DMs are looked up only for a channel no guild has.
    const guild = await channelGuildOf(this.deps, viewer, channelId);
    if (!guild?.channels.some((c) => c.id === channelId)) {
      const dm = await this.deps.dms.find(viewer, channelId);
      if (dm) return { dm, mayAttach: true };
      // A group DM: no bot is in one (50001); its users' own messages are not served.
      if (await this.deps.dms.findGroupDm(viewer, channelId)) throw apiError('MissingPermissions');
    }
    const place = channelPlaceIn(this.deps, viewer, guild, channelId);
    const { permissions } = place;
    if (!hasAll(permissions, sendMessagesFlag(place.channel))) throw apiError('MissingPermissions');
    const threadRefusal = postRefusal(place.channel, permissions);
    if (threadRefusal) refuseThread(threadRefusal);
    return { place, mayAttach: hasAll(permissions, ATTACH_FILES) };
  }

  /**
   * `POST /channels/{id}/typing`: the viewer starts typing, told to bots as TYPING_START. Needs
   * what sending needs (v10 answers 50013 otherwise); nothing is stored.
   */
  async typing(viewer: Viewer, channelId: string): Promise<void> {
    const { guild, channel, permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (NON_TEXT_CHANNEL_TYPES.has(channel.type)) throw apiError('CannotSendInNonTextChannel');
    if (!hasAll(permissions, sendMessagesFlag(channel))) {
      throw apiError('MissingPermissions');
    }
    await this.deps.events.typingStarted(guild, channel.id, viewerId(viewer), this.deps.now());
  }

  /** One message; needs VIEW_CHANNEL and READ_MESSAGE_HISTORY. */
  async get(viewer: Viewer, channelId: string, messageId: string): Promise<RenderedMessage> {
    const dm = await this.deps.dms.find(viewer, channelId);
    if (dm) return this.deps.dms.message(viewer, dm, messageId);
    const { guild, channel, permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
    const message = await this.find(guild, channel, messageId, viewerId(viewer));
    if (!message) throw apiError('UnknownMessage');
    return this.deps.renderer.renderInGuild(guild, message, viewerId(viewer));
  }

  /** Only the author's own message (a bot's or a user's); ATTACH_FILES with files, as for a send. */
  async edit(
    viewer: Viewer,
    channelId: string,
    messageId: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<RenderedMessage> {
    const place = await visibleChannel(this.deps, viewer, channelId);
    const found = await this.find(place.guild, place.channel, messageId, viewerId(viewer));
    const edited = await this.editOwn(viewer, place, found, body, files);
    if (!edited) throw apiError('UnknownMessage');
    return this.render(edited);
  }

  /**
   * What `edit` checks before the body (an upload's, before it is read): the message is there and
   * the viewer's; whether new files may come (ATTACH_FILES, as sending them needs).
   */
  async editAccess(viewer: Viewer, channelId: string, messageId: string): Promise<{ mayAttach: boolean }> {
    const place = await visibleChannel(this.deps, viewer, channelId);
    const found = await this.find(place.guild, place.channel, messageId, viewerId(viewer));
    if (!found) throw apiError('UnknownMessage');
    if (!isAuthor(found, viewer)) throw apiError('CannotEditOtherUsersMessage');
    return { mayAttach: hasAll(place.permissions, ATTACH_FILES) };
  }

  /** The author's own message, or another's with MANAGE_MESSAGES in the channel. */
  async delete(viewer: Viewer, channelId: string, messageId: string): Promise<void> {
    const place = await visibleChannel(this.deps, viewer, channelId);
    const found = await this.find(place.guild, place.channel, messageId, viewerId(viewer));
    if (!(await this.deleteAsAuthorOrModerator(viewer, place, found))) throw apiError('UnknownMessage');
  }

  /**
   * A message of an author the caller authorized itself (a channel webhook, by its token): no
   * viewer's permission is checked; `place.permissions` are the author's (what it may mention).
   * `fields` are what the message carries of its sender (`webhook_id`, `application_id`), and its
   * id when it must have one (a forum post's starter message has its thread's).
   */
  async post(
    author: MessageAuthor,
    place: AddressingPlace,
    body: unknown,
    files: readonly IncomingFile[],
    fields: PostedFields,
  ): Promise<StoredMessage> {
    return (await this.create(author, place, body, files, fields)).message;
  }

  /** Edits a message the caller authorized the edit of (a webhook's own message): the rules of an author's edit. */
  async editAuthorized(
    place: AddressingPlace,
    message: StoredMessage,
    body: unknown,
    files: readonly IncomingFile[],
  ): Promise<StoredMessage> {
    const edited = await this.applyEdit(place, message, body, files);
    if (!edited) throw apiError('UnknownMessage');
    return edited;
  }

  /** Deletes a message the caller authorized the deletion of (a webhook's own message); 10008 when gone meanwhile. */
  async deleteAuthorized(place: AddressingPlace, message: StoredMessage): Promise<void> {
    if (!(await this.deleteStored(place, message))) throw apiError('UnknownMessage');
  }

  /**
   * The caller has checked the author's right to send here. The message's render context is
   * loaded once: its MESSAGE_CREATE and its answer are rendered with it.
   */
  private async create(
    author: MessageAuthor,
    place: AddressingPlace,
    body: unknown,
    files: readonly IncomingFile[],
    fields: PostedFields = {},
  ): Promise<{ message: StoredMessage; context: MessageRenderContext }> {
    const { guild, channel } = place;
    if (NON_TEXT_CHANNEL_TYPES.has(channel.type)) throw apiError('CannotSendInNonTextChannel');
    const data = checkChannelMessage(body);
    if (data.poll && !hasAll(place.permissions, PermissionFlagsBits.SendPolls)) throw apiError('MissingPermissions');
    const content = typeof data.content === 'string' ? data.content : '';
    // A user's message meets the guild's auto moderation first (a refusal stores nothing).
    const screening =
      author.kind === 'user' ? await this.deps.autoModeration.screen(guild, channel, author.id, content) : null;
    const named = await this.withMembersNamed(place, content);
    const addressing = await addressNewMessage(named, content, data.allowed_mentions, body, (id) =>
      this.find(guild, channel, id, author.id),
    );
    // v10's webhook execute takes no `sticker_ids`: only a bot's or a user's own message carries stickers.
    const stickers = fields.webhook_id === undefined ? stickerItemsOf(guild, data.sticker_ids) : [];
    const message: StoredMessage = {
      ...newMessageFields(data, fields.id ?? this.deps.ids.next(), channel.id, guild.id, author, this.deps.now()),
      ...addressing,
      ...fields,
      ...(stickers.length > 0 ? { sticker_items: stickers } : {}),
    };
    await storeNewMessage(this.deps, message, data, files);
    const context = await this.deps.renderer.createdContext(message);
    // The place's guild was read with the author's member (the viewer's, for a send).
    await this.deps.events.messageCreated(message, undefined, { context, guild });
    await screening?.done(message.id);
    return { message, context };
  }

  /**
   * The place with the members its content mentions loaded too: members are rows, and a read
   * names the members it needs (a mention of a user outside the guild mentions no one).
   */
  private async withMembersNamed(place: AddressingPlace, content: string): Promise<AddressingPlace> {
    const named = userMentionIds(content);
    if (named.length === 0) return place;
    const loaded = place.guild.members.map((member) => member.user_id);
    const guild = await this.deps.members.getGuildWithMembers(place.guild.id, [...loaded, ...named]);
    return guild ? { ...place, guild } : place;
  }

  private find(guild: Guild, channel: Channel, messageId: string, viewerId: string): Promise<StoredMessage | null> {
    return findChannelMessage(this.deps.messages, guild, channel, messageId, viewerId);
  }

  private async editOwn(
    viewer: Viewer,
    place: AddressingPlace,
    message: StoredMessage | null,
    body: unknown,
    files: readonly IncomingFile[],
  ): Promise<StoredMessage | null> {
    if (!message) return null;
    if (!isAuthor(message, viewer)) throw apiError('CannotEditOtherUsersMessage');
    // An edit uploads as a send does: without ATTACH_FILES nothing is stored.
    if (files.length > 0 && !hasAll(place.permissions, ATTACH_FILES)) {
      throw apiError('MissingPermissions');
    }
    return this.applyEdit(place, message, body, files);
  }

  /** The edit of `own` as its author asked it (the caller has checked who may); null when it is gone meanwhile. */
  private async applyEdit(
    place: AddressingPlace,
    own: StoredMessage,
    body: unknown,
    files: readonly IncomingFile[],
  ): Promise<StoredMessage | null> {
    const data = checkChannelMessage(body, own);
    // A poll is made with its message and never changed (v10: 520003).
    if (data.poll !== undefined) throw apiError('CannotEditAPollMessage');
    const content = typeof data.content === 'string' ? data.content : data.content === null ? '' : own.content;
    const screening =
      own.author.kind === 'user' && content !== own.content
        ? await this.deps.autoModeration.screen(place.guild, place.channel, own.author.id, content)
        : null;
    const { mentions: _users, mention_roles: _roles, mention_everyone: _everyone, ...kept } = own;
    const edited: StoredMessage = {
      ...kept,
      ...addressEditedMessage(await this.withMembersNamed(place, content), own, content, data.allowed_mentions),
      content,
      embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : data.embeds === null ? [] : own.embeds,
      components: Array.isArray(data.components)
        ? normalizeComponents(data.components as unknown[])
        : data.components === null
          ? []
          : own.components,
      // Once set, IS_COMPONENTS_V2 stays (the rules refuse an edit dropping it), as does what
      // only slashd sets (CROSSPOSTED, IS_CROSSPOST).
      flags:
        typeof data.flags === 'number'
          ? (data.flags & CHANNEL_MESSAGE_FLAGS) | (own.flags & KEPT_ON_EDIT_FLAGS)
          : own.flags,
      edited_timestamp: new Date(this.deps.now()).toISOString(),
    };
    const attached = await attachFiles(this.deps.attachments, edited, data.attachments, files, ['attachments'], own);
    await checkComponentMedia(edited, ['components'], attached);
    await checkPremiumButtons(this.deps.skus, edited, ['components'], attached);
    // A world-file message's first edit copies it into the store (docs/decisions.md).
    const stored = isWorldFileMessage(place.guild, own.channel_id, own.id)
      ? await this.deps.messages.editWorldMessage(edited)
      : await this.deps.messages.editMessage(edited);
    if (!stored) {
      await attached?.discard();
      return null;
    }
    await attached?.commit();
    await this.deps.events.messageUpdated(edited);
    await screening?.done(edited.id);
    return edited;
  }

  /** A world-file message is deleted as any other; its deletion is recorded so that reads hide it. */
  private async deleteAsAuthorOrModerator(
    viewer: Viewer,
    place: AddressingPlace,
    message: StoredMessage | null,
  ): Promise<boolean> {
    if (!message) return false;
    if (!isAuthor(message, viewer) && !hasAll(place.permissions, MANAGE_MESSAGES)) {
      throw apiError('MissingPermissions');
    }
    return this.deleteStored(place, message);
  }

  /** Deletes the message and tells the bots; false when it was gone meanwhile. */
  private async deleteStored(place: AddressingPlace, message: StoredMessage): Promise<boolean> {
    const ofWorldFile = isWorldFileMessage(place.guild, message.channel_id, message.id);
    // False: deleted meanwhile (10008).
    if (!(await this.deps.messages.deleteMessage(message.channel_id, message.id, ofWorldFile))) return false;
    await this.deps.events.messageDeleted(message);
    return true;
  }

  private render(message: StoredMessage): Promise<RenderedMessage> {
    return this.deps.renderer.render(message);
  }
}

/** A new channel message of checked `data` (no mentions: the caller adds its addressing). */
export function newMessageFields(
  data: Record<string, unknown>,
  id: string,
  channelId: string,
  guildId: string | null,
  author: MessageAuthor,
  nowMs: number,
): StoredMessage {
  return {
    id,
    channel_id: channelId,
    guild_id: guildId,
    author,
    content: typeof data.content === 'string' ? data.content : '',
    embeds: Array.isArray(data.embeds) ? data.embeds.map(withEmbedType) : [],
    components: Array.isArray(data.components) ? normalizeComponents(data.components as unknown[]) : [],
    flags: typeof data.flags === 'number' ? data.flags & CHANNEL_MESSAGE_FLAGS : 0,
    tts: data.tts === true,
    timestamp: new Date(nowMs).toISOString(),
    edited_timestamp: null,
    ephemeral_for_user_id: null,
    ...(data.poll ? { poll: storedPollOf(data.poll as PollRequest, nowMs) } : {}),
  };
}

/**
 * Stores a new message with its files and its poll; the files go again if the message cannot be
 * stored. The poll's row comes first: a poll whose message was never stored is dropped when it ends.
 */
export async function storeNewMessage(
  deps: {
    messages: Pick<InteractionStore, 'putMessage'>;
    attachments: AttachmentsService;
    polls: Pick<PollStore, 'createPoll' | 'deletePoll'>;
    skus: Pick<EntitlementStore, 'listSkus'>;
  },
  message: StoredMessage,
  data: Record<string, unknown>,
  files: readonly IncomingFile[],
): Promise<void> {
  const attached = await attachFiles(deps.attachments, message, data.attachments, files, ['attachments']);
  try {
    await checkComponentMedia(message, ['components'], attached);
    await checkPremiumButtons(deps.skus, message, ['components'], attached);
    if (message.poll) await deps.polls.createPoll(message.channel_id, message.id, Date.parse(message.poll.expiry));
    await deps.messages.putMessage(message);
  } catch (error) {
    await attached?.discard();
    if (message.poll) await deps.polls.deletePoll(message.channel_id, message.id).catch(() => undefined);
    throw error;
  }
}

/** Who a slowmode interval is the viewer's: a bot by its application id, or the user, with their permissions in the channel. */
export function slowmodeSender(viewer: Viewer, permissions: bigint): SlowmodeSender {
  return viewer.kind === 'bot'
    ? { kind: 'bot', id: viewer.applicationId, permissions }
    : { kind: 'user', id: viewer.userId, permissions };
}

/** Who writes a message the viewer sends: a bot by its application id, or the user. */
export function authorOf(viewer: Viewer): MessageAuthor {
  return viewer.kind === 'bot' ? { kind: 'app', id: viewer.applicationId } : { kind: 'user', id: viewer.userId };
}

/** The viewer wrote the message (a bot's interaction answers are the webhook's, not its own). */
function isAuthor(message: StoredMessage, viewer: Viewer): boolean {
  if (viewer.kind === 'bot') {
    return message.author.kind === 'app' && message.author.id === viewer.applicationId && !message.interaction_metadata;
  }
  return message.author.kind === 'user' && message.author.id === viewer.userId;
}
