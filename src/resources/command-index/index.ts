/** The command picker (the application command index) and what a user sees in a channel. */
import { defineResource } from '../resource.js';
import { splitCacheBudget } from './cache.js';
import { ChannelsService } from './channel-reads.js';
import { channelRoutes } from './routes.js';
import { CommandIndexService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    /** Its cache is watched by the metrics. */
    commandIndex: CommandIndexService;
    channels: ChannelsService;
  }
}

export const commandIndexResource = defineResource({
  name: 'command-index',
  services: {
    commandIndex: ({ store, config, now }) =>
      new CommandIndexService(store, { cacheBytes: splitCacheBudget(config.cacheBytes).index, now }),
    channels: ({ store }, { commandIndex, renderer, dms }) =>
      new ChannelsService(store.members, commandIndex, renderer, dms),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(channelRoutes, { channels: services.channels });
  },
});
