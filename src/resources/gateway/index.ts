/** Gateway discovery (`/gateway`, `/gateway/bot`) and whose bots are connected (`/admin/delivery`). */
import { defineResource } from '../resource.js';
import { adminDeliveryRoutes } from './admin-routes.js';
import { gatewayRoutes } from './routes.js';

export const gatewayResource = defineResource({
  name: 'gateway',
  apiRoutes: async (api, { parts }) => {
    await api.register(gatewayRoutes, { gateway: parts.gateway });
  },
  rootRoutes: async (app, { services, parts }) => {
    await app.register(adminDeliveryRoutes, {
      world: services.world,
      presence: parts.gateway,
      adminToken: parts.adminToken,
      prefix: '/admin',
    });
  },
});
