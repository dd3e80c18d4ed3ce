/** `GET /applications/{id}/activity-instances/{instance_id}`, for the app's own bot (another's is 20012). */
import type { FastifyInstance } from 'fastify';
import { appOf, requireBot, requireOwnApp } from '../../http/guards.js';
import type { ActivityInstancesService } from './service.js';

export interface ActivityInstanceRoutesOptions {
  activityInstances: ActivityInstancesService;
}

export async function activityInstanceRoutes(
  api: FastifyInstance,
  { activityInstances }: ActivityInstanceRoutesOptions,
): Promise<void> {
  api.get<{ Params: { applicationId: string; instanceId: string } }>(
    '/applications/:applicationId/activity-instances/:instanceId',
    { onRequest: requireBot, preHandler: [requireOwnApp] },
    async (request) => activityInstances.get(appOf(request).id, request.params.instanceId),
  );
}
