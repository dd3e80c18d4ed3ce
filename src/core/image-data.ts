/**
 * An image as v10's bodies take one (a guild's icon, an event's cover): a base64 data URI of a PNG,
 * JPEG, GIF or WebP image. Pure: the bytes are checked by their magic numbers, so the type the URI
 * names is the file's.
 */
import { createHash } from 'node:crypto';
import { IMAGE_INVALID } from './io/codes.js';
import type { IssuePath } from './io/issue.js';
import { report, reportNotString, type Issues } from './io/report.js';

/** The image types v10 takes, by their media type, and the bytes each file starts with. */
const IMAGE_SIGNATURES: Readonly<Record<string, readonly number[]>> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/jpg': [0xff, 0xd8, 0xff],
  'image/gif': [0x47, 0x49, 0x46, 0x38],
  'image/webp': [0x52, 0x49, 0x46, 0x46],
};

const DATA_URI = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]*={0,2})$/;

export interface ImageData {
  /** The media type the URI named, checked against the bytes. */
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
  const signature = match ? IMAGE_SIGNATURES[match[1]!] : undefined;
  if (!match || !signature) return invalid(issues, path);
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0 || bytes.length > maxBytes) return invalid(issues, path);
  if (!signature.every((byte, i) => bytes[i] === byte)) return invalid(issues, path);
  const contentType = match[1] === 'image/jpg' ? 'image/jpeg' : match[1]!;
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { contentType, bytes, hash: contentType === 'image/gif' ? `a_${digest}` : digest };
}
