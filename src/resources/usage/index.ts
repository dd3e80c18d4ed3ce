/** Each bot's routes recorded for `slashd test` (`GET /admin/applications/{id}/usage`). */
import { principalAfterAnswer } from '../../http/authentication.js';
import { defineResource } from '../resource.js';
import { recordAppUsage } from './hook.js';
import { adminUsageRoutes } from './routes.js';
import type { AppUsageRecorder } from './service.js';

declare module '../../http/server.js' {
  interface ServerOptions {
    /** Each bot's routes recorded for `slashd test` (GET /admin/applications/{id}/usage); none when absent. */
    usage?: AppUsageRecorder | undefined;
  }
}

export const usageResource = defineResource({
  name: 'usage',
  hooks: (app, { services, options }) => {
    if (options.usage) recordAppUsage(app, options.usage, principalAfterAnswer(services.principals));
  },
  rootRoutes: async (app, { parts, options }) => {
    if (!options.usage) return;
    await app.register(adminUsageRoutes, { usage: options.usage, adminToken: parts.adminToken, prefix: '/admin' });
  },
});
