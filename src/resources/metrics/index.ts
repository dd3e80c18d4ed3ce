/** `GET /metrics` for holders of the metrics tokens. */
import { defineResource } from '../resource.js';
import { metricsRoutes } from './routes.js';

export const metricsResource = defineResource({
  name: 'metrics',
  rootRoutes: async (app, { options }) => {
    if (!options.metrics) return;
    await app.register(metricsRoutes, { metrics: options.metrics.exposition, tokens: options.metrics.tokens });
  },
});
