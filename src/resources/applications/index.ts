/** Applications as they see themselves (`/applications/@me`, `/oauth2/applications/@me`), and their endpoints. */
import { defineResource } from '../resource.js';
import { EndpointService } from './endpoint-service.js';
import type { PrincipalStore } from './principal-lookup.js';
import { identityRoutes } from './routes.js';
import { ApplicationService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    /** Token lookups of the authentication hook. */
    principals: PrincipalStore;
    endpoints: EndpointService;
    applications: ApplicationService;
  }
}

export const applicationsResource = defineResource({
  name: 'applications',
  services: {
    principals: ({ store }) => store.world,
    endpoints: ({ store, httpDelivery, ids }) => new EndpointService(store.world, httpDelivery, ids),
    applications: ({ store }, { endpoints }) => new ApplicationService(store.world, endpoints),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(identityRoutes, { applications: services.applications });
  },
});
