/**
 * The files of messages, at the `url` and `proxy_url` their attachment objects give: served by
 * slashd itself (no CDN), piece by piece from the store. A signed URL (`?ex&is&hm`, as v10's CDN
 * gives) is served to whoever holds it until it expires, token or not; an unsigned one only to a
 * user or bot that may read the message (its token in the Authorization header, as for
 * `GET /channels/{id}/messages/{id}`). `POST /attachments/refresh-urls` signs URLs anew.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StoredAttachment } from './rules/model.js';
import { dispositionFilename, normalizeContentType } from './rules/filename.js';
import { carriesSignature, type SignatureQuery } from './rules/signed-urls.js';
import type { RefreshedUrls } from './rules/refresh-urls.js';
import type { AttachmentsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../http/limits.js';
import { guard } from '../../http/authentication.js';

export interface AttachmentRoutesOptions {
  attachments: AttachmentsService;
}

interface FileParams {
  channelId: string;
  attachmentId: string;
  filename: string;
}

/** Types a browser may show in place; anything else is downloaded, so that no upload runs as a page of slashd's origin. */
const SHOWN_INLINE = /^(image\/(png|jpeg|gif|webp)|text\/plain|video\/(mp4|webm)|audio\/(mpeg|ogg))(;|$)/;

function fileHeaders(reply: FastifyReply, attachment: StoredAttachment): FastifyReply {
  // Cleaned again: a type stored before the cleaning must not make the header throw.
  const type = normalizeContentType(attachment.content_type) ?? 'application/octet-stream';
  const disposition = SHOWN_INLINE.test(type) ? 'inline' : 'attachment';
  return reply
    .header('content-type', type)
    .header('content-length', String(attachment.size))
    .header('content-disposition', `${disposition}; filename*=${dispositionFilename(attachment.filename)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, max-age=3600');
}

/** A signed URL needs no token (the service checks its signature instead); an unsigned one, a caller's. */
const admitSignedOrCaller = guard(async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  if (carriesSignature(request.query as SignatureQuery)) return;
  await requireAnyCaller(request, reply);
});

/** preHandler: an unsigned URL's caller is a user or a bot. */
const userOrBotUnlessSigned = guard(async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  if (carriesSignature(request.query as SignatureQuery)) return;
  await requireUserOrBot(request, reply);
});

/** The files themselves, outside the API (their URLs are absolute). */
export async function attachmentRoutes(api: FastifyInstance, { attachments }: AttachmentRoutesOptions): Promise<void> {
  const serve = { onRequest: admitSignedOrCaller, preHandler: [userOrBotUnlessSigned] };
  for (const prefix of ['', '/media']) {
    api.get<{ Params: FileParams; Querystring: SignatureQuery }>(
      `${prefix}/attachments/:channelId/:attachmentId/:filename`,
      serve,
      async (request, reply) => {
        const { channelId, attachmentId, filename } = request.params;
        const kind = request.principal?.kind;
        const viewer = kind === 'user' || kind === 'bot' ? viewerOf(request) : null;
        const served = await attachments.serve(viewer, channelId, attachmentId, filename, request.query);
        return fileHeaders(reply, served.attachment).send(Readable.from(served.pieces, { objectMode: false }));
      },
    );
  }
}

/** `POST /attachments/refresh-urls`, under each served API version. */
export async function attachmentApiRoutes(
  api: FastifyInstance,
  { attachments }: AttachmentRoutesOptions,
): Promise<void> {
  api.post(
    '/attachments/refresh-urls',
    { onRequest: requireAnyCaller, preHandler: [requireUserOrBot], bodyLimit: DEFAULT_BODY_LIMIT_BYTES },
    async (request): Promise<RefreshedUrls> => ({
      refreshed_urls: await attachments.refreshUrls(viewerOf(request), request.body),
    }),
  );
}
