/**
 * Subscriptions' routes: v10's `GET /skus/{sku.id}/subscriptions` and `.../{subscription.id}` for
 * an app's bot; the admin API that buys, renews, cancels and deletes them (what a store and its
 * clock would do); and the console's Store under `/console/api` with the signed-in user's token
 * (their shelves, a sandbox purchase, a cancel, a consume). Who may do what is the service's.
 */
import type { FastifyInstance } from 'fastify';
import { appOf, requireAdminToken, requireBot, requireUser, userOf } from '../../http/guards.js';
import type { SubscriptionsService } from './service.js';

export interface SubscriptionRoutesOptions {
  subscriptions: SubscriptionsService;
}

/** A subscription's or a purchase's body is two ids. */
const SUBSCRIPTION_BODY_LIMIT_BYTES = 4 * 1024;

interface SkuParams {
  skuId: string;
}

interface SubscriptionParams extends SkuParams {
  subscriptionId: string;
}

interface AdminParams {
  id: string;
  subscriptionId: string;
}

interface ConsoleParams {
  applicationId: string;
  itemId: string;
}

export async function subscriptionRoutes(
  api: FastifyInstance,
  { subscriptions }: SubscriptionRoutesOptions,
): Promise<void> {
  const bot = { onRequest: requireBot };
  api.get<{ Params: SkuParams }>('/skus/:skuId/subscriptions', bot, async (request) =>
    subscriptions.list(appOf(request).id, request.params.skuId, request.query as Record<string, unknown>),
  );
  api.get<{ Params: SubscriptionParams }>('/skus/:skuId/subscriptions/:subscriptionId', bot, async (request) =>
    subscriptions.get(
      appOf(request).id,
      request.params.skuId,
      request.params.subscriptionId,
      request.query as Record<string, unknown>,
    ),
  );
}

export interface AdminSubscriptionRoutesOptions extends SubscriptionRoutesOptions {
  adminToken: string;
}

/**
 * `POST /admin/applications/{id}/subscriptions` (`{sku_id, user_id}`), and of one of them
 * `POST .../renew`, `POST .../cancel` and `DELETE`; and the admin API's purchase of any SKU,
 * `POST /admin/applications/{id}/entitlements` (`{sku_id, user_id}`).
 */
export async function adminSubscriptionRoutes(
  admin: FastifyInstance,
  { subscriptions, adminToken }: AdminSubscriptionRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.post<{ Params: { id: string } }>(
    '/applications/:id/subscriptions',
    { bodyLimit: SUBSCRIPTION_BODY_LIMIT_BYTES },
    async (request) => subscriptions.adminSubscribe(request.params.id, request.body),
  );
  admin.post<{ Params: { id: string } }>(
    '/applications/:id/entitlements',
    { bodyLimit: SUBSCRIPTION_BODY_LIMIT_BYTES },
    async (request) => subscriptions.adminPurchase(request.params.id, request.body),
  );
  admin.post<{ Params: AdminParams }>(
    '/applications/:id/subscriptions/:subscriptionId/renew',
    { bodyLimit: SUBSCRIPTION_BODY_LIMIT_BYTES },
    async (request) => subscriptions.adminRenew(request.params.id, request.params.subscriptionId),
  );
  admin.post<{ Params: AdminParams }>(
    '/applications/:id/subscriptions/:subscriptionId/cancel',
    { bodyLimit: SUBSCRIPTION_BODY_LIMIT_BYTES },
    async (request) => subscriptions.adminCancel(request.params.id, request.params.subscriptionId),
  );
  admin.delete<{ Params: AdminParams }>('/applications/:id/subscriptions/:subscriptionId', async (request, reply) => {
    await subscriptions.adminDelete(request.params.id, request.params.subscriptionId);
    return reply.code(204).send();
  });
}

/** The console's Store, as the signed-in user. */
export async function consoleStoreRoutes(
  app: FastifyInstance,
  { subscriptions }: SubscriptionRoutesOptions,
): Promise<void> {
  const user = { onRequest: requireUser, bodyLimit: SUBSCRIPTION_BODY_LIMIT_BYTES };
  app.get('/console/api/store', { onRequest: requireUser }, async (request) =>
    subscriptions.shelves(userOf(request).id),
  );
  app.post<{ Params: { applicationId: string } }>(
    '/console/api/applications/:applicationId/purchases',
    user,
    async (request) => subscriptions.purchase(userOf(request).id, request.params.applicationId, request.body),
  );
  app.post<{ Params: ConsoleParams }>(
    '/console/api/applications/:applicationId/subscriptions/:itemId/cancel',
    user,
    async (request) => subscriptions.cancelOwn(userOf(request).id, request.params.applicationId, request.params.itemId),
  );
  app.post<{ Params: ConsoleParams }>(
    '/console/api/applications/:applicationId/entitlements/:itemId/consume',
    user,
    async (request) =>
      subscriptions.consumeOwn(userOf(request).id, request.params.applicationId, request.params.itemId),
  );
}
