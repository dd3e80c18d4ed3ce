/**
 * An emoji's `image`: a data URI whose type is read from its bytes, as v10 reads it. discord.js
 * names every Buffer it encodes `image/jpg` whatever it holds, so the URI's own type is replaced by
 * the one the first bytes show before the core's reader checks the whole image.
 */
import { readImageDataUri, type ImageData } from '../../../core/image-data.js';
import type { IssuePath } from '../../../core/io/issue.js';
import type { Issues } from '../../../core/io/report.js';
import { EMOJI_IMAGE_BYTES_MAX } from './limits.js';

const DATA_URI_PREFIX = /^data:image\/[a-z0-9.+-]{1,32};base64,/i;
/** Base64 characters enough for the longest signature below (12 bytes). */
const HEAD_CHARACTERS = 16;
const SIGNATURES: readonly (readonly [string, readonly number[]])[] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
];

/** The URI with the media type its bytes show (as it was when they show none). */
function relabelled(uri: string): string {
  const prefix = DATA_URI_PREFIX.exec(uri);
  if (!prefix) return uri;
  const data = uri.slice(prefix[0].length);
  const head = Buffer.from(data.slice(0, HEAD_CHARACTERS), 'base64');
  const type = SIGNATURES.find(([, signature]) => signature.every((byte, i) => head[i] === byte))?.[0];
  return type ? `data:${type};base64,${data}` : uri;
}

/** The emoji's image of at most 256 KiB, or undefined (reported at `path`). */
export function readEmojiImage(value: unknown, path: IssuePath, issues: Issues): ImageData | undefined {
  return readImageDataUri(typeof value === 'string' ? relabelled(value) : value, path, issues, EMOJI_IMAGE_BYTES_MAX);
}
