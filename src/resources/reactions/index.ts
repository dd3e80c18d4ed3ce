/** Reactions on a channel's messages. */
import { defineResource } from '../resource.js';
import { messageReactionRoutes } from './routes.js';
import { ReactionsService } from './service.js';
import { SqliteReactionStore } from './store.sqlite.js';
import { PostgresReactionStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    reactions: ReactionsService;
  }
}

export const reactionsResource = defineResource({
  name: 'reactions',
  channelOwnedTables: ['message_reactions'],
  stores: {
    reactions: {
      sqlite: ({ conn }) => new SqliteReactionStore(conn),
      postgres: ({ conn }) => new PostgresReactionStore(conn),
    },
  },
  services: {
    reactions: ({ store, now, worldEvents }) =>
      new ReactionsService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        reactions: store.reactions,
        applicationEmojis: store.applicationEmojis,
        events: worldEvents,
        now,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(messageReactionRoutes, { reactions: services.reactions });
  },
});
