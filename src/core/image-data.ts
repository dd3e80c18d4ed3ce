/**
 * An image as v10's bodies take one (a guild's icon, an event's cover): a base64 data URI of a PNG,
 * JPEG, GIF or WebP image. Pure: the type is read from the bytes' magic numbers, whatever image
 * type the URI names.
 */
import { createHash } from 'node:crypto';
import { IMAGE_INVALID } from './io/codes.js';
import type { IssuePath } from './io/issue.js';
import { report, reportNotString, type Issues } from './io/report.js';

/** The image types v10 takes, by their media type, and the bytes each file starts with. */
const IMAGE_SIGNATURES: Readonly<Record<string, readonly number[]>> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/gif': [0x47, 0x49, 0x46, 0x38],
  'image/webp': [0x52, 0x49, 0x46, 0x46],
};

/**
 * Any image media type: the type is the file's, read from its bytes, as v10 reads it (discord.js
 * names every Buffer it sends `image/jpg`, a PNG included).
 */
const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/]*={0,2})$/i;

/** The media type of the image the bytes are, by their first bytes; undefined for none v10 takes. */
function sniffedType(bytes: Buffer): string | undefined {
  return Object.keys(IMAGE_SIGNATURES).find((type) => IMAGE_SIGNATURES[type]!.every((byte, i) => bytes[i] === byte));
}

export interface ImageData {
  /** The media type of the bytes (their magic numbers). */
  contentType: string;
  bytes: Buffer;
  /** v10's image hash: what a CDN URL names (hex of the content's digest; `a_` first for a GIF). */
  hash: string;
}

function invalid(issues: Issues, path: IssuePath): undefined {
  report(issues, path, IMAGE_INVALID, 'Invalid image data');
  return undefined;
}

/** The image of a data URI of at most `maxBytes` decoded bytes; undefined (reported) when it is not one. */
export function readImageDataUri(
  value: unknown,
  path: IssuePath,
  issues: Issues,
  maxBytes: number,
): ImageData | undefined {
  if (typeof value !== 'string') {
    reportNotString(issues, path, value);
    return undefined;
  }
  // The encoded size bounds the decoded one: refuse before decoding what could never fit.
  if (value.length > (maxBytes * 4) / 3 + 64) return invalid(issues, path);
  const match = DATA_URI.exec(value);
  if (!match) return invalid(issues, path);
  const bytes = Buffer.from(match[1]!, 'base64');
  if (bytes.length === 0 || bytes.length > maxBytes) return invalid(issues, path);
  const contentType = sniffedType(bytes);
  if (!contentType) return invalid(issues, path);
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { contentType, bytes, hash: contentType === 'image/gif' ? `a_${digest}` : digest };
}
