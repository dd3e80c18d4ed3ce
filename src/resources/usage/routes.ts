/**
 * `GET /admin/applications/{id}/usage`: what the app's bot did on this node (routes called by
 * template, routes slashd does not serve, gateway events sent with the latest ones' data), for
 * `slashd test`; `DELETE` forgets it. Behind the admin token.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { AppUsageRecorder } from './service.js';
import { requireAdminToken } from '../../http/guards.js';

export interface AdminUsageRoutesOptions {
  usage: AppUsageRecorder;
  adminToken: string;
}

export async function adminUsageRoutes(
  admin: FastifyInstance,
  { usage, adminToken }: AdminUsageRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.get<{ Params: { id: string } }>('/applications/:id/usage', async (request) => {
    if (!isSnowflake(request.params.id)) throw apiError('UnknownApplication');
    return usage.usage(request.params.id);
  });
  admin.delete<{ Params: { id: string } }>('/applications/:id/usage', async (request, reply) => {
    if (!isSnowflake(request.params.id)) throw apiError('UnknownApplication');
    usage.clear(request.params.id);
    return reply.code(204).send();
  });
}
