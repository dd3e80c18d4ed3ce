/**
 * A channel and its messages as a bot handling interactions reads and writes them
 * (docs/v10-behaviour.md#endpoints): `GET /channels/{id}` needs VIEW_CHANNEL; sending needs
 * VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread), reading one message
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY. The channel's message list is in `channels.ts`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { missingAccess } from '../../core/errors.js';
import { hasAll, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import { sendMessagesFlag } from '../../core/permissions/channel-permissions.js';
import { toWireChannel } from '../../core/world/v10-objects.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import { unknownMessage } from '../../services/responses-service.js';
import type { HttpContext } from '../context.js';
import { missingPermissions, principalOf, viewerOf, visibleChannel } from '../world-access.js';

interface ChannelParams {
  channelId: string;
}
interface MessageParams extends ChannelParams {
  messageId: string;
}

export async function channelMessageRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const store = ctx.store;

  async function botViewer(request: FastifyRequest): Promise<Viewer & { kind: 'bot' }> {
    const principal = await principalOf(store, request);
    if (principal.kind !== 'bot') throw missingAccess();
    return { kind: 'bot', applicationId: principal.app.id };
  }

  api.get<{ Params: ChannelParams }>('/channels/:channelId', { config: { auth: 'any' } }, async (request) => {
    const { guild, channel } = await visibleChannel(store, await viewerOf(store, request), request.params.channelId);
    return toWireChannel(guild, channel);
  });

  api.post<{ Params: ChannelParams }>('/channels/:channelId/messages', { config: { auth: 'bot' } }, async (request) => {
    const viewer = await botViewer(request);
    const { guild, channel, permissions } = await visibleChannel(store, viewer, request.params.channelId);
    if (!hasAll(permissions, sendMessagesFlag(channel))) throw missingPermissions();
    const message = await ctx.channelMessages.send(viewer.applicationId, guild, channel, request.body);
    return ctx.channelMessages.render(message);
  });

  api.get<{ Params: MessageParams }>(
    '/channels/:channelId/messages/:messageId',
    { config: { auth: 'any' } },
    async (request) => {
      const viewer = await viewerOf(store, request);
      const { guild, channel, permissions } = await visibleChannel(store, viewer, request.params.channelId);
      if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw missingAccess();
      const message = await ctx.channelMessages.find(guild, channel, request.params.messageId, viewerId(viewer));
      if (!message) throw unknownMessage();
      return ctx.channelMessages.render(message);
    },
  );

  api.patch<{ Params: MessageParams }>(
    '/channels/:channelId/messages/:messageId',
    { config: { auth: 'bot' } },
    async (request) => {
      const viewer = await botViewer(request);
      const { guild, channel } = await visibleChannel(store, viewer, request.params.channelId);
      const found = await ctx.channelMessages.find(guild, channel, request.params.messageId, viewer.applicationId);
      const edited = await ctx.channelMessages.edit(viewer.applicationId, found, request.body);
      if (!edited) throw unknownMessage();
      return ctx.channelMessages.render(edited);
    },
  );

  api.delete<{ Params: MessageParams }>(
    '/channels/:channelId/messages/:messageId',
    { config: { auth: 'bot' } },
    async (request, reply) => {
      const viewer = await botViewer(request);
      const { guild, channel } = await visibleChannel(store, viewer, request.params.channelId);
      const found = await ctx.channelMessages.find(guild, channel, request.params.messageId, viewer.applicationId);
      if (!(await ctx.channelMessages.delete(viewer.applicationId, found))) throw unknownMessage();
      return reply.code(204).send();
    },
  );
}
