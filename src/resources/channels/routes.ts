/**
 * A guild's channels as bots change them (v10 Channel endpoints): `POST` and `PATCH
 * /guilds/{g}/channels` (create, reorder; `PATCH` and `DELETE /channels/{c}` are in channel-edits.ts), and `PUT` and
 * `DELETE /channels/{c}/permissions/{overwrite}`; the checks are the service's (MANAGE_CHANNELS,
 * MANAGE_ROLES, what one may grant). Reading a channel is in `channel-messages.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { GuildChannelsService } from './service.js';
import { appOf, requireBot } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import { reasonOf } from '../../http/audit-reason.js';

export interface GuildChannelRoutesOptions {
  guildChannels: GuildChannelsService;
}

interface GuildParams {
  guildId: string;
}
interface ChannelParams {
  channelId: string;
}
interface OverwriteParams extends ChannelParams {
  overwriteId: string;
}

/** A channel body names at most 100 overwrites; a reorder at most every channel of a guild (500). */
export const CHANNEL_BODY_LIMIT_BYTES = 64 * 1024;

const BOT = { onRequest: requireBot };
const BOT_WRITE = { onRequest: requireBot, bodyLimit: CHANNEL_BODY_LIMIT_BYTES };

export async function guildChannelRoutes(
  api: FastifyInstance,
  { guildChannels }: GuildChannelRoutesOptions,
): Promise<void> {
  // discord.py sends overwrite ids as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.post<{ Params: GuildParams }>('/guilds/:guildId/channels', BOT_WRITE, async (request, reply) => {
    const channel = await guildChannels.create(
      appOf(request).id,
      request.params.guildId,
      request.body,
      reasonOf(request),
    );
    return reply.code(201).send(channel);
  });

  api.patch<{ Params: GuildParams }>('/guilds/:guildId/channels', BOT_WRITE, async (request, reply) => {
    await guildChannels.reorder(appOf(request).id, request.params.guildId, request.body, reasonOf(request));
    return reply.code(204).send();
  });

  api.put<{ Params: OverwriteParams }>(
    '/channels/:channelId/permissions/:overwriteId',
    BOT_WRITE,
    async (request, reply) => {
      const { channelId, overwriteId } = request.params;
      await guildChannels.putOverwrite(appOf(request).id, channelId, overwriteId, request.body, reasonOf(request));
      return reply.code(204).send();
    },
  );

  api.delete<{ Params: OverwriteParams }>(
    '/channels/:channelId/permissions/:overwriteId',
    BOT,
    async (request, reply) => {
      const { channelId, overwriteId } = request.params;
      await guildChannels.deleteOverwrite(appOf(request).id, channelId, overwriteId, reasonOf(request));
      return reply.code(204).send();
    },
  );
}
