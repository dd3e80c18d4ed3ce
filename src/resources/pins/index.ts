/** A channel's pins. */
import { defineResource } from '../resource.js';
import { channelPinRoutes } from './routes.js';
import { PinsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    pins: PinsService;
  }
}

export const pinsResource = defineResource({
  name: 'pins',
  services: {
    pins: ({ store, now, worldEvents }, { renderer }) =>
      new PinsService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        renderer,
        events: worldEvents,
        now,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(channelPinRoutes, { pins: services.pins });
  },
});
