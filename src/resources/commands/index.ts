/** Application commands: global and guild commands, their bulk overwrite, and the admin API's create counter. */
import { defineResource } from '../resource.js';
import { adminCommandCreatesRoutes } from './admin-routes.js';
import { commandListAnswersTable } from './migrations/2026-12-07-command-list-answers.js';
import { applicationCommandRoutes } from './routes.js';
import { CommandsService } from './service.js';
import { SqliteCommandStore } from './store.sqlite.js';
import { PostgresCommandStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    commands: CommandsService;
  }
}

export const commandsResource = defineResource({
  name: 'commands',
  migrations: [commandListAnswersTable],
  stores: {
    commands: {
      sqlite: ({ conn }) => new SqliteCommandStore(conn),
      postgres: ({ conn, cacheBytes }) => new PostgresCommandStore(conn, cacheBytes),
    },
  },
  services: {
    commands: ({ store, ids, now, config }) =>
      new CommandsService({
        store: store.commands,
        ids,
        now,
        ...(config.dailyCommandCreates === undefined
          ? {}
          : { dailyCreatesMax: config.dailyCommandCreates ?? Number.POSITIVE_INFINITY }),
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(applicationCommandRoutes, { commands: services.commands, guilds: services.world });
  },
  rootRoutes: async (app, { services, parts }) => {
    const { world, commands } = services;
    await app.register(adminCommandCreatesRoutes, { world, commands, adminToken: parts.adminToken, prefix: '/admin' });
  },
});
