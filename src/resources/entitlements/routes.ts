/**
 * The monetization sandbox's routes: v10's SKU and Entitlement endpoints for an app's bot, and the
 * admin API that defines an app's SKUs and grants a purchase (what a store would do). Who may do
 * what is the service's.
 */
import type { FastifyInstance } from 'fastify';
import { appOf, requireAdminToken, requireBot, requireOwnApp } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import type { EntitlementsService } from './service.js';

export interface EntitlementRoutesOptions {
  entitlements: EntitlementsService;
}

/** A test entitlement's body is three ids. */
const ENTITLEMENT_BODY_LIMIT_BYTES = 4 * 1024;
/** The admin API's SKU list: at most 50 small objects. */
const SKUS_BODY_LIMIT_BYTES = 64 * 1024;

interface AppParams {
  applicationId: string;
}

interface EntitlementParams extends AppParams {
  entitlementId: string;
}

export async function entitlementRoutes(
  api: FastifyInstance,
  { entitlements }: EntitlementRoutesOptions,
): Promise<void> {
  // discord.py sends the ids of a test entitlement as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);
  const bot = { onRequest: requireBot, preHandler: [requireOwnApp] };

  api.get<{ Params: AppParams }>('/applications/:applicationId/skus', bot, async (request) =>
    entitlements.listSkus(appOf(request).id, request.params.applicationId),
  );

  api.get<{ Params: AppParams }>('/applications/:applicationId/entitlements', bot, async (request) =>
    entitlements.list(appOf(request).id, request.params.applicationId, request.query as Record<string, unknown>),
  );

  api.post<{ Params: AppParams }>(
    '/applications/:applicationId/entitlements',
    { ...bot, bodyLimit: ENTITLEMENT_BODY_LIMIT_BYTES },
    async (request) => entitlements.createTest(appOf(request).id, request.params.applicationId, request.body),
  );

  api.get<{ Params: EntitlementParams }>(
    '/applications/:applicationId/entitlements/:entitlementId',
    bot,
    async (request) => entitlements.get(appOf(request).id, request.params.applicationId, request.params.entitlementId),
  );

  api.delete<{ Params: EntitlementParams }>(
    '/applications/:applicationId/entitlements/:entitlementId',
    bot,
    async (request, reply) => {
      await entitlements.deleteTest(appOf(request).id, request.params.applicationId, request.params.entitlementId);
      return reply.code(204).send();
    },
  );

  api.post<{ Params: EntitlementParams }>(
    '/applications/:applicationId/entitlements/:entitlementId/consume',
    bot,
    async (request, reply) => {
      await entitlements.consume(appOf(request).id, request.params.applicationId, request.params.entitlementId);
      return reply.code(204).send();
    },
  );
}

export interface AdminEntitlementRoutesOptions extends EntitlementRoutesOptions {
  adminToken: string;
}

/**
 * `PUT /admin/applications/{id}/skus`. The admin API's purchase (`POST .../entitlements`) is the
 * subscriptions resource's, since a subscription SKU's purchase makes a subscription.
 */
export async function adminEntitlementRoutes(
  admin: FastifyInstance,
  { entitlements, adminToken }: AdminEntitlementRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.put<{ Params: { id: string } }>(
    '/applications/:id/skus',
    { bodyLimit: SKUS_BODY_LIMIT_BYTES },
    async (request) => entitlements.putSkus(request.params.id, request.body),
  );
}
