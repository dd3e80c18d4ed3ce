/** Guilds' audit logs. */
import { defineResource } from '../resource.js';
import { auditLogRoutes } from './routes.js';
import { AuditLog } from './service.js';
import { SqliteAuditLogStore } from './store.sqlite.js';
import { PostgresAuditLogStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    auditLog: AuditLog;
  }
}

export const auditLogResource = defineResource({
  name: 'audit-log',
  stores: {
    auditLog: {
      sqlite: ({ conn }) => new SqliteAuditLogStore(conn),
      postgres: ({ conn }) => new PostgresAuditLogStore(conn),
    },
  },
  services: {
    auditLog: ({ store, ids, worldEvents }) =>
      new AuditLog({ store: store.auditLog, world: store.world, members: store.members, ids, events: worldEvents }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(auditLogRoutes, { auditLog: services.auditLog });
  },
});
