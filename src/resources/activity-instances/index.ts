/** Activity instances: what an entry point command launched, read back by its app. */
import { defineResource } from '../resource.js';
import { activityInstanceRoutes } from './routes.js';
import { ActivityInstancesService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    activityInstances: ActivityInstancesService;
  }
}

export const activityInstancesResource = defineResource({
  name: 'activity-instances',
  services: {
    activityInstances: ({ store }) => new ActivityInstancesService({ instances: store.interactions }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(activityInstanceRoutes, { activityInstances: services.activityInstances });
  },
});
