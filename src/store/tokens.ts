import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of UTF-8 text, as hex: the one-shot `crypto.hash` where node has it (20.12 and later: no
 * Hash object per call, several times cheaper, and every request with a token pays it), else the
 * streaming API. Read from the namespace, as an older node has no such export to import.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Secrets are looked up by their SHA-256 digest, and the digest found is compared again in
 * constant time, so neither the index lookup nor the comparison reveals the secret's bytes.
 */
export function tokenDigest(token: string): string {
  return sha256Hex(token);
}

export function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/** Constant-time equality of two hex digests (a digest found by lookup, against the one asked for). */
export function sameDigest(a: string, b: string): boolean {
  const da = Buffer.from(a, 'hex');
  const db = Buffer.from(b, 'hex');
  return da.length === db.length && timingSafeEqual(da, db);
}
