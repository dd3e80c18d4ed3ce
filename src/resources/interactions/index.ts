/** Interactions: invocations, their delivery, the first answer, the interaction webhook and their records. */
import { defineResource } from '../resource.js';
import { adminInteractionRoutes } from './admin-routes.js';
import { CallbacksService } from './callbacks-service.js';
import { InteractionDelivery } from './delivery.js';
import { worldMessageChanges } from './migrations/2026-12-02-world-message-changes.js';
import { InteractionReads } from './reads.js';
import { interactionRoutes } from './routes.js';
import { InteractionsService } from './service.js';
import { WebhookMessagesService } from './webhook-messages-service.js';
import { webhookRoutes } from './webhook-routes.js';
import { SqliteInteractionStore } from './store.sqlite.js';
import { PostgresInteractionStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    interactions: InteractionsService;
    /** An interaction's state for its invoker, its transcript for the admin. */
    interactionReads: InteractionReads;
    /** The first answer to an interaction (the callback endpoint). */
    callbacks: CallbacksService;
    /** Its deadline timers stop with the node. */
    interactionDelivery: InteractionDelivery;
    /** Follow-ups and `@original` through the interaction webhook. */
    webhookMessages: WebhookMessagesService;
  }
}

export const interactionsResource = defineResource({
  name: 'interactions',
  // The channel's messages, their pins (the pins resource has no table of its own) and what
  // the API changed of the world file's.
  channelOwnedTables: ['message_pins', 'messages', 'world_message_changes'],
  stores: {
    interactions: {
      sqlite: ({ conn }) => new SqliteInteractionStore(conn),
      postgres: ({ conn }) => new PostgresInteractionStore(conn),
    },
  },
  migrations: [worldMessageChanges],
  services: {
    callbacks: ({ store, ids, now, worldEvents, metrics }, { renderer, attachments }) =>
      new CallbacksService({ store, ids, now, renderer, events: worldEvents, metrics, attachments }),
    interactionDelivery: (parts, { callbacks }) =>
      new InteractionDelivery({
        store: parts.store,
        bus: parts.bus,
        http: parts.httpDelivery,
        callbacks,
        now: parts.now,
        presence: parts.presence,
        failWithoutSession: parts.failWithoutSession,
        metrics: parts.metrics,
        faults: parts.faults,
        log: parts.log,
      }),
    interactions: ({ store, ids, now, metrics }, { interactionDelivery, callbacks, renderer }) =>
      new InteractionsService({ store, ids, delivery: interactionDelivery, callbacks, now, metrics, renderer }),
    interactionReads: ({ store, now }) => new InteractionReads({ store, now }),
    webhookMessages: ({ store, ids, now, worldEvents, metrics }, { attachments }) =>
      new WebhookMessagesService({ store, ids, now, events: worldEvents, metrics, attachments }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(interactionRoutes, {
      interactions: services.interactions,
      reads: services.interactionReads,
      callbacks: services.callbacks,
      attachments: services.attachments,
    });
    await api.register(webhookRoutes, { webhookMessages: services.webhookMessages, renderer: services.renderer });
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminInteractionRoutes, {
      interactions: services.interactionReads,
      adminToken: parts.adminToken,
      prefix: '/admin',
    });
  },
});
