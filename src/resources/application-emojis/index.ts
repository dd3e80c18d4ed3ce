/** Application emojis: an app's own emojis, usable by its bot in any guild, and their images. */
import { defineResource } from '../resource.js';
import { applicationEmojisTable } from './migrations/2026-12-03-application-emojis.js';
import { applicationEmojiRoutes } from './routes.js';
import { ApplicationEmojisService } from './service.js';
import { SqliteApplicationEmojiStore } from './store.sqlite.js';
import { PostgresApplicationEmojiStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    applicationEmojis: ApplicationEmojisService;
  }
}

export const applicationEmojisResource = defineResource({
  name: 'application-emojis',
  stores: {
    applicationEmojis: {
      sqlite: ({ conn }) => new SqliteApplicationEmojiStore(conn),
      postgres: ({ conn }) => new PostgresApplicationEmojiStore(conn),
    },
  },
  services: {
    applicationEmojis: ({ store, ids }) =>
      new ApplicationEmojisService({ emojis: store.applicationEmojis, world: store.world, ids }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(applicationEmojiRoutes, { applicationEmojis: services.applicationEmojis });
  },
  migrations: [applicationEmojisTable],
});
