/** Guilds, their members and channels as their readers see them. */
import { defineResource } from '../resource.js';
import { guildRoutes } from './routes.js';
import { GuildsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    guilds: GuildsService;
  }
}

export const guildsResource = defineResource({
  name: 'guilds',
  services: {
    guilds: ({ store }, { commandIndex }) =>
      new GuildsService({ world: store.world, members: store.members, interactions: store.interactions }, commandIndex),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(guildRoutes, { guilds: services.guilds });
  },
});
