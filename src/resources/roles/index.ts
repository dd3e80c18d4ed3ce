/** Guild roles written by bots. */
import { defineResource } from '../resource.js';
import { roleRoutes } from './routes.js';
import { RolesService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    roles: RolesService;
  }
}

export const rolesResource = defineResource({
  name: 'roles',
  services: {
    roles: ({ store, ids }, { structureWrites }) =>
      new RolesService({ world: store.world, members: store.members, writes: structureWrites, ids }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(roleRoutes, { roles: services.roles });
  },
});
