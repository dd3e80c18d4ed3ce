/** Guild scheduled events and their interested users. */
import { defineResource } from '../resource.js';
import { scheduledEventsTables } from './migrations/2026-12-02-scheduled-events.js';
import { scheduledEventImageRoutes, scheduledEventRoutes } from './routes.js';
import { ScheduledEventsService } from './service.js';
import { SqliteScheduledEventStore } from './store.sqlite.js';
import { PostgresScheduledEventStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    scheduledEvents: ScheduledEventsService;
  }
}

export const scheduledEventsResource = defineResource({
  name: 'scheduled-events',
  // A voice or stage event goes with its channel (its users are left to nothing: they are read through the event).
  channelOwnedTables: ['guild_scheduled_events'],
  stores: {
    scheduledEvents: {
      sqlite: ({ conn }) => new SqliteScheduledEventStore(conn),
      postgres: ({ conn }) => new PostgresScheduledEventStore(conn),
    },
  },
  services: {
    scheduledEvents: ({ store, ids, now, worldEvents }, { auditLog }) =>
      new ScheduledEventsService({
        world: store.world,
        members: store.members,
        events: store.scheduledEvents,
        bus: worldEvents,
        auditLog,
        ids,
        now,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(scheduledEventRoutes, { scheduledEvents: services.scheduledEvents });
  },
  rootRoutes: async (app, { services }) => {
    await app.register(scheduledEventImageRoutes, { scheduledEvents: services.scheduledEvents });
  },
  migrations: [scheduledEventsTables],
});
