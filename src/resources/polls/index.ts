/** Polls on messages: votes, voters, ending (by the author, or at the expiry by the sweep). */
import { defineResource } from '../resource.js';
import { pollTables } from './migrations/2026-12-02-polls.js';
import { pollRoutes } from './routes.js';
import { PollsService } from './service.js';
import { PollSweep } from './sweep.js';
import { SqlitePollStore } from './store.sqlite.js';
import { PostgresPollStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    polls: PollsService;
    pollSweep: PollSweep;
  }
}

export const pollsResource = defineResource({
  name: 'polls',
  channelOwnedTables: ['message_polls', 'message_poll_votes'],
  stores: {
    polls: {
      sqlite: ({ conn }) => new SqlitePollStore(conn),
      postgres: ({ conn }) => new PostgresPollStore(conn),
    },
  },
  services: {
    polls: ({ store, ids, now, worldEvents }, { renderer, dms }) =>
      new PollsService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        polls: store.polls,
        dms,
        renderer,
        events: worldEvents,
        ids,
        now,
      }),
    pollSweep: (_parts, { polls }) => new PollSweep(polls),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(pollRoutes, { polls: services.polls });
  },
  // The sweep runs while the server does: from its start to its close (the drain closes it).
  rootRoutes: async (app, { services }) => {
    app.addHook('onReady', async () => services.pollSweep.start());
    app.addHook('onClose', async () => services.pollSweep.stop());
  },
  migrations: [pollTables],
});
