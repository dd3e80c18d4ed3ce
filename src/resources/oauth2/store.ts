/**
 * What the authorization server keeps beyond access tokens (docs/oauth2.md): authorization codes,
 * refresh tokens (spent ones too, until they expire, to tell a replay), a user's authorization of an app (consent, and a user install), and the
 * deployment's OpenID Connect signing key. Codes and refresh tokens are stored as SHA-256 digests
 * only and keyed by application id: a stolen database holds nothing a client could present.
 * `Store.oauth2Grants` (an application's rows go with it; a world reload clears them with the tokens).
 */

/** One use of the authorization endpoint: what its code, and every token issued from it, grant. */
export interface AuthorizationGrant {
  /** Names the grant: every token issued from the code (and their refreshes) carries it, so a replay revokes them all. */
  grant_id: string;
  application_id: string;
  user_id: string;
  scopes: string[];
  /** The redirect URI the authorization request named; the token request must name it again. */
  redirect_uri: string;
  code_challenge: string | null;
  code_challenge_method: 'S256' | 'plain' | null;
  /** OpenID Connect `nonce`, echoed in the ID token. */
  nonce: string | null;
  /** Epoch ms after which the code is refused. */
  expires_at: number;
}

/** A code presented at the token endpoint: its grant, and whether this was its first use. */
export interface RedeemedCode {
  grant: AuthorizationGrant;
  firstUse: boolean;
}

/** What a refresh token stands for. */
export interface RefreshGrant {
  grant_id: string;
  application_id: string;
  user_id: string;
  scopes: string[];
  /** Epoch ms after which the refresh token is refused. */
  expires_at: number;
}

/** A refresh token presented at the token endpoint: what it stands for, and whether this was its first use. */
export interface RedeemedRefreshToken {
  grant: RefreshGrant;
  firstUse: boolean;
}

/** A user's standing authorization of an app: the scopes consented to, and whether the app is installed to the account. */
export interface UserAuthorization {
  application_id: string;
  user_id: string;
  scopes: string[];
  /** The app is installed to the user's account (integration type 1): its user-installable commands follow the user. */
  user_install: boolean;
}

/** The deployment's ID-token signing key, as JWKs (JSON text). */
export interface SigningKeyRecord {
  kid: string;
  /** Private JWK, JSON text; never leaves the server. */
  private_jwk: string;
  /** Public JWK, JSON text, as the JWKS endpoint serves it. */
  public_jwk: string;
  created_at: number;
}

export interface OAuth2GrantStore {
  /** Stores the code (as its digest); expired codes of the same application are dropped on the way. */
  putAuthorizationCode(code: string, grant: AuthorizationGrant): Promise<void>;
  /**
   * Marks the code used and returns its grant, atomically (two nodes redeeming at once: one sees
   * `firstUse`). A code used before comes back with `firstUse: false`; another app's or an unknown one: null.
   */
  redeemAuthorizationCode(applicationId: string, code: string): Promise<RedeemedCode | null>;
  /** Stores the refresh token (as its digest); expired refresh tokens of the same application, spent or not, are dropped on the way. */
  putRefreshToken(token: string, grant: RefreshGrant): Promise<void>;
  /**
   * Marks the refresh token spent and returns what it stood for, atomically (rotation: it works
   * once; two nodes redeeming at once: one sees `firstUse`). A spent token is kept until it expires
   * or its grant is revoked, so a replay comes back with `firstUse: false` (and the caller revokes
   * the grant); another app's or an unknown one: null.
   */
  redeemRefreshToken(applicationId: string, token: string): Promise<RedeemedRefreshToken | null>;
  /** Deletes every access and refresh token issued from the grant. */
  revokeGrant(applicationId: string, grantId: string): Promise<void>;
  putUserAuthorization(authorization: UserAuthorization): Promise<void>;
  getUserAuthorization(applicationId: string, userId: string): Promise<UserAuthorization | null>;
  deleteUserAuthorization(applicationId: string, userId: string): Promise<boolean>;
  /** The apps the user installed to their account (`user_install`), by application id ascending. */
  listUserInstalls(userId: string): Promise<string[]>;
  /** The stored signing key; when there is none, `candidate` is stored and returned (the first writer wins across nodes). */
  signingKey(candidate: SigningKeyRecord): Promise<SigningKeyRecord>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Authorization codes, refresh tokens, user authorizations, the signing key. */
    readonly oauth2Grants: OAuth2GrantStore;
  }
}
