/** DM channels between bots and users. */
import { messaging } from '../messages/index.js';
import { defineResource } from '../resource.js';
import { groupDms } from './migrations/2026-12-02-group-dms.js';
import { dmChannelRoutes } from './routes.js';
import { DmChannelsService } from './service.js';
import { SqliteDmChannels } from './store.sqlite.js';
import { PostgresDmChannels } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    dms: DmChannelsService;
  }
}

export const dmsResource = defineResource({
  name: 'dms',
  stores: {
    dms: {
      sqlite: ({ conn }) => new SqliteDmChannels(conn),
      postgres: ({ conn }) => new PostgresDmChannels(conn),
    },
  },
  services: {
    dms: (parts, services) => new DmChannelsService(messaging(parts, services)),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(dmChannelRoutes, { dms: services.dms });
  },
  migrations: [groupDms],
});
