/**
 * OAuth2 clients and the tokens they get (docs/v10-behaviour.md#oauth2): client authentication by
 * secret, client-credentials tokens, revocation. The HTTP form and OAuth2's error shape stay in
 * the route.
 */
import { randomBytes } from 'node:crypto';
import type { StoredApplication, WorldStore } from '../store/store.js';
import { sameSecret } from '../store/tokens.js';

/** Lifetime of an issued access token, in seconds (v10's `expires_in`). */
export const ACCESS_TOKEN_TTL_SECONDS = 604_800;

/**
 * Scopes a client may grant itself with its secret alone (the token acts for the app's owner).
 * Anything a user must grant, `applications.commands.permissions.update` above all, is absent: it
 * comes only from an authorization code, so a leaked client secret cannot edit permissions.
 */
export const CLIENT_CREDENTIALS_SCOPES: ReadonlySet<string> = new Set([
  'applications.commands.update',
  'applications.commands',
  'identify',
  'guilds',
  'connections',
  'email',
]);

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** v10's access token response. */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export type OAuth2Store = Pick<
  WorldStore,
  'getApplication' | 'putOAuth2Token' | 'findOAuth2Token' | 'deleteOAuth2Token'
>;

export class OAuth2Service {
  constructor(
    private readonly store: OAuth2Store,
    private readonly now: () => number,
  ) {}

  /** The app whose id and secret these are; null for anything else (the secret compared in constant time). */
  async authenticateClient(credentials: ClientCredentials | null): Promise<StoredApplication | null> {
    if (!credentials || !/^\d{1,20}$/.test(credentials.clientId)) return null;
    const app = await this.store.getApplication(credentials.clientId);
    if (!app || !app.client_secret) return null;
    return sameSecret(app.client_secret, credentials.clientSecret) ? app : null;
  }

  /** The first scope a client may not grant itself; undefined when all may be granted. */
  refusedScope(scopes: readonly string[]): string | undefined {
    return scopes.find((s) => !CLIENT_CREDENTIALS_SCOPES.has(s));
  }

  /** A new token for the app itself (client credentials: no user), valid for ACCESS_TOKEN_TTL_SECONDS. */
  async issueClientCredentials(app: StoredApplication, scopes: readonly string[]): Promise<AccessTokenResponse> {
    const accessToken = randomBytes(24).toString('base64url');
    await this.store.putOAuth2Token({
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

  /** Revokes the token if it is this app's; anything else is silently ignored (RFC 7009). */
  async revoke(app: StoredApplication, accessToken: string | undefined): Promise<void> {
    const token = accessToken ? await this.store.findOAuth2Token(accessToken) : null;
    if (token && token.application_id === app.id) await this.store.deleteOAuth2Token(token.access_token);
  }
}
