/**
 * Issuing tokens, whatever the grant: an access token for a user with its refresh token (and an
 * ID token with `openid`), or an access token for the app itself (client credentials, no user).
 */
import { randomBytes } from 'node:crypto';
import { Scope } from './rules/scopes.js';
import type { AuthorizationGrant, OAuth2GrantStore, StoredApplication, WorldStore } from '../../store/store.js';
import type { OidcService } from './oidc-service.js';

/** Lifetime of an issued access token, in seconds (v10's `expires_in`). */
export const ACCESS_TOKEN_TTL_SECONDS = 604_800;
/** A refresh token is redeemable this long (ms); each use gives a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;

/** v10's access token response. */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

/** Access tokens and the users they name (`world`), refresh tokens (`grants`). */
export interface TokenStore {
  readonly world: Pick<WorldStore, 'putOAuth2Token' | 'getUser'>;
  readonly grants: Pick<OAuth2GrantStore, 'putRefreshToken'>;
}

/** The part of a grant its tokens carry. */
export type GrantOfTokens = Pick<AuthorizationGrant, 'grant_id' | 'user_id' | 'scopes'>;

/** A new secret (a token, a code): 24 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export class TokenIssuer {
  constructor(
    private readonly store: TokenStore,
    private readonly now: () => number,
    private readonly oidc: OidcService,
  ) {}

  /** A new token for the app itself (client credentials: no user), valid for ACCESS_TOKEN_TTL_SECONDS. */
  async issueAppToken(app: StoredApplication, scopes: readonly string[]): Promise<AccessTokenResponse> {
    const accessToken = newToken();
    await this.store.world.putOAuth2Token({
      access_token: accessToken,
      user_id: null,
      application_id: app.id,
      scopes: [...scopes],
      expires_at: this.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: scopes.join(' '),
    };
  }

  /** An access token and a refresh token of the user's grant; with `openid`, an ID token carrying `nonce`. */
  async issueUserTokens(
    app: StoredApplication,
    grant: GrantOfTokens,
    nonce: string | null,
  ): Promise<AccessTokenResponse> {
    const accessToken = newToken();
    const refreshToken = newToken();
    await this.store.world.putOAuth2Token({
      access_token: accessToken,
      user_id: grant.user_id,
      application_id: app.id,
      scopes: [...grant.scopes],
      expires_at: this.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
      grant_id: grant.grant_id,
    });
    await this.store.grants.putRefreshToken(refreshToken, {
      grant_id: grant.grant_id,
      application_id: app.id,
      user_id: grant.user_id,
      scopes: [...grant.scopes],
      expires_at: this.now() + REFRESH_TOKEN_TTL_MS,
    });
    const response: AccessTokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
    if (grant.scopes.includes(Scope.OpenId)) {
      const user = await this.store.world.getUser(grant.user_id);
      response.id_token = await this.oidc.idToken({
        subject: grant.user_id,
        audience: app.id,
        nonce,
        accessToken,
        extra: user ? { preferred_username: user.username } : {},
      });
    }
    return response;
  }
}
