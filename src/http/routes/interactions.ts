/**
 * Interactions: the client invokes (`POST /interactions`, user token) and reads the state; the
 * app answers through the callback endpoint, where the interaction token is the credential.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { User } from '../../core/world/types.js';
import { authenticate } from '../auth.js';
import type { HttpContext } from '../context.js';
import { queryFlag } from '../query.js';

export async function interactionRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function invokingUser(request: FastifyRequest): Promise<User> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind !== 'user') throw apiError('Unauthorized');
    return principal.user;
  }

  api.post('/interactions', { config: { auth: 'user' } }, async (request) => {
    const user = await invokingUser(request);
    return ctx.interactions.invoke(user, request.body);
  });

  api.get<{ Params: { interactionId: string } }>(
    '/interactions/:interactionId',
    { config: { auth: 'user' } },
    async (request) => {
      const user = await invokingUser(request);
      const status = await ctx.interactions.status(user, request.params.interactionId);
      if (!status) throw apiError('UnknownInteraction');
      return status;
    },
  );

  api.post<{ Params: { interactionId: string; token: string }; Querystring: { with_response?: string } }>(
    '/interactions/:interactionId/:token/callback',
    async (request, reply) => {
      const { callbackResponse } = await ctx.responses.callback(
        request.params.interactionId,
        request.params.token,
        request.body,
      );
      if (queryFlag(request.query.with_response)) return reply.code(200).send(callbackResponse);
      return reply.code(204).send();
    },
  );
}
