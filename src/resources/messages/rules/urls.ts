/**
 * URLs an app puts in a message (embed links and images, link buttons): v10 takes only the schemes
 * each place names, so `javascript:` or `data:` never reaches a client that would render it as a
 * link. The scheme is read the way a browser reads it (the WHATWG URL parser), so nothing that
 * passes here navigates anywhere else in a browser.
 */
import { URL_TYPE_INVALID_SCHEME, URL_TYPE_INVALID_URL } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { readString } from '../../../core/io/read.js';
import { report, type Issues } from '../../../core/io/report.js';
import { checkLength } from '../../../core/validation/text.js';

/** Links: an embed's `url`, its author's and provider's, its video. */
export const WEB_SCHEMES: readonly string[] = ['http', 'https'];
/** Images (an embed's image, thumbnail and icons) may also name a file of the message. */
export const IMAGE_SCHEMES: readonly string[] = ['http', 'https', 'attachment'];
/** A link button may also open the client itself. */
export const LINK_BUTTON_SCHEMES: readonly string[] = ['http', 'https', 'discord'];

/** Spaces and control characters (C0, DEL, C1): a browser drops or rewrites them, so a URL holding one is refused. */
function hasSpaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit <= 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
  }
  return false;
}

/** The scheme (lower case) and host of a well formed absolute URL; undefined when it is not one. */
export function urlParts(text: string): { scheme: string; host: string } | undefined {
  if (hasSpaceOrControl(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return { scheme: url.protocol.slice(0, -1), host: url.host };
}

function tupleText(schemes: readonly string[]): string {
  return `(${schemes.map((scheme) => `'${scheme}'`).join(', ')})`;
}

/** A URL within `maxLength` characters whose scheme is one of `schemes`. */
export function readUrl(
  raw: unknown,
  schemes: readonly string[],
  maxLength: number,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  const text = readString(raw, path, issues);
  if (text === undefined) return undefined;
  const before = issues.length;
  checkLength(text, 0, maxLength, path, issues);
  if (issues.length > before) return undefined;
  const parts = urlParts(text);
  if (parts && !schemes.includes(parts.scheme)) {
    const message = `Scheme "${parts.scheme}" is not supported. Scheme must be one of ${tupleText(schemes)}.`;
    report(issues, path, URL_TYPE_INVALID_SCHEME, message);
    return undefined;
  }
  if (!parts || parts.host === '') {
    report(issues, path, URL_TYPE_INVALID_URL, 'Not a well formed URL.');
    return undefined;
  }
  return text;
}
