/**
 * Application emojis' routes (v10): `/applications/{id}/emojis` and `/applications/{id}/emojis/{eid}`
 * for the app's own bot (`requireOwnApp`: another app's is 20012). The images are served by the
 * expressions resource's `/emojis/{id}.{ext}`, beside guild emojis'.
 */
import type { FastifyInstance } from 'fastify';
import { appOf, requireBot, requireOwnApp } from '../../http/guards.js';
import { EMOJI_BODY_LIMIT_BYTES } from '../expressions/rules/limits.js';
import type { ApplicationEmojisService } from './service.js';

export interface ApplicationEmojiRoutesOptions {
  applicationEmojis: ApplicationEmojisService;
}

interface AppParams {
  applicationId: string;
}
interface EmojiParams extends AppParams {
  emojiId: string;
}

/** A rename's body is one short name. */
const EDIT_BODY_LIMIT_BYTES = 4 * 1024;

export async function applicationEmojiRoutes(
  api: FastifyInstance,
  { applicationEmojis }: ApplicationEmojiRoutesOptions,
): Promise<void> {
  const own = { onRequest: requireBot, preHandler: [requireOwnApp] };
  const base = '/applications/:applicationId/emojis';

  api.get<{ Params: AppParams }>(base, own, async (request) => applicationEmojis.list(appOf(request).id));
  api.post<{ Params: AppParams }>(base, { ...own, bodyLimit: EMOJI_BODY_LIMIT_BYTES }, async (request, reply) =>
    reply.code(201).send(await applicationEmojis.create(appOf(request).id, request.body)),
  );
  api.get<{ Params: EmojiParams }>(`${base}/:emojiId`, own, async (request) =>
    applicationEmojis.get(appOf(request).id, request.params.emojiId),
  );
  api.patch<{ Params: EmojiParams }>(
    `${base}/:emojiId`,
    { ...own, bodyLimit: EDIT_BODY_LIMIT_BYTES },
    async (request) => applicationEmojis.edit(appOf(request).id, request.params.emojiId, request.body),
  );
  api.delete<{ Params: EmojiParams }>(`${base}/:emojiId`, own, async (request, reply) => {
    await applicationEmojis.delete(appOf(request).id, request.params.emojiId);
    return reply.code(204).send();
  });
}
