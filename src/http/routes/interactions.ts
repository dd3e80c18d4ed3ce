/**
 * Interactions: the client invokes (`POST /interactions`, user token) and reads the state; the
 * app answers through the callback endpoint, where the interaction token is the credential.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { InteractionsService } from '../../services/interactions-service.js';
import type { InteractionReads } from '../../services/interaction-reads.js';
import type { CallbacksService } from '../../services/callbacks-service.js';
import { requireUser, userOf } from '../guards.js';
import { queryFlag } from '../query.js';

export interface InteractionRoutesOptions {
  interactions: InteractionsService;
  reads: InteractionReads;
  callbacks: CallbacksService;
}

export async function interactionRoutes(
  api: FastifyInstance,
  { interactions, reads, callbacks }: InteractionRoutesOptions,
): Promise<void> {
  api.post('/interactions', { onRequest: requireUser }, async (request) =>
    interactions.invoke(userOf(request), request.body, { requestId: request.id, log: request.log }),
  );

  api.get<{ Params: { interactionId: string } }>(
    '/interactions/:interactionId',
    { onRequest: requireUser },
    async (request) => {
      const status = await reads.status(userOf(request), request.params.interactionId);
      if (!status) throw apiError('UnknownInteraction');
      return status;
    },
  );

  api.post<{ Params: { interactionId: string; token: string }; Querystring: { with_response?: string } }>(
    '/interactions/:interactionId/:token/callback',
    async (request, reply) => {
      const { callbackResponse } = await callbacks.callback(
        request.params.interactionId,
        request.params.token,
        request.body,
      );
      if (queryFlag(request.query.with_response)) return reply.code(200).send(callbackResponse);
      return reply.code(204).send();
    },
  );
}
