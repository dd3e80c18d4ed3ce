/** The monetization sandbox: an application's SKUs and the entitlements its users and guilds hold. */
import { defineResource } from '../resource.js';
import { entitlementsTables } from './migrations/2026-12-02-entitlements.js';
import { adminEntitlementRoutes, entitlementRoutes } from './routes.js';
import { EntitlementsService } from './service.js';
import { SqliteEntitlementStore } from './store.sqlite.js';
import { PostgresEntitlementStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    entitlements: EntitlementsService;
  }
}

export const entitlementsResource = defineResource({
  name: 'entitlements',
  stores: {
    entitlements: {
      sqlite: ({ conn }) => new SqliteEntitlementStore(conn),
      postgres: ({ conn }) => new PostgresEntitlementStore(conn),
    },
  },
  services: {
    entitlements: ({ store, bus, ids, now }) =>
      new EntitlementsService({
        entitlements: store.entitlements,
        world: store.world,
        members: store.members,
        bus,
        ids,
        now,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(entitlementRoutes, { entitlements: services.entitlements });
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminEntitlementRoutes, {
      entitlements: services.entitlements,
      adminToken: parts.adminToken,
      prefix: '/admin',
    });
  },
  migrations: [entitlementsTables],
});
