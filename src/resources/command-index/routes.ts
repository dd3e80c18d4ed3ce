/**
 * What a user of the client sees in a channel: its command picker (the application command index)
 * and its messages. Both take a user token (`Authorization: <token>`); the messages also take an
 * app's bot token, as v10 lets a bot read the channels it can see.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChannelReader, ChannelsService } from './channel-reads.js';
import {
  missingGuard,
  principalOf,
  requireAnyCaller,
  requireUser,
  requireUserOrBot,
  userOf,
} from '../../http/guards.js';
import { MESSAGES_LIMIT, readPage, type PagingQuery } from '../../http/paging.js';
import { requesterLocale } from '../../http/requester-locale.js';

export interface ChannelRoutesOptions {
  channels: ChannelsService;
}

interface ChannelParams {
  channelId: string;
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

  /** "Why not?": every command of the installed apps, with the caller's verdict and its reason (docs/permissions.md). */
  api.get<{ Params: ChannelParams }>(
    '/channels/:channelId/application-command-index/explain',
    { onRequest: requireUser },
    async (request) => channels.explainCommandIndex(userOf(request), request.params.channelId),
  );

  api.get<{ Params: ChannelParams; Querystring: PagingQuery }>(
    '/channels/:channelId/messages',
    { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] },
    async (request) => {
      const page = readPage(request.query, MESSAGES_LIMIT, ['before', 'after', 'around']);
      return channels.messages(readerOf(request), request.params.channelId, page);
    },
  );
}
