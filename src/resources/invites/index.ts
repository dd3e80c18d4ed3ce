/** Guild invites, and users joining guilds through them. */
import { defineResource } from '../resource.js';
import { invitesTable } from './migrations/2026-12-02-invites.js';
import { joiningRoutes } from './joining-routes.js';
import { JoiningService } from './joining-service.js';
import { pruneRoutes } from './prune-routes.js';
import { PruneService } from './prune-service.js';
import { inviteRoutes } from './routes.js';
import { InvitesService } from './service.js';
import { SqliteInviteStore } from './store.sqlite.js';
import { PostgresInviteStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    invites: InvitesService;
    joining: JoiningService;
    prune: PruneService;
  }
}

export const invitesResource = defineResource({
  name: 'invites',
  channelOwnedTables: ['invites'],
  stores: {
    invites: {
      sqlite: ({ conn }) => new SqliteInviteStore(conn),
      postgres: ({ conn }) => new PostgresInviteStore(conn),
    },
  },
  services: {
    invites: ({ store, worldEvents, now }, { auditLog }) =>
      new InvitesService({
        world: store.world,
        members: store.members,
        invites: store.invites,
        auditLog,
        events: worldEvents,
        now,
      }),
    joining: ({ store, worldEvents, now }, { world }) =>
      new JoiningService({
        world: store.world,
        members: store.members,
        invites: store.invites,
        worldService: world,
        events: worldEvents,
        now,
      }),
    prune: ({ store, worldEvents, now }, { auditLog }) =>
      new PruneService({ world: store.world, invites: store.invites, auditLog, events: worldEvents, now }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(inviteRoutes, { invites: services.invites });
    await api.register(joiningRoutes, { joining: services.joining });
    await api.register(pruneRoutes, { prune: services.prune });
  },
  migrations: [invitesTable],
});
