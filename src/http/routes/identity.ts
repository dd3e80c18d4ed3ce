/** Who am I: the endpoints client libraries call to log in (docs/v10-behaviour.md#endpoints). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { toWireApplication, toWireBotUser, toWireCurrentUser } from '../../core/world/wire.js';
import { authenticate, type Principal } from '../auth.js';
import type { HttpContext } from '../context.js';

export async function identityRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function principalOf(request: FastifyRequest): Promise<Principal> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal) throw apiError('Unauthorized');
    return principal;
  }

  api.get('/users/@me', { config: { auth: 'any' } }, async (request) => {
    const principal = await principalOf(request);
    if (principal.kind === 'bot') return toWireBotUser(principal.app);
    if (!principal.user) throw apiError('Unauthorized');
    return toWireCurrentUser(principal.user);
  });

  const currentApplication = async (request: FastifyRequest) => {
    const principal = await principalOf(request);
    if (principal.kind === 'user') throw apiError('Unauthorized');
    const owner = await ctx.store.getUser(principal.app.owner_id);
    return toWireApplication(principal.app, principal.app.keys.verifyKey, owner);
  };
  api.get('/applications/@me', { config: { auth: 'app' } }, currentApplication);
  api.get('/oauth2/applications/@me', { config: { auth: 'app' } }, currentApplication);

  api.patch('/applications/@me', { config: { auth: 'bot' } }, async (request) => {
    const principal = await principalOf(request);
    if (principal.kind !== 'bot') throw apiError('Unauthorized');
    const app = await ctx.endpoints.update(principal.app, request.body);
    const owner = await ctx.store.getUser(app.owner_id);
    return toWireApplication(app, app.keys.verifyKey, owner);
  });
}
