/**
 * Channel webhooks (docs/v10-behaviour.md#webhooks): a bot with MANAGE_WEBHOOKS in a channel makes
 * them, lists, edits and deletes its own; anyone holding a webhook's token reads, edits, deletes it
 * and executes it (posts as it), through the channel messages' rules and files. Each change is
 * told to the guild's bots (WEBHOOKS_UPDATE) and written to the audit log (50, 51, 52).
 */
import { randomBytes } from 'node:crypto';
import {
  AuditLogEvent,
  ChannelType,
  PermissionFlagsBits,
  WebhookType,
  type APIAuditLogChange,
  type GatewayWebhooksUpdateDispatchData,
} from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import { hasAll, MENTION_EVERYONE } from '../../core/permissions/bits.js';
import { isThread } from '../../core/permissions/channels.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { viewerGuildPermissions, type Viewer } from '../../core/world/viewer.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { sameDigest, tokenDigest } from '../../store/tokens.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { AuditLog } from '../audit-log/service.js';
import type { IncomingFile } from '../attachments/service.js';
import { checkChannelMessage, type ChannelMessagesService } from '../messages/service.js';
import { withCounters } from '../../core/world/channel-counters.js';
import type { ThreadStore } from '../../store/store.js';
import { threadEvent } from '../threads/place.js';
import { MAX_ACTIVE_THREADS } from '../threads/rules/limits.js';
import { activeThreadRoom, newThread } from '../threads/rules/thread-rules.js';
import type { MessageRenderer } from '../messages/renderer.js';
import { findChannelMessage } from '../messages/lookup.js';
import type { AddressingPlace } from '../messages/addressing.js';
import type { MessageAuthor, StoredMessage } from '../messages/rules/messages.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import { visibleChannel, visibleGuild, type WorldReads } from '../world/reads.js';
import {
  MAX_WEBHOOKS_PER_CHANNEL,
  POST_CHANNEL_TYPES,
  WEBHOOK_CHANNEL_TYPES,
  WEBHOOK_TOKEN_BYTES,
  FOLLOWER_TARGET_CHANNEL_TYPES,
  followerWebhookName,
  readFollowBody,
  readExecuteSender,
  avatarUrlHash,
  readWebhookCreate,
  readWebhookEdit,
  toWireWebhook,
  type AvatarChange,
  type ExecuteQuery,
  type WebhookSource,
} from './rules.js';
import type { StoredWebhook, WebhookAvatarImage, WebhookStore } from './store.js';
import { githubExecuteBody } from './rules/github.js';
import { slackExecuteBody } from './rules/slack.js';

declare module '../../core/world/dispatch-payloads.js' {
  interface WorldDispatchPayloads {
    /** A channel's webhooks changed (v10: only the guild and channel are named; bots fetch them again). */
    WEBHOOKS_UPDATE: GatewayWebhooksUpdateDispatchData;
  }
}

/** MANAGE_WEBHOOKS: creating, listing, editing and deleting webhooks with a bot token (v10). */
const MANAGE_WEBHOOKS = PermissionFlagsBits.ManageWebhooks;

export interface WebhooksDeps extends WorldReads {
  webhooks: WebhookStore;
  /** A forum post's thread (`thread_name`). */
  threads: Pick<ThreadStore, 'createThread' | 'deleteThread'>;
  messages: Parameters<typeof findChannelMessage>[0];
  channelMessages: Pick<ChannelMessagesService, 'post' | 'editAuthorized' | 'deleteAuthorized'>;
  renderer: Pick<MessageRenderer, 'render'>;
  ids: SnowflakeGenerator;
  events: WorldEvents;
  auditLog: AuditLog;
  /** slashd's public URL, for the webhook's `url`. */
  origin: () => string;
}

type WireObject = Record<string, unknown>;

/** Where a webhook posts: its channel or a thread of it, with what a webhook may do there. */
interface WebhookPlace extends AddressingPlace {
  readonly webhook: StoredWebhook;
}

