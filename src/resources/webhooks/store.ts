/**
 * Channel webhooks (docs/v10-behaviour.md#webhooks): each is its app's (the app whose bot made
 * it), in one channel, with at most `maxPerChannel` in a channel. The token is kept as its digest.
 */
import type { StoredWebhook, WebhookAvatarImage } from './rules.js';

export type { StoredWebhook, WebhookAvatarImage };

/** What a write did: done, refused (the channel holds the most webhooks), or the webhook was gone. */
export type WebhookWrite = 'done' | 'full' | 'gone';

export interface WebhookStore {
  /** Adds the webhook unless its channel holds `maxPerChannel` already: one transaction. */
  createWebhook(
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null,
    maxPerChannel: number,
  ): Promise<WebhookWrite>;
  /**
   * The webhook of `id`, whoever's it is: only for the token routes, which compare the token's
   * digest (in constant time) before anything else of it is used.
   */
  findWebhook(id: string): Promise<StoredWebhook | null>;
  /** The app's webhook of `id`, or null (another app's is as if there were none). */
  getWebhook(applicationId: string, id: string): Promise<StoredWebhook | null>;
  /** The app's webhooks in a channel, by id. */
  listChannelWebhooks(applicationId: string, channelId: string): Promise<StoredWebhook[]>;
  /** The app's webhooks in a guild, by id. */
  listGuildWebhooks(applicationId: string, guildId: string): Promise<StoredWebhook[]>;
  /**
   * Rewrites the app's webhook (name, avatar, channel); `avatar` undefined keeps the image, null
   * removes it. A move into another channel counts there: one transaction.
   */
  updateWebhook(
    applicationId: string,
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null | undefined,
    maxPerChannel: number,
  ): Promise<WebhookWrite>;
  /** Deletes the webhook (the app's, or by its token when `applicationId` is null); the row deleted, or null. */
  deleteWebhook(applicationId: string | null, id: string): Promise<StoredWebhook | null>;
  /**
   * The channel follower webhooks (type 2) of the announcement channel `sourceChannelId`, any app's
   * (a crosspost reaches every follower), by id, at most `limit`.
   */
  listFollowers(sourceChannelId: string, limit: number): Promise<StoredWebhook[]>;
  /** The avatar image of the webhook when its hash is `hash`. */
  getAvatar(webhookId: string, hash: string): Promise<WebhookAvatarImage | null>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Channel webhooks. */
    readonly webhooks: WebhookStore;
  }
}
