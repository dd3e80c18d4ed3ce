/**
 * The emoji and sticker routes (v10): a guild's emojis and stickers read by its bots and users,
 * made, edited and deleted by bots; the standard sticker packs; and, outside the API as v10's CDN
 * serves them, their images (`/emojis/{id}.{ext}`, `/stickers/{id}.{ext}`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reasonOf } from '../../http/audit-reason.js';
import { appOf, requireAnyCaller, requireBot, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import { checkBeforeUpload, UPLOADS, withMessageBody } from '../../http/multipart.js';
import { EMOJI_BODY_LIMIT_BYTES } from './rules/limits.js';
import type { ExpressionFile, ExpressionsService } from './service.js';

export interface ExpressionRoutesOptions {
  expressions: ExpressionsService;
}

interface GuildParams {
  guildId: string;
}
interface EmojiParams extends GuildParams {
  emojiId: string;
}
interface StickerParams extends GuildParams {
  stickerId: string;
}

/** A bot or a user of the client. */
const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
/** Changes are a bot's. */
const BOT = { onRequest: requireBot };

export async function expressionRoutes(api: FastifyInstance, { expressions }: ExpressionRoutesOptions): Promise<void> {
  // discord.py sends an emoji's role ids as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.get<{ Params: GuildParams }>('/guilds/:guildId/emojis', READER, async (request) =>
    expressions.listEmojis(viewerOf(request), request.params.guildId),
  );
  api.get<{ Params: EmojiParams }>('/guilds/:guildId/emojis/:emojiId', READER, async (request) =>
    expressions.getEmoji(viewerOf(request), request.params.guildId, request.params.emojiId),
  );
  api.post<{ Params: GuildParams }>(
    '/guilds/:guildId/emojis',
    { ...BOT, bodyLimit: EMOJI_BODY_LIMIT_BYTES },
    async (request, reply) => {
      const emoji = await expressions.createEmoji(
        appOf(request).id,
        request.params.guildId,
        request.body,
        reasonOf(request),
      );
      return reply.code(201).send(emoji);
    },
  );
  api.patch<{ Params: EmojiParams }>('/guilds/:guildId/emojis/:emojiId', BOT, async (request) =>
    expressions.editEmoji(
      appOf(request).id,
      request.params.guildId,
      request.params.emojiId,
      request.body,
      reasonOf(request),
    ),
  );
  api.delete<{ Params: EmojiParams }>('/guilds/:guildId/emojis/:emojiId', BOT, async (request, reply) => {
    await expressions.deleteEmoji(appOf(request).id, request.params.guildId, request.params.emojiId, reasonOf(request));
    return reply.code(204).send();
  });

  api.get<{ Params: GuildParams }>('/guilds/:guildId/stickers', READER, async (request) =>
    expressions.listStickers(viewerOf(request), request.params.guildId),
  );
  api.get<{ Params: StickerParams }>('/guilds/:guildId/stickers/:stickerId', READER, async (request) =>
    expressions.getGuildSticker(viewerOf(request), request.params.guildId, request.params.stickerId),
  );
  api.post<{ Params: GuildParams }>(
    '/guilds/:guildId/stickers',
    {
      ...BOT,
      ...UPLOADS,
      // Who may upload is decided before the file is read.
      preHandler: checkBeforeUpload((request: FastifyRequest<{ Params: GuildParams }>) =>
        expressions.createAccess(appOf(request).id, request.params.guildId),
      ),
    },
    async (request, reply) => {
      const sticker = await withMessageBody(request, reply, ({ payload, files }) =>
        expressions.createSticker(appOf(request).id, request.params.guildId, payload, files, reasonOf(request)),
      );
      return reply.code(201).send(sticker);
    },
  );
  api.patch<{ Params: StickerParams }>('/guilds/:guildId/stickers/:stickerId', BOT, async (request) =>
    expressions.editSticker(
      appOf(request).id,
      request.params.guildId,
      request.params.stickerId,
      request.body,
      reasonOf(request),
    ),
  );
  api.delete<{ Params: StickerParams }>('/guilds/:guildId/stickers/:stickerId', BOT, async (request, reply) => {
    await expressions.deleteSticker(
      appOf(request).id,
      request.params.guildId,
      request.params.stickerId,
      reasonOf(request),
    );
    return reply.code(204).send();
  });

  api.get<{ Params: { stickerId: string } }>('/stickers/:stickerId', { onRequest: requireAnyCaller }, async (request) =>
    expressions.getSticker(request.params.stickerId),
  );
  api.get('/sticker-packs', { onRequest: requireAnyCaller }, async () => expressions.stickerPacks());
  api.get<{ Params: { packId: string } }>('/sticker-packs/:packId', { onRequest: requireAnyCaller }, async (request) =>
    expressions.stickerPack(request.params.packId),
  );
}

function sendFile(reply: FastifyReply, file: ExpressionFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('cache-control', 'public, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(file.bytes));
}

/** The images, outside the API as v10's CDN serves them: no token. */
export async function expressionFileRoutes(
  api: FastifyInstance,
  { expressions }: ExpressionRoutesOptions,
): Promise<void> {
  api.get<{ Params: { file: string } }>('/emojis/:file', async (request, reply) =>
    sendFile(reply, await expressions.emojiFile(request.params.file)),
  );
  api.get<{ Params: { file: string } }>('/stickers/:file', async (request, reply) =>
    sendFile(reply, await expressions.stickerFile(request.params.file)),
  );
}
