/**
 * The OAuth2 authorization server (docs/oauth2.md), assembled from one module per job in
 * ./oauth2/: its clients, the authorization endpoint's decisions, the token endpoint's grants (one
 * module per grant type), revocation, and what a token says about itself. Refusals are
 * `OAuth2Error`s, which the routes put on the wire in one place; the HTTP form and the pages stay
 * in the routes.
 */
import type { StoredApplication } from '../../store/store.js';
import { OAuth2Authorization, type AuthorizationStore, type GuildInstaller } from './authorization.js';
import { OAuth2Clients, type ClientStore, type TokenClient } from './clients.js';
import { grantTokens, type GrantContext, type GrantStore, type TokenForm } from './grants/index.js';
import { revokeToken, type RevocationStore } from './revocation.js';
import { TokenInfo, type TokenInfoStore } from './token-info.js';
import { TokenIssuer, type AccessTokenResponse, type TokenStore } from './tokens.js';
import type { OidcService } from './oidc-service.js';

export type { AuthorizeOutcome, ConsentGuild, ConsentView, GuildInstaller } from './authorization.js';
export type { ClientCredentials, TokenClient } from './clients.js';
export type { TokenForm } from './grants/index.js';
export type { AccessTokenResponse } from './tokens.js';

/** Every store call of the OAuth2 server: the world's apps, users and access tokens, the guilds' members, the grant rows. */
export interface OAuth2Stores {
  readonly world: AuthorizationStore['world'] &
    ClientStore &
    RevocationStore['world'] &
    TokenInfoStore &
    TokenStore['world'];
  readonly members: AuthorizationStore['members'];
  readonly grants: AuthorizationStore['grants'] & GrantStore & RevocationStore['grants'] & TokenStore['grants'];
}

export class OAuth2Service {
  /** Who a token request comes from. */
  readonly clients: OAuth2Clients;
  /** The authorization endpoint: the consent page's decisions. */
  readonly authorization: OAuth2Authorization;
  /** What a Bearer token says about itself. */
  readonly tokenInfo: TokenInfo;
  private readonly grants: GrantContext;

  constructor(
    private readonly stores: OAuth2Stores,
    now: () => number,
    oidc: OidcService,
    installer: GuildInstaller,
  ) {
    this.clients = new OAuth2Clients(stores.world);
    this.authorization = new OAuth2Authorization(stores, now, installer);
    this.tokenInfo = new TokenInfo(stores.world);
    this.grants = { store: stores.grants, now, tokens: new TokenIssuer(stores, now, oidc) };
  }

  /** The token endpoint: the tokens of the form's `grant_type` for this client. */
  grant(client: TokenClient, form: TokenForm): Promise<AccessTokenResponse> {
    return grantTokens(this.grants, client, form);
  }

  /** The revocation endpoint: the token goes if it is this app's (RFC 7009). */
  revoke(app: StoredApplication, token: string | undefined): Promise<void> {
    return revokeToken(this.stores, app, token);
  }
}
