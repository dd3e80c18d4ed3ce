/** The home page and the probes (`/healthz`, `/readyz`). */
import { defineResource } from '../resource.js';
import { homeRoutes } from './routes.js';

export const homeResource = defineResource({
  name: 'home',
  rootRoutes: async (app, { parts }) => {
    await app.register(homeRoutes, { ready: parts.ready });
  },
});
