/** Snapshots of the whole state and the reset to the start (the admin API, for tests). */
import { defineResource } from '../resource.js';
import { snapshotRoutes } from './routes.js';
import { SnapshotService } from './service.js';
import { SqliteSnapshotStore } from './store.sqlite.js';
import { PostgresSnapshotStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    snapshots: SnapshotService;
  }
}

export const snapshotsResource = defineResource({
  name: 'snapshots',
  stores: {
    snapshots: {
      sqlite: ({ conn }) => new SqliteSnapshotStore(conn),
      postgres: ({ conn }) => new PostgresSnapshotStore(conn),
    },
  },
  services: {
    snapshots: ({ store, ids }, { world }) => new SnapshotService(store.snapshots, world, ids),
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(snapshotRoutes, {
      snapshots: services.snapshots,
      adminToken: parts.adminToken,
      prefix: '/admin',
    });
  },
});
