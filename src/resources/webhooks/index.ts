/** Channel webhooks: made by bots, executed with their tokens, deleted with their channel. */
import { defineResource } from '../resource.js';
import { webhooksTable } from './migrations/2026-12-02-webhooks.js';
import { webhookFollowersColumns } from './migrations/2026-12-02-webhooks-followers.js';
import { webhookAdapterRoutes } from './adapter-routes.js';
import { CrosspostService } from './crosspost-service.js';
import { followerRoutes } from './follower-routes.js';
import { webhookRoutes } from './routes.js';
import { WebhooksService } from './service.js';
import { SqliteWebhookStore } from './store.sqlite.js';
import { PostgresWebhookStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    webhooks: WebhooksService;
    /** Crossposts of announcement channels' messages to their followers. */
    crossposts: CrosspostService;
  }
}

export const webhooksResource = defineResource({
  name: 'webhooks',
  channelOwnedTables: ['webhooks'],
  stores: {
    webhooks: {
      sqlite: ({ conn }) => new SqliteWebhookStore(conn),
      postgres: ({ conn }) => new PostgresWebhookStore(conn),
    },
  },
  services: {
    webhooks: ({ store, ids, now, worldEvents, origin }, { channelMessages, renderer, auditLog }) =>
      new WebhooksService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        webhooks: store.webhooks,
        threads: store.threads,
        channelMessages,
        renderer,
        ids,
        now,
        events: worldEvents,
        auditLog,
        origin,
      }),
    crossposts: ({ store, ids, now, worldEvents }, { renderer }) =>
      new CrosspostService({
        world: store.world,
        members: store.members,
        webhooks: store.webhooks,
        messages: store.interactions,
        renderer,
        ids,
        now,
        events: worldEvents,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(webhookRoutes, { webhooks: services.webhooks });
    await api.register(webhookAdapterRoutes, { webhooks: services.webhooks });
    await api.register(followerRoutes, { webhooks: services.webhooks, crossposts: services.crossposts });
  },
  migrations: [webhooksTable, webhookFollowersColumns],
});
