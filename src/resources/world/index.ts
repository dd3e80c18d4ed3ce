/** The world as the admin API writes it: replace, merge, export, the world file and its lines. */
import { defineResource } from '../resource.js';
import { adminRoutes } from './routes.js';
import { WorldService } from './service.js';
import { SqliteWorldStore } from './store.sqlite.js';
import { PostgresWorldStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    world: WorldService;
  }
}

export const worldResource = defineResource({
  name: 'world',
  stores: {
    world: {
      sqlite: ({ conn, shared }) => new SqliteWorldStore(conn, shared),
      postgres: ({ conn, shared }) => new PostgresWorldStore(conn, shared),
    },
  },
  services: {
    world: ({ store, worldEvents }, { commands }) =>
      new WorldService(store.world, store.members, commands, worldEvents, store.interactions, store.entitlements),
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminRoutes, { world: services.world, adminToken: parts.adminToken, prefix: '/admin' });
  },
});
