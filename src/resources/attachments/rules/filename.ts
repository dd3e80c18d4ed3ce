/**
 * Attachment filenames as v10 stores them: the last segment of whatever path a client sent, spaces
 * as underscores, no control or path characters, within ATTACHMENT_FILENAME_LENGTH_MAX characters.
 * A name with nothing left is `unknown` (docs/decisions.md#attachments).
 */
import { ATTACHMENT_FILENAME_LENGTH_MAX } from './limits.js';

/** What a filename may not hold: path separators, controls, and the characters URLs and shells trip on. */
const UNSAFE_CHARACTERS = /[\p{Cc}/\\:*?"<>|#%]/gu;
const SPACES = /\s+/g;
/** The name given to a file whose name has nothing left once cleaned. */
export const FALLBACK_FILENAME = 'unknown';

/** The filename a client sent, cleaned as v10 does before it stores it. */
export function cleanFilename(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = last.replace(SPACES, '_').replace(UNSAFE_CHARACTERS, '').replace(/^\.+/, '');
  const bounded = [...cleaned].slice(0, ATTACHMENT_FILENAME_LENGTH_MAX).join('');
  return bounded === '' ? FALLBACK_FILENAME : bounded;
}

/** Content types by file extension, for files that are not one of the images read by their bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
});

/** The content type of a file that is no recognised image: its part's, or its extension's. */
export function contentTypeOf(filename: string, partType: string | null): string | undefined {
  if (partType && partType !== 'application/octet-stream') return partType;
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? undefined : CONTENT_TYPES[filename.slice(dot + 1).toLowerCase()];
}
