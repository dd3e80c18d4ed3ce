/**
 * A cover image as v10 takes one: a base64 data URI of a PNG, JPEG, GIF or WebP image. Pure: the
 * image's bytes are checked by their magic numbers, so the type the URI names is the file's.
 */
import { createHash } from 'node:crypto';
import { IMAGE_INVALID } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { report, reportNotString, type Issues } from '../../../core/io/report.js';

/** The largest cover image taken, decoded (v10's upload limit for an event cover). */
export const EVENT_IMAGE_BYTES_MAX = 10 * 1024 * 1024;

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
  /** v10's image hash: what a CDN URL names (hex of the content's digest). */
  hash: string;
}

function invalid(issues: Issues, path: IssuePath): undefined {
  report(issues, path, IMAGE_INVALID, 'Invalid image data');
  return undefined;
}

export function readImageDataUri(value: unknown, path: IssuePath, issues: Issues): ImageData | undefined {
  if (typeof value !== 'string') {
    reportNotString(issues, path, value);
    return undefined;
  }
  // The encoded size bounds the decoded one: refuse before decoding what could never fit.
  if (value.length > (EVENT_IMAGE_BYTES_MAX * 4) / 3 + 64) return invalid(issues, path);
  const match = DATA_URI.exec(value);
  const signature = match ? IMAGE_SIGNATURES[match[1]!] : undefined;
  if (!match || !signature) return invalid(issues, path);
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0 || bytes.length > EVENT_IMAGE_BYTES_MAX) return invalid(issues, path);
  if (!signature.every((byte, i) => bytes[i] === byte)) return invalid(issues, path);
  const contentType = match[1] === 'image/jpg' ? 'image/jpeg' : match[1]!;
  return { contentType, bytes, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 32) };
}
