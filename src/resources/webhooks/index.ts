/** Channel webhooks: made by bots, executed with their tokens, deleted with their channel. */
import { defineResource } from '../resource.js';
import { webhooksTable } from './migrations/2026-12-02-webhooks.js';
import { webhookRoutes } from './routes.js';
import { WebhooksService } from './service.js';
import { SqliteWebhookStore } from './store.sqlite.js';
import { PostgresWebhookStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    webhooks: WebhooksService;
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
  },
  apiRoutes: async (api, { services }) => {
    await api.register(webhookRoutes, { webhooks: services.webhooks });
  },
  migrations: [webhooksTable],
});
