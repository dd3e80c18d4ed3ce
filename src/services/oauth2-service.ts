/**
 * The OAuth2 authorization server (docs/oauth2.md): the authorization endpoint's decisions (what
 * the consent page shows, what Authorize and Cancel do, installs), the token endpoint's grants
 * (authorization code with PKCE, refresh token with rotation and replay detection, client credentials), revocation,
 * and what a token says about itself. The HTTP form, the page and OAuth2's error shape stay in the routes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  checkAuthorizeQuery,
  clientIdOf,
  type AuthorizationRequest,
  type AuthorizeQuery,
  type AuthorizeReading,
} from '../core/oauth2/authorize-request.js';
import { IntegrationTypeParam, mayManageGuild, withheldPermissions, withInstall } from '../core/oauth2/install.js';
import { flagNames } from '../core/permissions/flag-names.js';
import { verifierMatches } from '../core/oauth2/pkce.js';
import { withQuery } from '../core/oauth2/redirect.js';
import {
  CLIENT_CREDENTIALS_SCOPES,
  coversScopes,
  grantsToken,
  installsApp,
  parseScopes,
  refusedClientCredentialsScope,
  Scope,
  SCOPE_WORDING,
} from '../core/oauth2/scopes.js';
import { toWireCurrentUser } from '../core/world/wire.js';
import type { Guild, User } from '../core/world/types.js';
import type { AuthorizationGrant, IssuedToken, StoredApplication, WorldStore } from '../store/store.js';
import { sameSecret } from '../store/tokens.js';
import type { OidcService } from './oidc-service.js';

export { CLIENT_CREDENTIALS_SCOPES };

/** Lifetime of an issued access token, in seconds (v10's `expires_in`). */
export const ACCESS_TOKEN_TTL_SECONDS = 604_800;
/** An authorization code is redeemable this long after it is issued (ms; RFC 6749 §4.1.2 advises at most 10 minutes). */
export const AUTHORIZATION_CODE_TTL_MS = 600_000;
/** A refresh token is redeemable this long (ms); each use gives a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** v10's access token response. */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

/** A refusal of the token endpoint, in OAuth2's terms (RFC 6749 §5.2). */
export class OAuth2Error extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuth2Error';
  }
}

const invalidGrant = (description: string) => new OAuth2Error(400, 'invalid_grant', description);

export type OAuth2Store = Pick<
  WorldStore,
  | 'getApplication'
  | 'getGuild'
  | 'getGuildWithMembers'
  | 'getUser'
  | 'listGuilds'
  | 'guildIdsOfMember'
  | 'putOAuth2Token'
  | 'findOAuth2Token'
  | 'deleteOAuth2Token'
  | 'putAuthorizationCode'
  | 'redeemAuthorizationCode'
  | 'putRefreshToken'
  | 'redeemRefreshToken'
  | 'revokeGrant'
  | 'putUserAuthorization'
  | 'getUserAuthorization'
>;

/** Installs an app in a guild and tells the bots (the world service's job). */
export interface GuildInstaller {
  changeGuild(guildId: string, change: (guild: Guild) => Guild): Promise<boolean>;
}

/** The client a token request comes from: authenticated with its secret, or a public client named by id. */
export interface TokenClient {
  app: StoredApplication;
  authenticated: boolean;
}

/** A guild of the consent page's picker. */
export interface ConsentGuild {
  id: string;
  name: string;
  /** Requested bot permissions the user does not hold there: the bot will not get them (v10 flag names). */
  withheld: string[];
}

/** What the consent page shows for a request and a signed-in user. */
export interface ConsentView {
  appName: string;
  scopes: { scope: string; words: string }[];
  /**
   * A guild install: the guilds the user may install in (the requested one alone when selection is
   * disabled), each with the names of the requested bot permissions the user cannot grant there.
   */
  guilds: ConsentGuild[] | null;
  userInstall: boolean;
}

/** Where Authorize or Cancel sends the browser: back to the client, or a page saying what happened. */
export type AuthorizeOutcome = { redirect: string } | { done: string };

export class OAuth2Service {
  constructor(
    private readonly store: OAuth2Store,
    private readonly now: () => number,
    private readonly oidc: OidcService,
    private readonly installer: GuildInstaller,
  ) {}