export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  // With the app's bot token.

  /** `POST /channels/{c}/webhooks`: MANAGE_WEBHOOKS in the channel; the token is answered now and never again. */
  async create(applicationId: string, channelId: string, body: unknown, reason: string | null): Promise<WireObject> {
    const request = orThrow(readWebhookCreate(body));
    const { guild, channel } = await this.managedChannel(applicationId, channelId);
    const token = randomBytes(WEBHOOK_TOKEN_BYTES).toString('base64url');
    const webhook: StoredWebhook = {
      id: this.deps.ids.next(),
      application_id: applicationId,
      guild_id: guild.id,
      channel_id: channel.id,
      type: WebhookType.Incoming,
      source_guild_id: null,
      source_channel_id: null,
      name: request.name,
      avatar: request.avatar?.hash ?? null,
      token_digest: tokenDigest(token),
      created_at: this.deps.now(),
    };
    const created = await this.deps.webhooks.createWebhook(webhook, request.avatar, MAX_WEBHOOKS_PER_CHANNEL);
    if (created === 'full') throw apiError('MaxWebhooks', { params: { limit: MAX_WEBHOOKS_PER_CHANNEL } });
    await this.changed(webhook, applicationId, AuditLogEvent.WebhookCreate, createChanges(webhook), reason);
    const url = `${this.deps.origin()}/api/webhooks/${webhook.id}/${token}`;
    return this.wire(webhook, { token, url });
  }

  /**
   * `POST /channels/{c}/followers`: the announcement channel `c` (which the bot sees) followed into
   * `webhook_channel_id` (MANAGE_WEBHOOKS there) by a new channel follower webhook (type 2), which
   * posts the crossposts of `c`; answers the followed channel `{channel_id, webhook_id}`.
   */
  async follow(
    applicationId: string,
    channelId: string,
    body: unknown,
    reason: string | null,
  ): Promise<{ channel_id: string; webhook_id: string }> {
    const { webhookChannelId } = orThrow(readFollowBody(body));
    const source = await visibleChannel(this.deps, { kind: 'bot', applicationId }, channelId);
    if (source.channel.type !== ChannelType.GuildAnnouncement) throw apiError('WrongChannelType');
    const { guild, channel, permissions } = await visibleChannel(
      this.deps,
      { kind: 'bot', applicationId },
      webhookChannelId,
    );
    if (!hasAll(permissions, MANAGE_WEBHOOKS)) throw apiError('MissingPermissions');
    if (!FOLLOWER_TARGET_CHANNEL_TYPES.has(channel.type)) throw apiError('WrongChannelType');
    const webhook: StoredWebhook = {
      id: this.deps.ids.next(),
      application_id: applicationId,
      guild_id: guild.id,
      channel_id: channel.id,
      type: WebhookType.ChannelFollower,
      source_guild_id: source.guild.id,
      source_channel_id: source.channel.id,
      name: followerWebhookName(source.guild.name, source.channel.name),
      avatar: null,
      // A follower is never executed: its token is drawn and forgotten (no one can present it).
      token_digest: tokenDigest(randomBytes(WEBHOOK_TOKEN_BYTES).toString('base64url')),
      created_at: this.deps.now(),
    };
    const created = await this.deps.webhooks.createWebhook(webhook, null, MAX_WEBHOOKS_PER_CHANNEL);
    if (created === 'full') throw apiError('MaxWebhooks', { params: { limit: MAX_WEBHOOKS_PER_CHANNEL } });
    await this.changed(webhook, applicationId, AuditLogEvent.WebhookCreate, createChanges(webhook), reason);
    return { channel_id: source.channel.id, webhook_id: webhook.id };
  }

  /** `GET /channels/{c}/webhooks`: the app's webhooks of the channel (MANAGE_WEBHOOKS there). */
  async listChannel(applicationId: string, channelId: string): Promise<WireObject[]> {
    const { channel } = await this.managedChannel(applicationId, channelId);
    return this.wireAll(await this.deps.webhooks.listChannelWebhooks(applicationId, channel.id));
  }

  /** `GET /guilds/{g}/webhooks`: the app's webhooks of the guild (MANAGE_WEBHOOKS in the guild). */
  async listGuild(applicationId: string, guildId: string): Promise<WireObject[]> {
    const viewer: Viewer = { kind: 'bot', applicationId };
    const guild = await visibleGuild(this.deps, viewer, guildId);
    if (!hasAll(viewerGuildPermissions(guild, viewer), MANAGE_WEBHOOKS)) throw apiError('MissingPermissions');
    return this.wireAll(await this.deps.webhooks.listGuildWebhooks(applicationId, guild.id));
  }

  /** `GET /webhooks/{id}`: the app's own (another app's is 10015), MANAGE_WEBHOOKS in its channel. */
  async get(applicationId: string, webhookId: string): Promise<WireObject> {
    return this.wire(await this.ownWebhook(applicationId, webhookId));
  }

  /** `PATCH /webhooks/{id}`: name, avatar, channel (MANAGE_WEBHOOKS in both channels). */
  async edit(applicationId: string, webhookId: string, body: unknown, reason: string | null): Promise<WireObject> {
    const edit = orThrow(readWebhookEdit(body, true));
    const webhook = await this.ownWebhook(applicationId, webhookId);
    const channelId =
      edit.channelId === undefined || edit.channelId === webhook.channel_id
        ? webhook.channel_id
        : (await this.managedChannel(applicationId, edit.channelId, webhook.guild_id)).channel.id;
    return this.applyEdit(applicationId, webhook, { ...edit, channelId }, reason);
  }

  /** `DELETE /webhooks/{id}`: the app's own, MANAGE_WEBHOOKS in its channel. */
  async delete(applicationId: string, webhookId: string, reason: string | null): Promise<void> {
    await this.ownWebhook(applicationId, webhookId);
    const deleted = await this.deps.webhooks.deleteWebhook(applicationId, webhookId);
    if (!deleted) throw apiError('UnknownWebhook');
    await this.changed(deleted, applicationId, AuditLogEvent.WebhookDelete, [], reason);
  }

  // With the webhook's token (no Authorization).

  /** `GET /webhooks/{id}/{token}`: the webhook without its creator (v10 leaves `user` out here). */
  async getByToken(webhookId: string, token: string): Promise<WireObject> {
    return toWireWebhook(await this.byToken(webhookId, token), { user: null });
  }

  /** Whether the token opens the webhook (10015 / 50027 otherwise): checked before a large body is read. */
  async authenticate(webhookId: string, token: string): Promise<void> {
    await this.byToken(webhookId, token);
  }

  /** `PATCH /webhooks/{id}/{token}`: name and avatar only. */
  async editByToken(webhookId: string, token: string, body: unknown): Promise<WireObject> {
    const edit = orThrow(readWebhookEdit(body, false));
    const webhook = await this.byToken(webhookId, token);
    const edited = await this.applyEdit(null, webhook, { ...edit, channelId: webhook.channel_id }, null);
    const { user: _user, ...wire } = edited;
    return wire;
  }

  /** `DELETE /webhooks/{id}/{token}`. */
  async deleteByToken(webhookId: string, token: string): Promise<void> {
    const webhook = await this.byToken(webhookId, token);
    const deleted = await this.deps.webhooks.deleteWebhook(null, webhook.id);
    if (!deleted) throw apiError('UnknownWebhook');
    await this.changed(deleted, null, AuditLogEvent.WebhookDelete, [], null);
  }

  /** What an execute or an edit checks before its upload is read: the token, and the place. */
  async uploadAccess(webhookId: string, token: string, query: ExecuteQuery) {
    await this.place(await this.byToken(webhookId, token), query);
    return { mayAttach: true };
  }

  /**
   * `POST /webhooks/{id}/{token}`: a message in the webhook's channel (or `thread_id`, a thread of
   * it) written by the webhook, with the name and avatar it has or the body overrides; the message
   * when `wait=true`, else null (204).
   */
  async execute(
    webhookId: string,
    token: string,
    query: ExecuteQuery,
    body: unknown,
    files: readonly IncomingFile[],
  ): Promise<WireObject | null> {
    const webhook = await this.byToken(webhookId, token);
    const { sender, message } = orThrow(readExecuteSender(body));
    const channelPlace = await this.place(webhook, query);
    const post = POST_CHANNEL_TYPES.has(channelPlace.channel.type) ? sender.threadName : undefined;
    if (POST_CHANNEL_TYPES.has(channelPlace.channel.type) && post === undefined) {
      throw apiError('WebhookForumPostNeedsThread');
    }
    // A post's starter is checked before its thread is made: a refused body makes nothing.
    if (post !== undefined) checkChannelMessage(message);
    const place = post === undefined ? channelPlace : await this.startPost(channelPlace, post);
    const author: MessageAuthor = {
      kind: 'webhook',
      id: webhook.id,
      username: sender.username ?? webhook.name,
      // An `avatar_url` is not fetched (docs/decisions.md): the author shows its hash, the URL is kept.
      ...(sender.avatarUrl === undefined
        ? { avatar: webhook.avatar }
        : { avatar: avatarUrlHash(sender.avatarUrl), avatar_url: sender.avatarUrl }),
    };
    const fields = { webhook_id: webhook.id, application_id: webhook.application_id };
    const posted = await this.deps.channelMessages
      .post(author, place, message, files, post === undefined ? fields : { ...fields, id: place.channel.id })
      .catch(async (error: unknown) => {
        // The post's thread goes again with its starter refused (its files, say).
        if (post !== undefined) await this.deps.threads.deleteThread(place.guild.id, place.channel.id);
        throw error;
      });
    return query.wait ? this.deps.renderer.render(posted) : null;
  }

  /**
   * `POST /webhooks/{id}/{token}/slack`: a Slack incoming-webhook body posted as an execute
   * (rules/slack.ts); the message when `wait=true`, else null (v10 answers `ok`).
   */
  async executeSlack(webhookId: string, token: string, query: ExecuteQuery, body: unknown) {
    return this.execute(webhookId, token, query, slackExecuteBody(body), []);
  }

  /**
   * `POST /webhooks/{id}/{token}/github`: a GitHub delivery of `event` posted as one embed
   * (rules/github.ts); an event not posted is taken and nothing is sent. Answered 204 either way.
   */
  async executeGithub(webhookId: string, token: string, query: ExecuteQuery, event: string, body: unknown) {
    await this.byToken(webhookId, token);
    const execute = githubExecuteBody(event, body);
    if (execute !== null) await this.execute(webhookId, token, { ...query, wait: false }, execute, []);
  }

  /**
   * A forum or media channel's new post named `name`: a public thread (the webhook its owner, no
   * member), told as THREAD_CREATE; its starter message has the thread's id.
   */
  private async startPost(place: WebhookPlace, name: string): Promise<WebhookPlace> {
    const { guild, channel, webhook } = place;
    const id = this.deps.ids.next();
    const request = { name, type: null, auto_archive_duration: null, invitable: null, rate_limit_per_user: null };
    const nowIso = new Date(this.deps.now()).toISOString();
    const thread = newThread(id, channel, ChannelType.PublicThread, request, webhook.id, nowIso);
    const created = await this.deps.threads.createThread(guild.id, thread, [], activeThreadRoom(guild, id));
    if (created === 'full') throw apiError('MaxActiveThreads', { params: { limit: MAX_ACTIVE_THREADS } });
    if (created !== 'created') throw apiError('UnknownChannel');
    const withThread = { ...guild, channels: [...guild.channels, thread] };
    this.deps.events.publishAll([
      threadEvent('THREAD_CREATE', withThread, { ...thread, thread_member_ids: [] }, withCounters(withThread)),
    ]);
    return { ...place, guild: withThread, channel: thread };
  }

  /** `GET /webhooks/{id}/{token}/messages/{m}`: a message this webhook sent (`thread_id` for one in a thread). */
  async getMessage(webhookId: string, token: string, messageId: string, query: ExecuteQuery) {
    const { message } = await this.ownMessage(webhookId, token, messageId, query);
    return this.deps.renderer.render(message);
  }

  /** `PATCH /webhooks/{id}/{token}/messages/{m}`: the channel messages' edit rules, files included. */
  async editMessage(
    webhookId: string,
    token: string,
    messageId: string,
    query: ExecuteQuery,
    body: unknown,
    files: readonly IncomingFile[],
  ): Promise<WireObject> {
    const { place, message } = await this.ownMessage(webhookId, token, messageId, query);
    return this.deps.renderer.render(await this.deps.channelMessages.editAuthorized(place, message, body, files));
  }

  /** `DELETE /webhooks/{id}/{token}/messages/{m}`. */
  async deleteMessage(webhookId: string, token: string, messageId: string, query: ExecuteQuery) {
    const { place, message } = await this.ownMessage(webhookId, token, messageId, query);
    await this.deps.channelMessages.deleteAuthorized(place, message);
  }

  /** `GET /avatars/{id}/{hash}.{ext}`: a webhook's avatar image, to anyone (v10's CDN serves avatars so). */
  async avatar(webhookId: string, file: string): Promise<WebhookAvatarImage> {
    const hash = file.replace(/\.(png|jpe?g|gif|webp)$/i, '');
    const image = await this.deps.webhooks.getAvatar(webhookId, hash);
    if (!image) throw apiError('NotFound');
    return image;
  }

  // What the routes share.

  /**
   * The webhook the token names: 10015 for no such webhook, 50027 for a wrong token (v10). The
   * token is compared by its digest, in constant time.
   */
  private async byToken(webhookId: string, token: string): Promise<StoredWebhook> {
    const webhook = await this.deps.webhooks.findWebhook(webhookId);
    if (!webhook) throw apiError('UnknownWebhook');
    if (!sameDigest(tokenDigest(token), webhook.token_digest)) throw apiError('InvalidWebhookToken');
    return webhook;
  }

  /** The app's webhook (another app's is unknown to it), with MANAGE_WEBHOOKS in its channel. */
  private async ownWebhook(applicationId: string, webhookId: string): Promise<StoredWebhook> {
    const webhook = await this.deps.webhooks.getWebhook(applicationId, webhookId);
    if (!webhook) throw apiError('UnknownWebhook');
    await this.managedChannel(applicationId, webhook.channel_id);
    return webhook;
  }

  /** A channel the bot sees and holds MANAGE_WEBHOOKS in, of a type a webhook posts in (of `guildId` when given). */
  private async managedChannel(
    applicationId: string,
    channelId: string,
    guildId?: string,
  ): Promise<{ guild: Guild; channel: Channel }> {
    const { guild, channel, permissions } = await visibleChannel(this.deps, { kind: 'bot', applicationId }, channelId);
    if (guildId !== undefined && guild.id !== guildId) throw apiError('UnknownChannel');
    if (!hasAll(permissions, MANAGE_WEBHOOKS)) throw apiError('MissingPermissions');
    if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) throw apiError('WrongChannelType');
    return { guild, channel };
  }

  /** Where the webhook posts: its channel, or the `thread_id` thread of it (10003 for any other). */
  private async place(webhook: StoredWebhook, { threadId }: ExecuteQuery): Promise<WebhookPlace> {
    const guild = await this.deps.members.getGuildWithMembers(webhook.guild_id, []);
    const channelId = threadId ?? webhook.channel_id;
    const channel = guild?.channels.find((c) => c.id === channelId);
    if (!guild || !channel) throw apiError('UnknownChannel');
    if (threadId !== undefined && (!isThread(channel) || channel.parent_id !== webhook.channel_id)) {
      throw apiError('UnknownChannel');
    }
    // A webhook may mention @everyone and send polls (v10); it replies to nothing (no READ_MESSAGE_HISTORY).
    return { guild, channel, permissions: MENTION_EVERYONE | PermissionFlagsBits.SendPolls, webhook };
  }

  /** A message this webhook sent, where the query says it is. */
  private async ownMessage(
    webhookId: string,
    token: string,
    messageId: string,
    query: ExecuteQuery,
  ): Promise<{ place: WebhookPlace; message: StoredMessage }> {
    const place = await this.place(await this.byToken(webhookId, token), query);
    const message = await findChannelMessage(this.deps.messages, place.guild, place.channel, messageId, webhookId);
    if (!message || message.webhook_id !== webhookId) throw apiError('UnknownMessage');
    return { place, message };
  }

  /** Writes the edit (a bot's, by `applicationId`, or the token's when null), tells the bots and the audit log. */
  private async applyEdit(
    applicationId: string | null,
    webhook: StoredWebhook,
    edit: { name?: string; avatar?: AvatarChange; channelId: string },
    reason: string | null,
  ): Promise<WireObject> {
    const edited: StoredWebhook = {
      ...webhook,
      name: edit.name ?? webhook.name,
      avatar: edit.avatar === undefined ? webhook.avatar : (edit.avatar?.hash ?? null),
      channel_id: edit.channelId,
    };
    const written = await this.deps.webhooks.updateWebhook(
      webhook.application_id,
      edited,
      edit.avatar,
      MAX_WEBHOOKS_PER_CHANNEL,
    );
    if (written === 'gone') throw apiError('UnknownWebhook');
    if (written === 'full') throw apiError('MaxWebhooks', { params: { limit: MAX_WEBHOOKS_PER_CHANNEL } });
    const changes = editChanges(webhook, edited);
    if (changes.length > 0) {
      await this.changed(edited, applicationId, AuditLogEvent.WebhookUpdate, changes, reason);
      if (edited.channel_id !== webhook.channel_id) this.announce(webhook);
    }
    return this.wire(edited);
  }

  /** WEBHOOKS_UPDATE for the webhook's channel, and the audit log's entry (by the bot, or no one for a token). */
  private async changed(
    webhook: StoredWebhook,
    actorId: string | null,
    action: AuditLogEvent,
    changes: APIAuditLogChange[],
    reason: string | null,
  ): Promise<void> {
    this.announce(webhook);
    await this.deps.auditLog.record({
      guild_id: webhook.guild_id,
      user_id: actorId,
      target_id: webhook.id,
      action_type: action,
      changes,
      reason,
    });
  }

  private announce(webhook: StoredWebhook): void {
    this.deps.events.publishAll([
      guildDispatch('WEBHOOKS_UPDATE', webhook.guild_id, webhook.channel_id, {
        guild_id: webhook.guild_id,
        channel_id: webhook.channel_id,
      }),
    ]);
  }

  private async wire(webhook: StoredWebhook, secret?: { token: string; url: string }): Promise<WireObject> {
    const user = await wirePublicUserOrBot(this.deps.world, webhook.application_id);
    const source = await this.sourceOf(webhook);
    return toWireWebhook(webhook, secret ? { user, secret, source } : { user, source });
  }

  /** A follower's source guild and channel as the world names them now (null when either is gone). */
  private async sourceOf(webhook: StoredWebhook): Promise<WebhookSource | null> {
    if (webhook.source_guild_id === null || webhook.source_channel_id === null) return null;
    const guild = await this.deps.members.getGuildWithMembers(webhook.source_guild_id, []);
    const channel = guild?.channels.find((c) => c.id === webhook.source_channel_id);
    if (!guild || !channel) return null;
    return {
      guild: { id: guild.id, name: guild.name, icon: guild.settings?.icon ?? null },
      channel: { id: channel.id, name: channel.name },
    };
  }

  private async wireAll(webhooks: readonly StoredWebhook[]): Promise<WireObject[]> {
    const wired: WireObject[] = [];
    for (const webhook of webhooks) wired.push(await this.wire(webhook));
    return wired;
  }
}

/** The audit log's changes of a webhook created: its name, channel, type and avatar (v10's keys). */
function createChanges(webhook: StoredWebhook): APIAuditLogChange[] {
  const changes: APIAuditLogChange[] = [
    { key: 'name', new_value: webhook.name },
    { key: 'channel_id', new_value: webhook.channel_id },
    { key: 'type', new_value: webhook.type },
  ];
  if (webhook.avatar) changes.push({ key: 'avatar_hash', new_value: webhook.avatar });
  return changes;
}

/** The audit log's changes of an edit: each field that changed. */
function editChanges(before: StoredWebhook, after: StoredWebhook): APIAuditLogChange[] {
  const changes: APIAuditLogChange[] = [];
  if (before.name !== after.name) changes.push({ key: 'name', old_value: before.name, new_value: after.name });
  if (before.channel_id !== after.channel_id) {
    changes.push({ key: 'channel_id', old_value: before.channel_id, new_value: after.channel_id });
  }
  if (before.avatar !== after.avatar) {
    changes.push({
      key: 'avatar_hash',
      ...(before.avatar ? { old_value: before.avatar } : {}),
      ...(after.avatar ? { new_value: after.avatar } : {}),
    });
  }
  return changes;
}
