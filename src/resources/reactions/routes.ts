/**
 * Reactions on a channel's messages (docs/v10-behaviour.md#reactions): add and remove one's own,
 * remove another's, all, or all of one emoji, and list who reacted. A bot or a user of the client.
 */
import type { FastifyInstance } from 'fastify';
import type { ReactionsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';

export interface MessageReactionRoutesOptions {
  reactions: ReactionsService;
}

interface MessageParams {
  channelId: string;
  messageId: string;
}
interface EmojiParams extends MessageParams {
  emoji: string;
}
interface UserReactionParams extends EmojiParams {
  userId: string;
}

/** A bot or a user of the client; an OAuth2 bearer token reads no channel (v10: 401). */
const CALLER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
const MESSAGE = '/channels/:channelId/messages/:messageId/reactions';

export async function messageReactionRoutes(
  api: FastifyInstance,
  { reactions }: MessageReactionRoutesOptions,
): Promise<void> {
  api.put<{ Params: EmojiParams }>(`${MESSAGE}/:emoji/@me`, CALLER, async (request, reply) => {
    const { channelId, messageId, emoji } = request.params;
    await reactions.add(viewerOf(request), channelId, messageId, emoji);
    return reply.code(204).send();
  });
  api.delete<{ Params: EmojiParams }>(`${MESSAGE}/:emoji/@me`, CALLER, async (request, reply) => {
    const { channelId, messageId, emoji } = request.params;
    await reactions.remove(viewerOf(request), channelId, messageId, emoji);
    return reply.code(204).send();
  });
  api.delete<{ Params: UserReactionParams }>(`${MESSAGE}/:emoji/:userId`, CALLER, async (request, reply) => {
    const { channelId, messageId, emoji, userId } = request.params;
    await reactions.remove(viewerOf(request), channelId, messageId, emoji, userId);
    return reply.code(204).send();
  });
  api.get<{ Params: EmojiParams; Querystring: Record<string, unknown> }>(
    `${MESSAGE}/:emoji`,
    CALLER,
    async (request) => {
      const { channelId, messageId, emoji } = request.params;
      return reactions.listUsers(viewerOf(request), channelId, messageId, emoji, request.query);
    },
  );
  api.delete<{ Params: EmojiParams }>(`${MESSAGE}/:emoji`, CALLER, async (request, reply) => {
    const { channelId, messageId, emoji } = request.params;
    await reactions.removeEmoji(viewerOf(request), channelId, messageId, emoji);
    return reply.code(204).send();
  });
  api.delete<{ Params: MessageParams }>(MESSAGE, CALLER, async (request, reply) => {
    await reactions.removeAll(viewerOf(request), request.params.channelId, request.params.messageId);
    return reply.code(204).send();
  });
}
