/** Guild bans. */
import { defineResource } from '../resource.js';
import { banRoutes } from './routes.js';
import { BansService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    bans: BansService;
  }
}

export const bansResource = defineResource({
  name: 'bans',
  services: {
    bans: ({ store, worldEvents }, { auditLog }) =>
      new BansService({ world: store.world, members: store.members }, worldEvents, auditLog),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(banRoutes, { bans: services.bans });
  },
});
