import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Secrets are looked up by their SHA-256 digest, and the digest found is compared again in
 * constant time, so neither the index lookup nor the comparison reveals the secret's bytes.
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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
