/** The interaction webhook: the original response and follow-ups, for 15 minutes after invocation. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MessageRenderer } from '../messages/renderer.js';
import type { WebhookMessagesService } from './webhook-messages-service.js';
import { checkBeforeUpload, UPLOADS, withMessageBody } from '../../http/multipart.js';

export interface WebhookRoutesOptions {
  webhookMessages: WebhookMessagesService;
  renderer: MessageRenderer;
}

interface WebhookParams {
  applicationId: string;
  token: string;
}

interface MessageParams extends WebhookParams {
  messageId: string;
}

export async function webhookRoutes(
  api: FastifyInstance,
  { webhookMessages, renderer }: WebhookRoutesOptions,
): Promise<void> {
  const base = '/webhooks/:applicationId/:token';

  // The interaction token is the credential: an unknown one is refused before an upload is read.
  const tokenFirst = {
    ...UPLOADS,
    preHandler: checkBeforeUpload<FastifyRequest<{ Params: WebhookParams }>>(async (request) => {
      await webhookMessages.webhookInteraction(request.params.applicationId, request.params.token);
    }),
  };

  api.post<{ Params: WebhookParams }>(base, tokenFirst, async (request, reply) => {
    const { applicationId, token } = request.params;
    return withMessageBody(request, reply, async ({ payload, files }) =>
      renderer.render(await webhookMessages.followUp(applicationId, token, payload, files)),
    );
  });

  api.get<{ Params: MessageParams }>(`${base}/messages/:messageId`, async (request) => {
    const { applicationId, token, messageId } = request.params;
    return renderer.render(await webhookMessages.getMessage(applicationId, token, messageId));
  });

  api.patch<{ Params: MessageParams }>(`${base}/messages/:messageId`, tokenFirst, async (request, reply) => {
    const { applicationId, token, messageId } = request.params;
    return withMessageBody(request, reply, async ({ payload, files }) =>
      renderer.render(await webhookMessages.editMessage(applicationId, token, messageId, payload, files)),
    );
  });

  api.delete<{ Params: MessageParams }>(`${base}/messages/:messageId`, async (request, reply) => {
    const { applicationId, token, messageId } = request.params;
    await webhookMessages.deleteMessage(applicationId, token, messageId);
    return reply.code(204).send();
  });
}
