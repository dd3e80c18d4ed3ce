/** PKCE (RFC 7636): the code challenge sent to authorize, checked against the verifier at the token endpoint. */
import { createHash, timingSafeEqual } from 'node:crypto';

export type CodeChallengeMethod = 'S256' | 'plain';

/** A verifier (and a plain challenge): 43 to 128 unreserved characters (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The challenge method named, S256 when a challenge comes without one (RFC 7636 says plain; S256 is safer and what clients send); null when unknown. */
export function readChallengeMethod(method: string | undefined): CodeChallengeMethod | null {
  if (method === undefined || method === '' || method === 'S256') return 'S256';
  return method === 'plain' ? 'plain' : null;
}

/** A challenge has the verifier's alphabet and length (an S256 one is 43 characters of base64url). */
export function isWellFormedChallenge(challenge: string, method: CodeChallengeMethod): boolean {
  return method === 'S256' ? /^[A-Za-z0-9_-]{43}$/.test(challenge) : VERIFIER.test(challenge);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** True when the verifier answers the challenge; compared in constant time (digests of both sides). */
export function verifierMatches(challenge: string, method: CodeChallengeMethod, verifier: string | undefined): boolean {
  if (verifier === undefined || !VERIFIER.test(verifier)) return false;
  const expected = method === 'S256' ? s256Challenge(verifier) : verifier;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(challenge).digest();
  return timingSafeEqual(a, b);
}
