/**
 * What a grant of the token endpoint is (RFC 6749 §4): one module per `grant_type`, each a
 * function from the authenticated client and the form to the token response, as
 * node-oidc-provider lays its grants out. The map of them is ./index.ts.
 */
import type { OAuth2GrantStore } from '../../../store/store.js';
import type { TokenClient } from '../clients.js';
import type { AccessTokenResponse, TokenIssuer } from '../tokens.js';

/** The token request's form fields (a null-prototype record of the parsed body). */
export type TokenForm = Readonly<Record<string, string | undefined>>;

/** The store reads and writes of the grants (redeeming codes and refresh tokens, revoking a grant). */
export type GrantStore = Pick<OAuth2GrantStore, 'redeemAuthorizationCode' | 'redeemRefreshToken' | 'revokeGrant'>;

/** What every grant works with. */
export interface GrantContext {
  store: GrantStore;
  now: () => number;
  tokens: TokenIssuer;
}

/** A grant: the tokens for this client and form, or an OAuth2Error (./oauth2-error.ts). */
export type Grant = (context: GrantContext, client: TokenClient, form: TokenForm) => Promise<AccessTokenResponse>;
