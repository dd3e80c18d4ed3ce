/**
 * The Slack- and GitHub-compatible execute forms of a channel webhook's token path:
 * `POST /webhooks/{id}/{token}/slack` (JSON, or a form whose `payload` holds it; answers `ok`, or
 * the message with `wait=true`) and `/github` (the delivery named by `X-GitHub-Event`; answers 204).
 * Apart from the other token routes so that only these take form bodies.
 */
import type { FastifyInstance } from 'fastify';
import { acceptFormBodies } from '../../http/form-body.js';
import { addWebhookKindConstraint, executeQuery, WEBHOOK_KIND } from './routes.js';
import type { WebhooksService } from './service.js';

export interface WebhookAdapterRoutesOptions {
  webhooks: WebhooksService;
}

interface TokenParams {
  webhookId: string;
  token: string;
}

export async function webhookAdapterRoutes(
  api: FastifyInstance,
  { webhooks }: WebhookAdapterRoutesOptions,
): Promise<void> {
  addWebhookKindConstraint(api);
  acceptFormBodies(api);
  const byToken = { constraints: { [WEBHOOK_KIND]: 'channel' } };

  api.post<{ Params: TokenParams }>('/webhooks/:webhookId/:token/slack', byToken, async (request, reply) => {
    const { webhookId, token } = request.params;
    const message = await webhooks.executeSlack(webhookId, token, executeQuery(request), request.body);
    // Slack's answer, which its clients compare: the text `ok`.
    return message ?? reply.code(200).type('text/plain; charset=utf-8').send('ok');
  });
  api.post<{ Params: TokenParams }>('/webhooks/:webhookId/:token/github', byToken, async (request, reply) => {
    const { webhookId, token } = request.params;
    const event = request.headers['x-github-event'];
    await webhooks.executeGithub(
      webhookId,
      token,
      executeQuery(request),
      typeof event === 'string' ? event : '',
      request.body,
    );
    return reply.code(204).send();
  });
}
