/**
 * Polls (docs/v10-behaviour.md#polls): a user's votes (`PUT` and `DELETE …/answers/@me`, the
 * client's route), an answer's voters, and the author ending a poll. A bot or a user of the client.
 */
import type { FastifyInstance } from 'fastify';
import type { PollsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';

export interface PollRoutesOptions {
  polls: PollsService;
}

interface PollParams {
  channelId: string;
  messageId: string;
}
interface AnswerParams extends PollParams {
  answerId: string;
}

/** A bot or a user of the client; an OAuth2 bearer token reads no channel (v10: 401). */
const CALLER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
const POLL = '/channels/:channelId/polls/:messageId';

export async function pollRoutes(api: FastifyInstance, { polls }: PollRoutesOptions): Promise<void> {
  api.put<{ Params: PollParams }>(`${POLL}/answers/@me`, CALLER, async (request, reply) => {
    const { channelId, messageId } = request.params;
    await polls.vote(viewerOf(request), channelId, messageId, request.body);
    return reply.code(204).send();
  });
  api.delete<{ Params: PollParams }>(`${POLL}/answers/@me`, CALLER, async (request, reply) => {
    await polls.unvote(viewerOf(request), request.params.channelId, request.params.messageId);
    return reply.code(204).send();
  });
  api.get<{ Params: AnswerParams; Querystring: Record<string, unknown> }>(
    `${POLL}/answers/:answerId`,
    CALLER,
    async (request) => {
      const { channelId, messageId, answerId } = request.params;
      return polls.voters(viewerOf(request), channelId, messageId, answerId, request.query);
    },
  );
  api.post<{ Params: PollParams }>(`${POLL}/expire`, CALLER, async (request) =>
    polls.expire(viewerOf(request), request.params.channelId, request.params.messageId),
  );
}
