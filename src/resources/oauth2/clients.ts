/**
 * OAuth2 clients: who a token request comes from. A confidential client proves itself with its
 * secret (compared in constant time); a public client is named by its id alone and must then use
 * PKCE. A browser page of a public client may read the token endpoint's answers from the origins
 * of its registered redirect URIs.
 */
import type { StoredApplication, WorldStore } from '../../store/store.js';
import { sameSecret } from '../../store/tokens.js';

/** The id and secret a client presented (HTTP Basic, or the form's `client_id` and `client_secret`). */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** The client a token request comes from: authenticated with its secret, or a public client named by id. */
export interface TokenClient {
  app: StoredApplication;
  authenticated: boolean;
}

export type ClientStore = Pick<WorldStore, 'getApplication'>;

/** A client id is an application id: a snowflake, never looked up otherwise. */
function isClientId(clientId: string | undefined): clientId is string {
  return clientId !== undefined && /^\d{1,20}$/.test(clientId);
}

export class OAuth2Clients {
  constructor(private readonly store: ClientStore) {}

  /** The app whose id and secret these are; null for anything else (the secret compared in constant time). */
  async authenticate(credentials: ClientCredentials | null): Promise<StoredApplication | null> {
    if (!credentials || !isClientId(credentials.clientId)) return null;
    const app = await this.store.getApplication(credentials.clientId);
    if (!app || !app.client_secret) return null;
    return sameSecret(app.client_secret, credentials.clientSecret) ? app : null;
  }

  /**
   * The client of a token request: by its secret (Basic or body), or a public client by its
   * `client_id` alone (method `none`, PKCE then required). Null for anything else: the token
   * routes count it as a failed credential and answer invalid_client.
   */
  async tokenClient(credentials: ClientCredentials | null, clientId: string | undefined): Promise<TokenClient | null> {
    if (credentials) {
      const app = await this.authenticate(credentials);
      if (app) return { app, authenticated: true };
    } else if (isClientId(clientId)) {
      const app = await this.store.getApplication(clientId);
      if (app?.public_client) return { app, authenticated: false };
    }
    return null;
  }

  /** The origins of a public client's registered redirect URIs (CORS of the token endpoint). */
  async publicClientOrigins(clientId: string | undefined): Promise<string[]> {
    if (!isClientId(clientId)) return [];
    const app = await this.store.getApplication(clientId);
    if (!app?.public_client) return [];
    return app.redirect_uris.flatMap((uri) => {
      try {
        const { protocol, origin } = new URL(uri);
        return protocol === 'http:' || protocol === 'https:' ? [origin] : [];
      } catch {
        return [];
      }
    });
  }
}
