/**
 * Attachment filenames and content types as v10 stores them. A filename is the last segment of
 * whatever path a client sent, spaces as underscores, no control or path characters, no lone
 * surrogate, within ATTACHMENT_FILENAME_LENGTH_MAX characters and ATTACHMENT_FILENAME_URL_LENGTH_MAX
 * once URL-encoded (the extension kept); a name with nothing left is `unknown`. A content type is a
 * valid media type, else none (served as application/octet-stream). Both are cleaned, never refused
 * (docs/decisions.md#attachments), and both cleanings are idempotent: the read path applies them
 * again, so a row stored before them still renders and downloads.
 */
import {
  ATTACHMENT_FILENAME_LENGTH_MAX,
  ATTACHMENT_FILENAME_URL_LENGTH_MAX,
  CONTENT_TYPE_LENGTH_MAX,
} from './limits.js';

/** What a filename may not hold: path separators, controls, and the characters URLs and shells trip on. */
const UNSAFE_CHARACTERS = /[\p{Cc}/\\:*?"<>|#%]/gu;
const SPACES = /\s+/g;
/** A UTF-16 surrogate without its pair: no UTF-8 form exists, so no URL, header or database text can hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Most URL-encoded characters of an extension kept whole when a long name is cut. */
const EXTENSION_URL_LENGTH_MAX = 64;
/** The name given to a file whose name has nothing left once cleaned. */
export const FALLBACK_FILENAME = 'unknown';

/** `text` without its lone surrogates (pairs stay). */
export function withoutLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, '');
}

/** The code points of `chars` from the start whose URL-encoded form fits `budget` characters. */
function fittingPrefix(chars: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const char of chars) {
    used += encodeURIComponent(char).length;
    if (used > budget) break;
    kept.push(char);
  }
  return kept;
}

/** `name` cut so that it URL-encodes within ATTACHMENT_FILENAME_URL_LENGTH_MAX, keeping a short extension. */
function boundedForUrls(name: string): string {
  const chars = [...name].slice(0, ATTACHMENT_FILENAME_LENGTH_MAX);
  if (encodeURIComponent(chars.join('')).length <= ATTACHMENT_FILENAME_URL_LENGTH_MAX) return chars.join('');
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 ? chars.slice(dot) : [];
  const extensionLength = encodeURIComponent(extension.join('')).length;
  if (extension.length > 0 && extensionLength <= EXTENSION_URL_LENGTH_MAX) {
    const stem = fittingPrefix(chars.slice(0, dot), ATTACHMENT_FILENAME_URL_LENGTH_MAX - extensionLength);
    if (stem.length > 0) return [...stem, ...extension].join('');
  }
  return fittingPrefix(chars, ATTACHMENT_FILENAME_URL_LENGTH_MAX).join('');
}

/** The filename a client sent, cleaned as v10 does before it stores it; every result encodes into a servable URL. */
export function cleanFilename(raw: string): string {
  const last = withoutLoneSurrogates(raw).split(/[/\\]/).pop() ?? '';
  const cleaned = last.replace(SPACES, '_').replace(UNSAFE_CHARACTERS, '').replace(/^\.+/, '');
  const bounded = boundedForUrls(cleaned);
  return bounded === '' ? FALLBACK_FILENAME : bounded;
}

/** A filename as it appears in an attachment's URL path: total over any stored name. */
export function urlFilename(stored: string): string {
  return encodeURIComponent(cleanFilename(stored));
}

/** RFC 8187's `attr-char`s are what encodeURIComponent leaves, less these. */
const NOT_ATTR_CHARS = /[!'()*]/g;

/** The `filename*` value of a Content-Disposition header (RFC 8187, UTF-8): total over any stored name. */
export function dispositionFilename(stored: string): string {
  return `UTF-8''${urlFilename(stored).replace(NOT_ATTR_CHARS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** RFC 9110's `token`: the type, subtype and parameter names of a media type. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const ESSENCE = new RegExp(`^(${TOKEN})/(${TOKEN})$`);
/** A parameter: `name=token` or `name="quoted string"` of visible ASCII. */
const PARAMETER = new RegExp(`^${TOKEN}=(?:${TOKEN}|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")$`);

/**
 * A part's Content-Type as a valid media type: `type/subtype` in lower case, then the parameters
 * that are well formed; undefined when there is none (a control character, no subtype, too long).
 */
export function normalizeContentType(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.length > CONTENT_TYPE_LENGTH_MAX) return undefined;
  const [essence = '', ...parameters] = raw.split(';');
  const match = ESSENCE.exec(essence.trim());
  if (!match) return undefined;
  const kept = parameters.map((p) => p.trim()).filter((p) => PARAMETER.test(p));
  return [`${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}`, ...kept].join('; ');
}

/** Content types by file extension, for files that are not one of the images read by their bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
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

/** The content type of a file that is no recognised image: its part's when valid, or its extension's. */
export function contentTypeOf(filename: string, partType: string | null): string | undefined {
  const normalized = normalizeContentType(partType);
  if (normalized !== undefined && normalized !== 'application/octet-stream') return normalized;
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? undefined : CONTENT_TYPES[filename.slice(dot + 1).toLowerCase()];
}
