/** Injected faults (`/admin/faults`). */
import { defineResource } from '../resource.js';
import { adminFaultRoutes } from './routes.js';
import { FaultsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    faults: FaultsService;
  }
}

export const faultsResource = defineResource({
  name: 'faults',
  services: {
    faults: ({ faults, ids, now, gateway }) => new FaultsService({ table: faults, ids, now, gateway }),
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminFaultRoutes, { faults: services.faults, adminToken: parts.adminToken, prefix: '/admin' });
  },
});
