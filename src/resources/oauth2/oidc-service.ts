/**
 * OpenID Connect over slashd's OAuth2 (docs/oauth2.md): discovery, the JWKS, and ID tokens signed
 * with `jose`. The signing key is generated once per deployment and kept in the store, so every
 * node signs with the same key and a restart keeps it (relying parties cache the JWKS).
 */
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { KNOWN_SCOPES } from './rules/scopes.js';
import type { OAuth2GrantStore, SigningKeyRecord } from '../../store/store.js';

/** ID tokens are signed RS256: the algorithm every relying party must accept (OIDC Core §15.1). */
export const ID_TOKEN_ALG = 'RS256';
/** Lifetime of an ID token, in seconds. */
export const ID_TOKEN_TTL_SECONDS = 3600;

/** Where the OpenID endpoints live, under the issuer. */
export const OIDC_PATHS = {
  discovery: '/.well-known/openid-configuration',
  jwks: '/oauth2/keys',
  authorize: '/oauth2/authorize',
  token: '/api/v10/oauth2/token',
  revoke: '/api/v10/oauth2/token/revoke',
  userinfo: '/api/v10/oauth2/userinfo',
} as const;

/** The issuer: the server's public URL, known once it listens when not configured. */
export interface Issuer {
  url(): string;
}

export interface IdTokenClaims {
  subject: string;
  audience: string;
  nonce: string | null;
  accessToken: string;
  /** Extra claims (e.g. preferred_username). */
  extra?: Record<string, unknown>;
}

interface LoadedKey {
  kid: string;
  /** A secret derived from the private key: the deployment's, like the key (consent-page sessions). */
  derivedSecret: Buffer;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export class OidcService {
  private key: Promise<LoadedKey> | null = null;

  constructor(
    private readonly store: Pick<OAuth2GrantStore, 'signingKey'>,
    readonly issuer: Issuer,
    private readonly now: () => number,
  ) {}

  /** The discovery document (OpenID Connect Discovery 1.0). */
  discovery(): Record<string, unknown> {
    const base = this.issuer.url();
    return {
      issuer: base,
      authorization_endpoint: base + OIDC_PATHS.authorize,
      token_endpoint: base + OIDC_PATHS.token,
      revocation_endpoint: base + OIDC_PATHS.revoke,
      userinfo_endpoint: base + OIDC_PATHS.userinfo,
      jwks_uri: base + OIDC_PATHS.jwks,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
      scopes_supported: [...KNOWN_SCOPES],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256', 'plain'],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'at_hash', 'preferred_username', 'locale'],
    };
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.signingKey()).publicJwk] };
  }

  /** An ID token for the user, for the client `audience` (OIDC Core §2, at_hash §3.1.3.6). */
  async idToken(claims: IdTokenClaims): Promise<string> {
    const key = await this.signingKey();
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({
      ...claims.extra,
      ...(claims.nonce === null ? {} : { nonce: claims.nonce }),
      at_hash: atHash(claims.accessToken),
    })
      .setProtectedHeader({ alg: ID_TOKEN_ALG, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer.url())
      .setSubject(claims.subject)
      .setAudience(claims.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ID_TOKEN_TTL_SECONDS)
      .sign(key.privateKey);
  }

  /** A secret every node of the deployment shares and a restart keeps (signs consent-page sessions). */
  async sharedSecret(): Promise<Buffer> {
    return (await this.signingKey()).derivedSecret;
  }

  /** The deployment's key: read (or first stored) once per process. */
  private signingKey(): Promise<LoadedKey> {
    this.key ??= this.loadKey().catch((error: unknown) => {
      this.key = null;
      throw error;
    });
    return this.key;
  }

  private async loadKey(): Promise<LoadedKey> {
    const record = await this.store.signingKey(await newSigningKey(this.now()));
    const privateJwk = JSON.parse(record.private_jwk) as JWK;
    const publicJwk = JSON.parse(record.public_jwk) as JWK;
    return {
      kid: record.kid,
      derivedSecret: createHash('sha256').update('slashd shared secret\0').update(record.private_jwk).digest(),
      privateKey: (await importJWK(privateJwk, ID_TOKEN_ALG)) as CryptoKey,
      publicJwk,
    };
  }
}

/** A fresh RSA key pair as the store keeps it. */
async function newSigningKey(nowMs: number): Promise<SigningKeyRecord> {
  const { privateKey, publicKey } = await generateKeyPair(ID_TOKEN_ALG, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ID_TOKEN_ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ID_TOKEN_ALG };
  return { kid, private_jwk: JSON.stringify(privateJwk), public_jwk: JSON.stringify(publicJwk), created_at: nowMs };
}

/** The left half of the access token's SHA-256, base64url (RS256's hash). */
export function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
