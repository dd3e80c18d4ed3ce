/** Guilds, their members and channels as their readers see them; the guild's own settings. */
import { defineResource } from '../resource.js';
import { GuildEditService } from './guild-edit-service.js';
import { guildRoutes } from './routes.js';
import { GuildsService } from './service.js';
import { SqliteGuildSettings } from './store.sqlite.js';
import { PostgresGuildSettings } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    guilds: GuildsService;
    guildEdit: GuildEditService;
  }
}

export const guildsResource = defineResource({
  name: 'guilds',
  stores: {
    guildSettings: {
      sqlite: ({ conn, shared }) => new SqliteGuildSettings(conn, shared),
      postgres: ({ conn, shared }) => new PostgresGuildSettings(conn, shared),
    },
  },
  services: {
    guilds: ({ store }, { commandIndex }) =>
      new GuildsService({ world: store.world, members: store.members, interactions: store.interactions }, commandIndex),
    guildEdit: ({ store, worldEvents }, { auditLog }) =>
      new GuildEditService({
        world: store.world,
        members: store.members,
        guildSettings: store.guildSettings,
        auditLog,
        events: worldEvents,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(guildRoutes, { guilds: services.guilds, guildEdit: services.guildEdit });
  },
});
