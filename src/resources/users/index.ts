/** Users as others see them, the caller's guilds, and a bot's own profile (`PATCH /users/@me`) with its images. */
import { defineResource } from '../resource.js';
import { botProfilesTable } from './migrations/2026-12-02-bot-profiles.js';
import { userImageRoutes, userRoutes } from './routes.js';
import { BotProfileService } from './service.js';
import { PostgresBotProfileStore } from './store.postgres.js';
import { SqliteBotProfileStore } from './store.sqlite.js';

declare module '../resource.js' {
  interface NodeServices {
    botProfiles: BotProfileService;
  }
}

export const usersResource = defineResource({
  name: 'users',
  stores: {
    botProfiles: {
      sqlite: ({ conn }) => new SqliteBotProfileStore(conn),
      postgres: ({ conn }) => new PostgresBotProfileStore(conn),
    },
  },
  services: {
    botProfiles: ({ store, now, worldEvents }) =>
      new BotProfileService({ profiles: store.botProfiles, world: store.world, events: worldEvents, now }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(userRoutes, { guilds: services.guilds, botProfiles: services.botProfiles });
  },
  rootRoutes: async (app, { services }) => {
    await app.register(userImageRoutes, { botProfiles: services.botProfiles, webhooks: services.webhooks });
  },
  migrations: [botProfilesTable],
});
