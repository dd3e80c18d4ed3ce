/** `GET /admin/delivery`: where each app's interactions go now (endpoint, or gateway and whether a bot is connected). */
import type { FastifyInstance } from 'fastify';
import type { GatewayPresence } from '../../core/gateway/presence.js';
import { deliveryRoutes } from './delivery-lookup.js';
import type { WorldService } from '../world/service.js';
import { requireAdminToken } from '../../http/guards.js';

export interface AdminDeliveryRoutesOptions {
  world: Pick<WorldService, 'listApplications'>;
  presence: GatewayPresence;
  adminToken: string;
}

export async function adminDeliveryRoutes(
  admin: FastifyInstance,
  { world, presence, adminToken }: AdminDeliveryRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.get('/delivery', async () => deliveryRoutes(await world.listApplications(), presence));
}
