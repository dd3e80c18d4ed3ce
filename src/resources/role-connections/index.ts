/** Application role connections: an app's metadata records and its users' connections (linked roles). */
import { defineResource } from '../resource.js';
import { roleConnectionsTables } from './migrations/2026-12-02-role-connections.js';
import { roleConnectionRoutes } from './routes.js';
import { RoleConnectionsService } from './service.js';
import { SqliteRoleConnectionStore } from './store.sqlite.js';
import { PostgresRoleConnectionStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    roleConnections: RoleConnectionsService;
  }
}

export const roleConnectionsResource = defineResource({
  name: 'role-connections',
  stores: {
    roleConnections: {
      sqlite: ({ conn }) => new SqliteRoleConnectionStore(conn),
      postgres: ({ conn }) => new PostgresRoleConnectionStore(conn),
    },
  },
  services: {
    roleConnections: ({ store }) => new RoleConnectionsService(store.roleConnections),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(roleConnectionRoutes, { roleConnections: services.roleConnections });
  },
  migrations: [roleConnectionsTables],
});
