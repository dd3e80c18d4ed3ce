/**
 * `PATCH` and `DELETE /channels/{id}`: v10 has one route for every kind of channel. A thread's
 * edit (archive, lock, rename; by its owner or a moderator, users too) and a stored thread's
 * deletion (MANAGE_THREADS) are the threads service's; any other channel's (bots,
 * MANAGE_CHANNELS) the guild channels service's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { GuildChannelsService } from './service.js';
import type { ThreadsService } from '../threads/service.js';
import { reasonOf } from '../../http/audit-reason.js';
import { appOf, requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import { CHANNEL_BODY_LIMIT_BYTES } from './routes.js';

export interface ChannelEditRoutesOptions {
  threads: ThreadsService;
  guildChannels: GuildChannelsService;
}

interface ChannelParams {
  channelId: string;
}

const CALLER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

export async function channelEditRoutes(
  api: FastifyInstance,
  { threads, guildChannels }: ChannelEditRoutesOptions,
): Promise<void> {
  // discord.py sends overwrite ids as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  /** The guild channels service for a bot; a user's token is refused as the bot-only routes refuse it. */
  const channelsFor = (request: FastifyRequest): GuildChannelsService => {
    if (viewerOf(request).kind !== 'bot') throw apiError('Unauthorized');
    return guildChannels;
  };

  api.patch<{ Params: ChannelParams }>(
    '/channels/:channelId',
    { ...CALLER, bodyLimit: CHANNEL_BODY_LIMIT_BYTES },
    async (request) => {
      const { channelId } = request.params;
      if ((await threads.threadKind(channelId)) !== null) {
        return threads.edit(viewerOf(request), channelId, request.body, reasonOf(request));
      }
      return channelsFor(request).edit(appOf(request).id, channelId, request.body, reasonOf(request));
    },
  );

  api.delete<{ Params: ChannelParams }>('/channels/:channelId', CALLER, async (request) => {
    const { channelId } = request.params;
    if ((await threads.threadKind(channelId)) === 'stored')
      return threads.delete(viewerOf(request), channelId, reasonOf(request));
    return channelsFor(request).delete(appOf(request).id, channelId, reasonOf(request));
  });
}
