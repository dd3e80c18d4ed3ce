/**
 * A channel's pins (docs/v10-behaviour.md#pins), at both of v10's paths: the paged
 * `/channels/{id}/messages/pins` and the older `/channels/{id}/pins`. A bot or a user of the client.
 */
import type { FastifyInstance } from 'fastify';
import type { PinsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';

export interface ChannelPinRoutesOptions {
  pins: PinsService;
}

interface ChannelParams {
  channelId: string;
}
interface PinParams extends ChannelParams {
  messageId: string;
}

/** A bot or a user of the client; an OAuth2 bearer token reads no channel (v10: 401). */
const CALLER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

export async function channelPinRoutes(api: FastifyInstance, { pins }: ChannelPinRoutesOptions): Promise<void> {
  api.get<{ Params: ChannelParams; Querystring: Record<string, unknown> }>(
    '/channels/:channelId/messages/pins',
    CALLER,
    async (request) => pins.list(viewerOf(request), request.params.channelId, request.query),
  );
  api.get<{ Params: ChannelParams }>('/channels/:channelId/pins', CALLER, async (request) =>
    pins.listMessages(viewerOf(request), request.params.channelId),
  );
  for (const path of ['/channels/:channelId/messages/pins/:messageId', '/channels/:channelId/pins/:messageId']) {
    api.put<{ Params: PinParams }>(path, CALLER, async (request, reply) => {
      await pins.pin(viewerOf(request), request.params.channelId, request.params.messageId);
      return reply.code(204).send();
    });
    api.delete<{ Params: PinParams }>(path, CALLER, async (request, reply) => {
      await pins.unpin(viewerOf(request), request.params.channelId, request.params.messageId);
      return reply.code(204).send();
    });
  }
}
