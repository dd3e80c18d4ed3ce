/**
 * The webhook routes: a bot's (MANAGE_WEBHOOKS: create, list, read, edit, delete), the token's
 * (no Authorization: read, edit, delete, execute, and the messages it sent); its avatars are served by the users resource.
 *
 * `/webhooks/{id}/{token}...` is also the interaction webhook's path (`{application_id}/{interaction
 * token}`, src/resources/interactions/webhook-routes.ts). The two are told apart by the token: an
 * interaction token names its application (rules/lifecycle.ts), so a path whose token names the
 * path's id goes to the interaction routes, any other to these (a router constraint, decided from
 * the path alone, before any body is read).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readInteractionToken } from '../interactions/rules/lifecycle.js';
import { appOf, requireBot } from '../../http/guards.js';
import { reasonOf } from '../../http/audit-reason.js';
import { checkBeforeUpload, UPLOADS_KEEPING_IDS, withMessageBody } from '../../http/multipart.js';
import { readExecuteQuery, WEBHOOK_BODY_LIMIT_BYTES, type ExecuteQuery } from './rules.js';
import { strictQueryFlag } from '../../http/query.js';
import { orThrow } from '../../core/io/result.js';
import type { WebhooksService } from './service.js';

export interface WebhookRoutesOptions {
  webhooks: WebhooksService;
}

/** The router constraint that sends a token path to a channel webhook's routes. */
export const WEBHOOK_KIND = 'slashdWebhookKind';
/** `/webhooks/{id}/{token}` anywhere in the URL (after `/api` or `/api/vN`). */
const TOKEN_PATH = /\/webhooks\/([^/?]+)\/([^/?]+)/;

/** `channel` unless the path's token is an interaction token of the path's application id. */
export function webhookKind(url: string): 'channel' | 'interaction' {
  const path = TOKEN_PATH.exec(url);
  if (!path) return 'channel';
  let token: string;
  try {
    token = decodeURIComponent(path[2] ?? '');
  } catch {
    // Not percent-encoded text: no interaction token (the channel routes answer it, 50027 or 10015).
    return 'channel';
  }
  return readInteractionToken(token)?.applicationId === path[1] ? 'interaction' : 'channel';
}

/** Added once to the router (routes of every served version share it). */
export function addWebhookKindConstraint(api: FastifyInstance): void {
  if (api.hasConstraintStrategy(WEBHOOK_KIND)) return;
  api.addConstraintStrategy({
    name: WEBHOOK_KIND,
    // One store per route node: each holds that node's handlers by kind.
    storage: () => {
      const handlers = new Map<string, unknown>();
      return {
        get: (kind: string) => (handlers.get(kind) as never) ?? null,
        set: (kind: string, store: unknown) => void handlers.set(kind, store),
      };
    },
    deriveConstraint: (request: IncomingMessage) => webhookKind(request.url ?? ''),
    mustMatchWhenDerived: false,
  });
}

interface ChannelParams {
  channelId: string;
}
interface GuildParams {
  guildId: string;
}
interface WebhookParams {
  webhookId: string;
}
interface TokenParams extends WebhookParams {
  token: string;
}
interface MessageParams extends TokenParams {
  messageId: string;
}
type Query = { Querystring: Record<string, unknown> };

/** `?wait=` and `?thread_id=`, read as v10 reads them (50035 at their names). */
export function executeQuery(request: FastifyRequest): ExecuteQuery {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return orThrow(readExecuteQuery(strictQueryFlag(query.wait, false), query.thread_id));
}

const BOT = { onRequest: requireBot };
/** Create and edit bodies carry the avatar's image inline. */
const WITH_AVATAR = { ...BOT, bodyLimit: WEBHOOK_BODY_LIMIT_BYTES };

