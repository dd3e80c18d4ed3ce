/**
 * The attachment model: what slashd stores of a message's file (its bytes are in the attachment
 * store, keyed by channel and id) and the v10 attachment object a client library reads, with its
 * `url` and `proxy_url` on slashd's own origin, signed (`./signed-urls.ts`, docs/decisions.md#attachments).
 */
import type { APIAttachment } from 'discord-api-types/v10';
import type { WirePayload } from '../../../core/wire-payload.js';
import { normalizeContentType, urlFilename } from './filename.js';

/** One file of a message, as the message's document stores it. */
export interface StoredAttachment {
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  readonly content_type?: string;
  readonly description?: string;
  readonly width?: number;
  readonly height?: number;
}

/** A file of the request being handled: its part of the multipart body, read to its end. */
export interface UploadedFile {
  /** `n` of its `files[n]` field: what `attachments[].id` names it by. */
  readonly index: number;
  /** The filename of its part, as the client sent it. */
  readonly filename: string;
  /** The Content-Type of its part, if any. */
  readonly content_type: string | null;
  readonly size: number;
  /** Its first bytes (at most IMAGE_HEADER_BYTES): enough to tell an image's type and dimensions. */
  readonly head: Uint8Array;
}

/**
 * The path where an attachment is served; `proxy` is v10's media proxy twin of the CDN URL. Total:
 * the name is cleaned again, so a row stored before the cleaning still has a servable URL.
 */
export function attachmentPath(
  channelId: string,
  attachment: Pick<StoredAttachment, 'id' | 'filename'>,
  proxy = false,
): string {
  return `${proxy ? '/media' : ''}/attachments/${channelId}/${attachment.id}/${urlFilename(attachment.filename)}`;
}

/** The v10 attachment object; `urlOf` gives its URLs (signed, on slashd's public URL, in a node). */
export function toWireAttachment(
  channelId: string,
  attachment: StoredAttachment,
  urlOf: (channelId: string, attachment: StoredAttachment, proxy: boolean) => string,
  ephemeral: boolean,
): WirePayload<APIAttachment> {
  const wire: WirePayload<APIAttachment> = {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url: urlOf(channelId, attachment, false),
    proxy_url: urlOf(channelId, attachment, true),
  };
  const contentType = normalizeContentType(attachment.content_type);
  if (contentType !== undefined) wire.content_type = contentType;
  if (attachment.description !== undefined) wire.description = attachment.description;
  if (attachment.width !== undefined) wire.width = attachment.width;
  if (attachment.height !== undefined) wire.height = attachment.height;
  if (ephemeral) wire.ephemeral = true;
  return wire;
}

const ATTACHMENT_SCHEME = 'attachment://';

/**
 * Embeds with every `attachment://name` naming one of the message's files replaced by that file's
 * URL (an embed's image, thumbnail, author or footer icon); other values are left as they are.
 */
export function resolveAttachmentUrls(
  embeds: readonly Record<string, unknown>[],
  attachments: readonly StoredAttachment[],
  urlOf: (attachment: StoredAttachment) => string,
): Record<string, unknown>[] {
  if (attachments.length === 0) return [...embeds];
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string' && value.startsWith(ATTACHMENT_SCHEME)) {
      const found = byName.get(value.slice(ATTACHMENT_SCHEME.length));
      return found ? urlOf(found) : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    }
    return value;
  };
  return embeds.map((embed) => resolve(embed) as Record<string, unknown>);
}
