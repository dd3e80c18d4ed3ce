/**
 * Interactions: the client invokes (`POST /interactions`, user token) and reads the state; the
 * app answers through the callback endpoint, where the interaction token is the credential.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { InteractionsService } from './service.js';
import type { InteractionReads } from './reads.js';
import type { CallbacksService } from './callbacks-service.js';
import type { AttachmentsService } from '../attachments/service.js';
import { requireUser, userOf } from '../../http/guards.js';
import { queryFlag } from '../../http/query.js';
import { checkBeforeUpload, UPLOADS, withMessageBody } from '../../http/multipart.js';

export interface InteractionRoutesOptions {
  interactions: InteractionsService;
  reads: InteractionReads;
  callbacks: CallbacksService;
  /** Files users attach to commands (ATTACHMENT options); without it, invocations carry none. */
  attachments?: AttachmentsService | undefined;
}

export async function interactionRoutes(
  api: FastifyInstance,
  { interactions, reads, callbacks, attachments }: InteractionRoutesOptions,
): Promise<void> {
  api.post('/interactions', { onRequest: requireUser, ...UPLOADS }, async (request, reply) =>
    withMessageBody(request, reply, async ({ payload, files }) => {
      const context = { requestId: request.id, log: request.log };
      const attached = await attachments?.forInvocation(userOf(request).id, payload, files);
      if (!attached) return interactions.invoke(userOf(request), payload, context);
      try {
        return await interactions.invoke(userOf(request), attached.body, {
          ...context,
          attachments: attached.resolved,
        });
      } catch (error) {
        await attached.discard();
        throw error;
      }
    }),
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
    {
      ...UPLOADS,
      // The interaction token is the credential: an unknown one is refused before an upload is read.
      preHandler: checkBeforeUpload<FastifyRequest<{ Params: { interactionId: string; token: string } }>>(
        async (request) => {
          await callbacks.checkCallbackToken(request.params.interactionId, request.params.token);
        },
      ),
    },
    async (request, reply) => {
      const { interactionId, token } = request.params;
      const { callbackResponse } = await withMessageBody(request, reply, ({ payload, files }) =>
        callbacks.callback(interactionId, token, payload, files),
      );
      if (queryFlag(request.query.with_response)) return reply.code(200).send(callbackResponse);
      return reply.code(204).send();
    },
  );
}
