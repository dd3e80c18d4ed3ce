/** Guild channels and their overwrites written by bots, and `PATCH`/`DELETE /channels/{id}`. */
import { defineResource } from '../resource.js';
import { channelEditRoutes } from './edit-routes.js';
import { guildChannelRoutes } from './routes.js';
import { GuildChannelsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    guildChannels: GuildChannelsService;
  }
}

export const channelsResource = defineResource({
  name: 'channels',
  services: {
    guildChannels: ({ ids }, { structureWrites }) => new GuildChannelsService({ writes: structureWrites, ids }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(guildChannelRoutes, { guildChannels: services.guildChannels });
    await api.register(channelEditRoutes, { threads: services.threads, guildChannels: services.guildChannels });
  },
});
