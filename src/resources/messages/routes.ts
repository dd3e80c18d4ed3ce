/**
 * A channel and its messages as a bot or a user reads and writes them
 * (docs/v10-behaviour.md#endpoints): `GET /channels/{id}` needs VIEW_CHANNEL; sending needs
 * VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread), reading one message
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY; editing is the author's, deleting the author's or a
 * moderator's (MANAGE_MESSAGES), bulk deleting a moderating bot's. The channel's message list is in
 * `channels.ts`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChannelMessagesService } from './service.js';
import type { MessageModerationService } from './moderation-service.js';
import { appOf, requireAnyCaller, requireBot, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { checkBeforeUpload, UPLOADS_KEEPING_IDS, withMessageBody } from '../../http/multipart.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';

export interface ChannelMessageRoutesOptions {
  channelMessages: ChannelMessagesService;
  moderation: MessageModerationService;
}

interface ChannelParams {
  channelId: string;
}
interface MessageParams extends ChannelParams {
  messageId: string;
}

/** A bot or a user of the client; an OAuth2 bearer token reads no channel (v10: 401). */
const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

export async function channelMessageRoutes(
  api: FastifyInstance,
  { channelMessages, moderation }: ChannelMessageRoutesOptions,
): Promise<void> {
  // discord.py sends these bodies' snowflakes (replies, bulk deletes, mentions) as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.get<{ Params: ChannelParams }>('/channels/:channelId', READER, async (request) =>
    channelMessages.channel(viewerOf(request), request.params.channelId),
  );

  api.post<{ Params: ChannelParams }>(
    '/channels/:channelId/messages',
    {
      ...READER,
      preHandler: [
        requireUserOrBot,
        checkBeforeUpload<FastifyRequest<{ Params: ChannelParams }>>((request) =>
          channelMessages.sendAccess(viewerOf(request), request.params.channelId),
        ),
      ],
      ...UPLOADS_KEEPING_IDS,
    },
    async (request, reply) =>
      withMessageBody(request, reply, ({ payload, files }) =>
        channelMessages.send(viewerOf(request), request.params.channelId, payload, files),
      ),
  );

  api.post<{ Params: ChannelParams }>(
    '/channels/:channelId/messages/bulk-delete',
    { onRequest: requireBot },
    async (request, reply) => {
      await moderation.bulkDelete(appOf(request).id, request.params.channelId, request.body);
      return reply.code(204).send();
    },
  );

  api.post<{ Params: ChannelParams }>('/channels/:channelId/typing', READER, async (request, reply) => {
    await channelMessages.typing(viewerOf(request), request.params.channelId);
    return reply.code(204).send();
  });

  api.get<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', READER, async (request) =>
    channelMessages.get(viewerOf(request), request.params.channelId, request.params.messageId),
  );

  api.patch<{ Params: MessageParams }>(
    '/channels/:channelId/messages/:messageId',
    {
      ...READER,
      preHandler: [
        requireUserOrBot,
        checkBeforeUpload<FastifyRequest<{ Params: MessageParams }>>((request) =>
          channelMessages.editAccess(viewerOf(request), request.params.channelId, request.params.messageId),
        ),
      ],
      ...UPLOADS_KEEPING_IDS,
    },
    async (request, reply) =>
      withMessageBody(request, reply, ({ payload, files }) =>
        channelMessages.edit(viewerOf(request), request.params.channelId, request.params.messageId, payload, files),
      ),
  );

  api.delete<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', READER, async (request, reply) => {
    await channelMessages.delete(viewerOf(request), request.params.channelId, request.params.messageId);
    return reply.code(204).send();
  });
}
