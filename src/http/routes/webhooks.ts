/** The interaction webhook: the original response and follow-ups, for 15 minutes after invocation. */
import type { FastifyInstance } from 'fastify';
import type { HttpContext } from '../context.js';

interface WebhookParams {
  applicationId: string;
  token: string;
}

interface MessageParams extends WebhookParams {
  messageId: string;
}

export async function webhookRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const base = '/webhooks/:applicationId/:token';

  api.post<{ Params: WebhookParams }>(base, async (request) => {
    const { applicationId, token } = request.params;
    return ctx.renderer.render(await ctx.responses.followUp(applicationId, token, request.body));
  });

  api.get<{ Params: MessageParams }>(`${base}/messages/:messageId`, async (request) => {
    const { applicationId, token, messageId } = request.params;
    return ctx.renderer.render(await ctx.responses.getMessage(applicationId, token, messageId));
  });

  api.patch<{ Params: MessageParams }>(`${base}/messages/:messageId`, async (request) => {
    const { applicationId, token, messageId } = request.params;
    return ctx.renderer.render(await ctx.responses.editMessage(applicationId, token, messageId, request.body));
  });

  api.delete<{ Params: MessageParams }>(`${base}/messages/:messageId`, async (request, reply) => {
    const { applicationId, token, messageId } = request.params;
    await ctx.responses.deleteMessage(applicationId, token, messageId);
    return reply.code(204).send();
  });
}
