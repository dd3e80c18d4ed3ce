/**
 * `PATCH /channels/{id}`: v10 has one route for every kind of channel. A thread's edit (archive,
 * lock, rename; by its owner or a moderator, users too) is the threads service's; any other
 * channel's (bots, MANAGE_CHANNELS) is the guild channels service's.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { GuildChannelsService } from '../../services/guild-channels-service.js';
import type { ThreadsService } from '../../services/threads-service.js';
import { appOf, requireAnyCaller, requireUserOrBot, viewerOf } from '../guards.js';
import { reasonOf } from '../audit-reason.js';
import { parseJsonBodyKeepingIds } from '../json-body.js';
import { CHANNEL_BODY_LIMIT_BYTES } from './guild-channels.js';

export interface ChannelEditRoutesOptions {
  threads?: ThreadsService | undefined;
  guildChannels?: GuildChannelsService | undefined;
}

export async function channelEditRoutes(
  api: FastifyInstance,
  { threads, guildChannels }: ChannelEditRoutesOptions,
): Promise<void> {
  // discord.py sends overwrite ids as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.patch<{ Params: { channelId: string } }>(
    '/channels/:channelId',
    { onRequest: requireAnyCaller, preHandler: [requireUserOrBot], bodyLimit: CHANNEL_BODY_LIMIT_BYTES },
    async (request) => {
      const { channelId } = request.params;
      if (threads && (await threads.isThread(channelId)))
        return threads.edit(viewerOf(request), channelId, request.body, reasonOf(request));
      if (!guildChannels) throw apiError('UnknownChannel');
      // Only bots manage a guild's channels here; a user's token is refused as the bot-only routes refuse it.
      if (viewerOf(request).kind !== 'bot') throw apiError('Unauthorized');
      return guildChannels.edit(appOf(request).id, channelId, request.body, reasonOf(request));
    },
  );
}