export async function webhookRoutes(api: FastifyInstance, { webhooks }: WebhookRoutesOptions): Promise<void> {
  addWebhookKindConstraint(api);
  const byToken = { constraints: { [WEBHOOK_KIND]: 'channel' } };
  // The token is the credential: a wrong one is refused before an upload is read.
  const tokenFirst = () => ({
    ...byToken,
    ...UPLOADS_KEEPING_IDS,
    preHandler: checkBeforeUpload((request: FastifyRequest) => {
      const { webhookId, token } = request.params as TokenParams;
      return webhooks.uploadAccess(webhookId, token, executeQuery(request));
    }),
  });

  api.post<{ Params: ChannelParams }>('/channels/:channelId/webhooks', WITH_AVATAR, async (request) =>
    webhooks.create(appOf(request).id, request.params.channelId, request.body, reasonOf(request)),
  );
  api.get<{ Params: ChannelParams }>('/channels/:channelId/webhooks', BOT, async (request) =>
    webhooks.listChannel(appOf(request).id, request.params.channelId),
  );
  api.get<{ Params: GuildParams }>('/guilds/:guildId/webhooks', BOT, async (request) =>
    webhooks.listGuild(appOf(request).id, request.params.guildId),
  );

  api.get<{ Params: WebhookParams }>('/webhooks/:webhookId', BOT, async (request) =>
    webhooks.get(appOf(request).id, request.params.webhookId),
  );
  api.patch<{ Params: WebhookParams }>('/webhooks/:webhookId', WITH_AVATAR, async (request) =>
    webhooks.edit(appOf(request).id, request.params.webhookId, request.body, reasonOf(request)),
  );
  api.delete<{ Params: WebhookParams }>('/webhooks/:webhookId', BOT, async (request, reply) => {
    await webhooks.delete(appOf(request).id, request.params.webhookId, reasonOf(request));
    return reply.code(204).send();
  });

  api.get<{ Params: TokenParams }>('/webhooks/:webhookId/:token', byToken, async (request) =>
    webhooks.getByToken(request.params.webhookId, request.params.token),
  );
  // The token is checked before the body (an avatar of up to 15 MiB) is read, and after every
  // onRequest hook (the path's ids are snowflakes before any store sees them).
  const tokenBeforeBody = async <T>(request: FastifyRequest, _reply: unknown, payload: T): Promise<T> => {
    const { webhookId, token } = request.params as TokenParams;
    await webhooks.authenticate(webhookId, token);
    return payload;
  };
  api.patch<{ Params: TokenParams }>(
    '/webhooks/:webhookId/:token',
    { ...byToken, bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, preParsing: tokenBeforeBody },
    async (request) => webhooks.editByToken(request.params.webhookId, request.params.token, request.body),
  );
  api.delete<{ Params: TokenParams }>('/webhooks/:webhookId/:token', byToken, async (request, reply) => {
    await webhooks.deleteByToken(request.params.webhookId, request.params.token);
    return reply.code(204).send();
  });

  api.post<{ Params: TokenParams } & Query>('/webhooks/:webhookId/:token', tokenFirst(), async (request, reply) => {
    const { webhookId, token } = request.params;
    const message = await withMessageBody(request, reply, ({ payload, files }) =>
      webhooks.execute(webhookId, token, executeQuery(request), payload, files),
    );
    return message ?? reply.code(204).send();
  });

  const message = '/webhooks/:webhookId/:token/messages/:messageId';
  api.get<{ Params: MessageParams } & Query>(message, byToken, async (request) => {
    const { webhookId, token, messageId } = request.params;
    return webhooks.getMessage(webhookId, token, messageId, executeQuery(request));
  });
  api.patch<{ Params: MessageParams } & Query>(message, tokenFirst(), async (request, reply) => {
    const { webhookId, token, messageId } = request.params;
    return withMessageBody(request, reply, ({ payload, files }) =>
      webhooks.editMessage(webhookId, token, messageId, executeQuery(request), payload, files),
    );
  });
  api.delete<{ Params: MessageParams } & Query>(message, byToken, async (request, reply) => {
    const { webhookId, token, messageId } = request.params;
    await webhooks.deleteMessage(webhookId, token, messageId, executeQuery(request));
    return reply.code(204).send();
  });
}

// `/avatars/{id}/{hash}` (webhooks' and bots' avatars, one CDN path) is the users resource's: users/routes.ts.
