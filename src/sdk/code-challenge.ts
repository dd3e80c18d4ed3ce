/**
 * PKCE (RFC 7636) values of the client library: the challenge that goes to `authorize` and the
 * verifier that goes to `getToken`. Made with Web Crypto only, so the same code runs in browsers
 * and in Node.
 */
import { AuthenticationCodeChallengeMethod } from './enums.js';

/** Bytes of randomness in a verifier: 32 bytes give the 43-character base64url verifier RFC 7636 §4.1 recommends. */
export const VERIFIER_RANDOM_BYTES = 32;

/** Bytes of randomness in a generated `state`: 128 bits, beyond guessing. */
export const STATE_RANDOM_BYTES = 16;

/** The challenge half of PKCE: `authorize` sends it as `code_challenge` and `code_challenge_method`. */
export class AuthorizationCodeChallenge {
  #challenge: string;
  #method: AuthenticationCodeChallengeMethod;

  constructor(challenge = '', method: AuthenticationCodeChallengeMethod = AuthenticationCodeChallengeMethod.S256) {
    this.#challenge = challenge;
    this.#method = method;
  }

  challenge(): string {
    return this.#challenge;
  }

  setChallenge(challenge: string): void {
    this.#challenge = challenge;
  }

  method(): AuthenticationCodeChallengeMethod {
    return this.#method;
  }

  setMethod(method: AuthenticationCodeChallengeMethod): void {
    this.#method = method;
  }

  clone(): AuthorizationCodeChallenge {
    return new AuthorizationCodeChallenge(this.#challenge, this.#method);
  }
}

/** Both halves, as `Client.createAuthorizationCodeVerifier()` makes them. */
export class AuthorizationCodeVerifier {
  #challenge: AuthorizationCodeChallenge;
  #verifier: string;

  constructor(challenge: AuthorizationCodeChallenge, verifier: string) {
    this.#challenge = challenge.clone();
    this.#verifier = verifier;
  }

  /** A copy: changing it does not change this verifier. */
  challenge(): AuthorizationCodeChallenge {
    return this.#challenge.clone();
  }

  setChallenge(challenge: AuthorizationCodeChallenge): void {
    this.#challenge = challenge.clone();
  }

  verifier(): string {
    return this.#verifier;
  }

  setVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  clone(): AuthorizationCodeVerifier {
    return new AuthorizationCodeVerifier(this.#challenge, this.#verifier);
  }
}

/** base64url without padding (RFC 4648 §5), as PKCE and `state` use it. */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `count` bytes from the platform's secure random source, as base64url. */
export function secureRandomString(count: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(count)));
}

/** The S256 challenge of a verifier: base64url(SHA-256(ASCII(verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** A fresh verifier and its S256 challenge. */
export async function createCodeVerifier(): Promise<AuthorizationCodeVerifier> {
  const verifier = secureRandomString(VERIFIER_RANDOM_BYTES);
  const challenge = new AuthorizationCodeChallenge(
    await s256Challenge(verifier),
    AuthenticationCodeChallengeMethod.S256,
  );
  return new AuthorizationCodeVerifier(challenge, verifier);
}

/** Equal strings, compared without stopping at the first difference (a state is a CSRF secret). */
export function constantTimeEqual(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
