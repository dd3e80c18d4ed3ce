/** Threads, their members and their lists. */
import { defineResource } from '../resource.js';
import { ThreadListsService } from './lists-service.js';
import { ThreadMembersService } from './members-service.js';
import { threadRoutes } from './routes.js';
import { ThreadsService } from './service.js';
import { SqliteThreads } from './store.sqlite.js';
import { PostgresThreads } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    threads: ThreadsService;
    threadMembers: ThreadMembersService;
    threadLists: ThreadListsService;
  }
}

export const threadsResource = defineResource({
  name: 'threads',
  stores: {
    threads: {
      sqlite: ({ conn, shared }) => new SqliteThreads(conn, shared),
      postgres: ({ conn, shared }) => new PostgresThreads(conn, shared),
    },
  },
  services: {
    threads: ({ store, ids, now, worldEvents }, { auditLog, slowmode }) =>
      new ThreadsService({
        world: store.world,
        members: store.members,
        threads: store.threads,
        messages: store.interactions,
        ids,
        now,
        events: worldEvents,
        auditLog,
        slowmode,
      }),
    threadMembers: ({ store, worldEvents, now }) =>
      new ThreadMembersService(
        { world: store.world, members: store.members, threads: store.threads },
        worldEvents,
        now,
      ),
    threadLists: ({ store, now }) =>
      new ThreadListsService(
        { world: store.world, members: store.members, threads: store.threads, interactions: store.interactions },
        now,
      ),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(threadRoutes, {
      threads: services.threads,
      members: services.threadMembers,
      lists: services.threadLists,
    });
  },
});
