/** Guilds' auto moderation: the rules, and their screening of users' messages. */
import { defineResource } from '../resource.js';
import { autoModerationTables } from './migrations/2026-12-03-auto-moderation.js';
import { patternRunner } from './pattern-runner.js';
import { autoModerationRoutes } from './routes.js';
import { AutoModerationService } from './service.js';
import { SqliteAutoModerationStore } from './store.sqlite.js';
import { PostgresAutoModerationStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    autoModeration: AutoModerationService;
  }
}

export const autoModerationResource = defineResource({
  name: 'auto-moderation',
  stores: {
    autoModeration: {
      sqlite: ({ conn }) => new SqliteAutoModerationStore(conn),
      postgres: ({ conn }) => new PostgresAutoModerationStore(conn),
    },
  },
  services: {
    autoModeration: ({ store, ids, now, worldEvents }, { auditLog, members }) =>
      new AutoModerationService({
        world: store.world,
        members: store.members,
        rules: store.autoModeration,
        messages: store.interactions,
        memberEdits: members,
        auditLog,
        events: worldEvents,
        runPattern: patternRunner(),
        ids,
        now,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(autoModerationRoutes, { autoModeration: services.autoModeration });
  },
  migrations: [autoModerationTables],
});
