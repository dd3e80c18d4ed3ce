/**
 * What a user of the client sees in a channel: its command picker (the application command index)
 * and its messages. Both take a user token (`Authorization: <token>`); the messages also take an
 * app's bot token, as v10 lets a bot read the channels it can see.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChannelReader, ChannelsService } from '../../services/channels-service.js';
import { missingGuard, principalOf, requireAnyCaller, requireUser, requireUserOrBot, userOf } from '../guards.js';
import { requesterLocale } from '../requester-locale.js';

/** Messages one page returns unless `limit` says otherwise, and the most it may say. */
export const MESSAGES_PAGE_DEFAULT = 50;
export const MESSAGES_PAGE_MAX = 100;

export interface ChannelRoutesOptions {
  channels: ChannelsService;
}

interface ChannelParams {
  channelId: string;
}

/** `?limit=`, clamped to 1..MESSAGES_PAGE_MAX; anything not an integer is the default. */
function pageLimit(limit: string | undefined): number {
  const asked = Number(limit ?? MESSAGES_PAGE_DEFAULT);
  return Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MESSAGES_PAGE_MAX) : MESSAGES_PAGE_DEFAULT;
}

/** The reader, after `requireUserOrBot`. */
function readerOf(request: FastifyRequest): ChannelReader {
  const principal = principalOf(request);
  if (principal.kind === 'bearer') throw missingGuard('a user or bot caller');
  return principal;
}

export async function channelRoutes(api: FastifyInstance, { channels }: ChannelRoutesOptions): Promise<void> {
  api.get<{ Params: ChannelParams }>(
    '/channels/:channelId/application-command-index',
    { onRequest: requireUser },
    async (request, reply) => {
      const user = userOf(request);
      const locale = requesterLocale(request, user.locale);
      const json = await channels.commandIndexJson(user, request.params.channelId, locale);
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  api.get<{ Params: ChannelParams; Querystring: { limit?: string } }>(
    '/channels/:channelId/messages',
    { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] },
    async (request) => channels.messages(readerOf(request), request.params.channelId, pageLimit(request.query.limit)),
  );
}
