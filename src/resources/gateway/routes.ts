/** Gateway discovery (v10): where to connect, and for a bot how many shards and session starts. */
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { appOf, requireBot } from '../../http/guards.js';

/** What discovery asks of the gateway: its URL, and a bot's shards and session starts. */
export type GatewayDiscovery = Pick<Gateway, 'url' | 'botInfo'>;

export interface GatewayRoutesOptions {
  gateway: GatewayDiscovery;
}

export async function gatewayRoutes(api: FastifyInstance, { gateway }: GatewayRoutesOptions): Promise<void> {
  api.get('/gateway', async (request) => ({ url: gateway.url(request.headers.host) }));

  api.get('/gateway/bot', { onRequest: requireBot }, async (request) =>
    gateway.botInfo(appOf(request), request.headers.host),
  );
}
