/**
 * The files of messages, at the `url` and `proxy_url` their attachment objects give: served by
 * slashd itself (no CDN), only to a user or bot that may read the message (its token in the
 * Authorization header, as for `GET /channels/{id}/messages/{id}`), piece by piece from the store.
 * Anything it may not read is a 404, as a CDN answers, unless the channel itself is refused.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StoredAttachment } from './rules/model.js';
import { dispositionFilename, normalizeContentType } from './rules/filename.js';
import type { AttachmentsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';

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

export async function attachmentRoutes(api: FastifyInstance, { attachments }: AttachmentRoutesOptions): Promise<void> {
  const serve = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
  for (const prefix of ['', '/media']) {
    api.get<{ Params: FileParams }>(
      `${prefix}/attachments/:channelId/:attachmentId/:filename`,
      serve,
      async (request, reply) => {
        const { channelId, attachmentId, filename } = request.params;
        const served = await attachments.serve(viewerOf(request), channelId, attachmentId, filename);
        return fileHeaders(reply, served.attachment).send(Readable.from(served.pieces, { objectMode: false }));
      },
    );
  }
}
