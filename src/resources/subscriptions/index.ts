/** The monetization sandbox's subscriptions: v10's reads, the admin API's life cycle, the console's Store. */
import { defineResource } from '../resource.js';
import { subscriptionsTables } from './migrations/2026-12-03-subscriptions.js';
import { adminSubscriptionRoutes, consoleStoreRoutes, subscriptionRoutes } from './routes.js';
import { SubscriptionsService } from './service.js';
import { SqliteSubscriptionStore } from './store.sqlite.js';
import { PostgresSubscriptionStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    subscriptions: SubscriptionsService;
  }
}

export const subscriptionsResource = defineResource({
  name: 'subscriptions',
  stores: {
    subscriptions: {
      sqlite: ({ conn }) => new SqliteSubscriptionStore(conn),
      postgres: ({ conn }) => new PostgresSubscriptionStore(conn),
    },
  },
  services: {
    subscriptions: ({ store, bus, ids, now, config }, { entitlements }) =>
      new SubscriptionsService({
        subscriptions: store.subscriptions,
        entitlementStore: store.entitlements,
        entitlements,
        world: store.world,
        bus,
        ids,
        now,
        sandboxPurchases: config.sandboxSignIn === true,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(subscriptionRoutes, { subscriptions: services.subscriptions });
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminSubscriptionRoutes, {
      subscriptions: services.subscriptions,
      adminToken: parts.adminToken,
      prefix: '/admin',
    });
    await app.register(consoleStoreRoutes, { subscriptions: services.subscriptions });
  },
  migrations: [subscriptionsTables],
});
