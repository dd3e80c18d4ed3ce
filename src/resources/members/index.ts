/** Guild members' edits, kicks and search by bots. */
import { defineResource } from '../resource.js';
import { memberRoutes } from './routes.js';
import { MembersService } from './service.js';
import { SqliteGuildMembers } from './store.sqlite.js';
import { PostgresGuildMembers } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    members: MembersService;
  }
}

export const membersResource = defineResource({
  name: 'members',
  stores: {
    members: {
      sqlite: ({ conn, shared }) => new SqliteGuildMembers(conn, shared),
      postgres: ({ conn, shared }) => new PostgresGuildMembers(conn, shared),
    },
  },
  services: {
    members: ({ store, worldEvents, now }, { auditLog }) =>
      new MembersService({ world: store.world, members: store.members, auditLog, events: worldEvents, now }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(memberRoutes, { members: services.members });
  },
});