  /** The app whose id and secret these are; null for anything else (the secret compared in constant time). */
  async authenticateClient(credentials: ClientCredentials | null): Promise<StoredApplication | null> {
    if (!credentials || !/^\d{1,20}$/.test(credentials.clientId)) return null;
    const app = await this.store.getApplication(credentials.clientId);
    if (!app || !app.client_secret) return null;
    return sameSecret(app.client_secret, credentials.clientSecret) ? app : null;
  }

  /**
   * The client of a token request: by its secret (Basic or body), or a public client by its
   * `client_id` alone (method `none`, PKCE then required). Anything else: invalid_client.
   */
  async tokenClient(credentials: ClientCredentials | null, clientId: string | undefined): Promise<TokenClient> {
    if (credentials) {
      const app = await this.authenticateClient(credentials);
      if (app) return { app, authenticated: true };
    } else if (clientId !== undefined && /^\d{1,20}$/.test(clientId)) {
      const app = await this.store.getApplication(clientId);
      if (app?.public_client) return { app, authenticated: false };
    }
    throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed');
  }

  /** The origins of a public client's registered redirect URIs (CORS of the token endpoint). */
  async publicClientOrigins(clientId: string | undefined): Promise<string[]> {
    if (clientId === undefined || !/^\d{1,20}$/.test(clientId)) return [];
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

  // ---- the authorization endpoint ----

  async readAuthorization(query: AuthorizeQuery): Promise<AuthorizeReading> {
    const clientId = clientIdOf(query);
    return checkAuthorizeQuery(clientId ? await this.store.getApplication(clientId) : null, query);
  }

  async consentView(request: AuthorizationRequest, user: User): Promise<ConsentView> {
    const app = await this.appOf(request);
    const guildInstall = installsApp(request.scopes) && request.integrationType === IntegrationTypeParam.Guild;
    return {
      appName: app.name,
      scopes: request.scopes.map((scope) => ({ scope, words: SCOPE_WORDING[scope] ?? scope })),
      guilds: guildInstall ? await this.manageableGuilds(request, user) : null,
      userInstall: installsApp(request.scopes) && request.integrationType === IntegrationTypeParam.User,
    };
  }

  /** prompt=none: approve at once when the user authorized these scopes before; else `consent_required`. */
  async silentOutcome(request: AuthorizationRequest, user: User | null): Promise<AuthorizeOutcome> {
    if (!user) return this.refusal(request, 'login_required', 'The user is not signed in');
    const earlier = await this.store.getUserAuthorization(request.clientId, user.id);
    if (!earlier || installsApp(request.scopes) || !coversScopes(earlier.scopes, request.scopes)) {
      return this.refusal(request, 'consent_required', 'The user has not authorized these scopes');
    }
    return this.approve(request, user, null);
  }

  /** Authorize: installs what the scopes install, records the consent, and issues a code when a token was asked for. */
  async approve(request: AuthorizationRequest, user: User, chosenGuildId: string | null): Promise<AuthorizeOutcome> {
    const app = await this.appOf(request);
    const earlier = await this.store.getUserAuthorization(app.id, user.id);
    let installedGuild: string | null = null;
    let installedPermissions = '0';
    if (installsApp(request.scopes) && request.integrationType === IntegrationTypeParam.Guild) {
      const guildId = request.disableGuildSelect ? request.guildId : (chosenGuildId ?? request.guildId);
      const guild = guildId ? await this.store.getGuildWithMembers(guildId, [user.id]) : null;
      if (!guild || !mayManageGuild(guild, user.id)) {
        return this.refusal(request, 'invalid_request', 'Choose a server you may manage');
      }
      await this.installer.changeGuild(guild.id, (current) => {
        // Decided on the guild as the change finds it: what the user holds now is what they may grant.
        const changed = withInstall(current, app.id, request.scopes, request.permissions, user.id);
        installedPermissions = changed.installs.find((i) => i.application_id === app.id)?.permissions ?? '0';
        return changed;
      });
      installedGuild = guild.id;
    }
    const userInstall = installsApp(request.scopes) && request.integrationType === IntegrationTypeParam.User;
    await this.store.putUserAuthorization({
      application_id: app.id,
      user_id: user.id,
      scopes: [...new Set([...(earlier?.scopes ?? []), ...request.scopes])],
      user_install: (earlier?.user_install ?? false) || userInstall,
    });
    // The redirect names the permissions the bot holds now, not those asked for.
    const guildParams = installedGuild ? { guild_id: installedGuild, permissions: installedPermissions } : {};
    if (request.redirectUri === null) {
      return { done: installedGuild ? `${app.name} was added to the server.` : `${app.name} was authorized.` };
    }
    if (!grantsToken(request.scopes)) {
      return { redirect: withQuery(request.redirectUri, { ...guildParams, state: request.state }) };
    }
    const code = randomBytes(24).toString('base64url');
    await this.store.putAuthorizationCode(code, {
      grant_id: randomUUID(),
      application_id: app.id,
      user_id: user.id,
      scopes: request.scopes,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallengeMethod,
      nonce: request.nonce,
      expires_at: this.now() + AUTHORIZATION_CODE_TTL_MS,
    });
    return { redirect: withQuery(request.redirectUri, { code, state: request.state, ...guildParams }) };
  }

  /** Cancel: `access_denied` with the state (RFC 6749 §4.1.2.1). */
  deny(request: AuthorizationRequest): AuthorizeOutcome {
    return this.refusal(request, 'access_denied', 'The user denied the request');
  }

  private refusal(request: AuthorizationRequest, error: string, description: string): AuthorizeOutcome {
    if (request.redirectUri === null) return { done: description };
    return {
      redirect: withQuery(request.redirectUri, { error, error_description: description, state: request.state }),
    };
  }

  private async appOf(request: AuthorizationRequest): Promise<StoredApplication> {
    const app = await this.store.getApplication(request.clientId);
    if (!app) throw new OAuth2Error(400, 'invalid_request', 'Unknown application');
    return app;
  }

  private async manageableGuilds(request: AuthorizationRequest, user: User): Promise<ConsentGuild[]> {
    const ids =
      request.disableGuildSelect && request.guildId ? [request.guildId] : await this.store.guildIdsOfMember(user.id);
    const asked = request.scopes.includes(Scope.Bot) ? request.permissions : null;
    const guilds: ConsentGuild[] = [];
    for (const id of ids) {
      const guild = await this.store.getGuildWithMembers(id, [user.id]);
      if (!guild || !mayManageGuild(guild, user.id)) continue;
      guilds.push({ id: guild.id, name: guild.name, withheld: flagNames(withheldPermissions(guild, user.id, asked)) });
    }
    return guilds;
  }

  // ---- the token endpoint ----

  async exchangeCode(
    client: TokenClient,
    form: Readonly<Record<string, string | undefined>>,
  ): Promise<AccessTokenResponse> {
    if (!form.code) throw new OAuth2Error(400, 'invalid_request', 'code is required');
    const redeemed = await this.store.redeemAuthorizationCode(client.app.id, form.code);
    if (!redeemed) throw invalidGrant('Invalid authorization code');
    const { grant } = redeemed;
    if (!redeemed.firstUse) {
      // A code used twice was stolen or replayed: every token issued from it goes (RFC 6749 §4.1.2).
      await this.store.revokeGrant(client.app.id, grant.grant_id);
      throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
    }
    if (grant.expires_at <= this.now()) throw invalidGrant('The authorization code has expired');
    if (form.redirect_uri !== grant.redirect_uri)
      throw invalidGrant('redirect_uri does not match the authorization request');
    if (grant.code_challenge_method === 'plain' && !client.authenticated) {
      throw invalidGrant('A public client must use code_challenge_method S256');
    }
    if (grant.code_challenge !== null) {
      if (!verifierMatches(grant.code_challenge, grant.code_challenge_method ?? 'S256', form.code_verifier)) {
        throw invalidGrant('The code_verifier does not match the code_challenge');
      }
    } else if (!client.authenticated) {
      throw invalidGrant('A public client must use PKCE');
    }
    return this.issueUserTokens(client.app, grant, grant.nonce);
  }

  async refresh(client: TokenClient, form: Readonly<Record<string, string | undefined>>): Promise<AccessTokenResponse> {
    if (!form.refresh_token) throw new OAuth2Error(400, 'invalid_request', 'refresh_token is required');
    const redeemed = await this.store.redeemRefreshToken(client.app.id, form.refresh_token);
    if (!redeemed) throw invalidGrant('Invalid refresh token');
    const { grant } = redeemed;
    if (!redeemed.firstUse) {
      // A spent refresh token presented again: it was stolen, or its rotation was. Whoever holds
      // the newer token may be the thief, so the whole grant goes (OAuth 2.0 Security BCP §4.14.2).
      await this.store.revokeGrant(client.app.id, grant.grant_id);
      throw invalidGrant('The refresh token was already used; every token of its grant is revoked');
    }
    if (grant.expires_at <= this.now()) throw invalidGrant('Invalid refresh token');
    let scopes = grant.scopes;
    if (form.scope !== undefined && form.scope !== '') {
      const asked = parseScopes(form.scope);
      if ('unknown' in asked || !coversScopes(grant.scopes, asked.scopes)) {
        throw new OAuth2Error(400, 'invalid_scope', 'A refresh may only narrow the granted scopes');
      }
      scopes = asked.scopes;
    }
    return this.issueUserTokens(client.app, { ...grant, scopes }, null);
  }

  /** Scopes of a client-credentials request; throws invalid_scope for an unknown one or one a user must grant. */
  clientCredentialsScopes(scope: string | undefined): string[] {
    const reading = parseScopes(scope);
    if ('unknown' in reading)
      throw new OAuth2Error(400, 'invalid_scope', `The requested scope is invalid: ${reading.unknown}`);
    const refused = refusedClientCredentialsScope(reading.scopes);
    if (reading.scopes.length === 0 || refused !== undefined) {
      throw new OAuth2Error(400, 'invalid_scope', `The requested scope is invalid: ${refused ?? '(none)'}`);
    }
    return reading.scopes;
  }

  /** The first scope a client may not grant itself; undefined when all may be granted. */
  refusedScope(scopes: readonly string[]): string | undefined {
    return refusedClientCredentialsScope(scopes);
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

  private async issueUserTokens(
    app: StoredApplication,
    grant: Pick<AuthorizationGrant, 'grant_id' | 'user_id' | 'scopes'>,
    nonce: string | null,
  ): Promise<AccessTokenResponse> {
    const accessToken = randomBytes(24).toString('base64url');
    const refreshToken = randomBytes(24).toString('base64url');
    await this.store.putOAuth2Token({
      access_token: accessToken,
      user_id: grant.user_id,
      application_id: app.id,
      scopes: [...grant.scopes],
      expires_at: this.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
      grant_id: grant.grant_id,
    });
    await this.store.putRefreshToken(refreshToken, {
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
      const user = await this.store.getUser(grant.user_id);
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

  /**
   * Revokes the token if it is this app's: an access token alone, a refresh token with every token
   * of its grant (RFC 7009 §2.1); anything else is silently ignored.
   */
  async revoke(app: StoredApplication, token: string | undefined): Promise<void> {
    if (!token) return;
    const access = await this.store.findOAuth2Token(token);
    if (access && access.application_id === app.id) {
      await this.store.deleteOAuth2Token(token);
      return;
    }
    const refresh = await this.store.redeemRefreshToken(app.id, token);
    if (refresh) await this.store.revokeGrant(app.id, refresh.grant.grant_id);
  }

  /** `GET /oauth2/@me`: the token's application, scopes, expiry, and its user with `identify`. */
  async describeToken(token: IssuedToken): Promise<Record<string, unknown>> {
    const app = await this.store.getApplication(token.application_id);
    const user =
      token.user_id && token.scopes.includes(Scope.Identify) ? await this.store.getUser(token.user_id) : null;
    return {
      application: app && {
        id: app.id,
        name: app.name,
        icon: null,
        description: '',
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: app.keys.verifyKey,
        flags: app.flags,
      },
      scopes: token.scopes,
      expires: token.expires_at === null ? null : new Date(token.expires_at).toISOString(),
      ...(user ? { user: toWireCurrentUser(user) } : {}),
    };
  }

  /** The OpenID Connect userinfo of a token with `openid`; null when the token lacks it or has no user. */
  async userinfo(token: IssuedToken): Promise<Record<string, unknown> | null> {
    if (!token.scopes.includes(Scope.OpenId) || !token.user_id) return null;
    const user = await this.store.getUser(token.user_id);
    if (!user) return null;
    return { sub: user.id, preferred_username: user.username, locale: user.locale };
  }

  /** Whether a user authorized (installed) the app to their account: its user-installable commands follow them. */
  async userInstalled(applicationId: string, userId: string): Promise<boolean> {
    return (await this.store.getUserAuthorization(applicationId, userId))?.user_install ?? false;
  }
}
