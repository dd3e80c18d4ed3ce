/** Gateway discovery (v10): where to connect, and for a bot how many shards and session starts. */
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../core/errors.js';
import { authenticate } from '../auth.js';
import type { HttpContext } from '../context.js';

export async function gatewayRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const { gateway } = ctx;
  api.get('/gateway', async (request) => ({ url: gateway.url(request.headers.host) }));

  api.get('/gateway/bot', { config: { auth: 'bot' } }, async (request) => {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (principal?.kind !== 'bot') throw unauthorized();
    return gateway.botInfo(principal.app, request.headers.host);
  });
}
