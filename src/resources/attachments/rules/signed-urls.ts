/**
 * Signed attachment URLs, as v10's CDN gives them: `?ex=<expiry>&is=<issued>&hm=<mac>` (both times
 * hex unix seconds, the MAC hex HMAC-SHA256 of the file's path and both times under the node's key).
 * Anyone holding a URL reads the file until `ex`; a URL whose MAC does not match, or whose time is
 * past, reads nothing (docs/decisions.md#attachments). `url` and `proxy_url` carry the same
 * signature: it covers the file's path without the `/media` prefix.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { attachmentPath, type StoredAttachment } from './model.js';

/** How long a signed URL reads its file: v10's CDN URLs last about a day. */
export const ATTACHMENT_URL_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * URLs issued within one window carry the same `is` and `ex`, so a message read twice gives the
 * same URLs (caches and equality checks hold); a URL then reads its file for at least the TTL less
 * one window.
 */
export const ATTACHMENT_URL_ISSUE_WINDOW_MS = 60 * 60 * 1000;
/** Most hex digits of `ex` or `is`: 16 is any 64-bit time; longer is not a time slashd wrote. */
const TIME_HEX_DIGITS_MAX = 16;

const TIME_HEX = new RegExp(`^[0-9a-f]{1,${TIME_HEX_DIGITS_MAX}}$`);
const MAC_HEX = /^[0-9a-f]{64}$/;

/** The absolute URL of a file (`proxy`: its `proxy_url` twin), signed or not by whoever renders it. */
export type AttachmentUrlOf = (
  channelId: string,
  attachment: Pick<StoredAttachment, 'id' | 'filename'>,
  proxy: boolean,
) => string;

/** A file's path alone, unsigned: what a rendering outside a node (no key, no origin) gives. */
export const unsignedPaths: AttachmentUrlOf = (channelId, attachment, proxy) =>
  attachmentPath(channelId, attachment, proxy);

/** A signature's parts as a URL's query carries them. */
export interface SignatureQuery {
  readonly ex?: unknown;
  readonly is?: unknown;
  readonly hm?: unknown;
}

/** What a request's query says of its signature. */
export type SignatureCheck = 'unsigned' | 'valid' | 'expired' | 'invalid';

function macOf(key: Uint8Array, path: string, ex: string, is: string): Buffer {
  return createHmac('sha256', key).update(`${path}\n${ex}\n${is}`).digest();
}

/** The query signing `path` (a file's path, no `/media`) at `nowMs` for `ttlMs`. */
export function signatureQuery(path: string, key: Uint8Array, nowMs: number, ttlMs = ATTACHMENT_URL_TTL_MS): string {
  const issuedMs = Math.floor(nowMs / ATTACHMENT_URL_ISSUE_WINDOW_MS) * ATTACHMENT_URL_ISSUE_WINDOW_MS;
  const is = Math.floor(issuedMs / 1000).toString(16);
  const ex = Math.floor((issuedMs + ttlMs) / 1000).toString(16);
  return `ex=${ex}&is=${is}&hm=${macOf(key, path, ex, is).toString('hex')}&`;
}

/** Signed absolute URLs on `origin` (no trailing slash), issued at `nowMs`. */
export function signedUrls(
  origin: string,
  key: Uint8Array,
  nowMs: number,
  ttlMs = ATTACHMENT_URL_TTL_MS,
): AttachmentUrlOf {
  return (channelId, attachment, proxy) => {
    const query = signatureQuery(attachmentPath(channelId, attachment), key, nowMs, ttlMs);
    return `${origin}${attachmentPath(channelId, attachment, proxy)}?${query}`;
  };
}

/** Whether the query names a signature at all: any of its three parts. */
export function carriesSignature(query: SignatureQuery): boolean {
  return query.ex !== undefined || query.is !== undefined || query.hm !== undefined;
}

/**
 * Checks the query's signature of `path` at `nowMs`. The MAC is compared in constant time, and
 * before the expiry, so that a forged URL learns nothing from which answer it gets.
 */
export function checkSignature(path: string, query: SignatureQuery, key: Uint8Array, nowMs: number): SignatureCheck {
  if (!carriesSignature(query)) return 'unsigned';
  const { ex, is, hm } = query;
  if (typeof ex !== 'string' || typeof is !== 'string' || typeof hm !== 'string') return 'invalid';
  if (!TIME_HEX.test(ex) || !TIME_HEX.test(is) || !MAC_HEX.test(hm)) return 'invalid';
  if (!timingSafeEqual(macOf(key, path, ex, is), Buffer.from(hm, 'hex'))) return 'invalid';
  return parseInt(ex, 16) * 1000 > nowMs ? 'valid' : 'expired';
}

/** The file a URL of slashd names (`/attachments/...` or `/media/attachments/...`), or null. */
export interface NamedFile {
  readonly channelId: string;
  readonly attachmentId: string;
  /** The last segment, decoded. */
  readonly filename: string;
  readonly proxy: boolean;
  readonly query: SignatureQuery;
}

const FILE_PATH = /^(\/media)?\/attachments\/([0-9]{1,20})\/([0-9]{1,20})\/([^/]+)$/;

/** The file `url` names, whatever its host (a proxy in front of slashd may rename it); null for anything else. */
export function fileOfUrl(url: string): NamedFile | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const match = FILE_PATH.exec(parsed.pathname);
  if (!match) return null;
  let filename: string;
  try {
    filename = decodeURIComponent(match[4]!);
  } catch {
    return null;
  }
  const query: Record<string, string> = {};
  for (const name of ['ex', 'is', 'hm'] as const) {
    const value = parsed.searchParams.get(name);
    if (value !== null) query[name] = value;
  }
  return { channelId: match[2]!, attachmentId: match[3]!, filename, proxy: match[1] !== undefined, query };
}
