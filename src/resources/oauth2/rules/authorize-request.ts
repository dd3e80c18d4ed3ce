/**
 * The query of `GET /oauth2/authorize`, read in the order RFC 6749 §4.1.2.1 asks: a bad client or
 * redirect URI is shown to the user and never redirected to (it could be an attacker's); every
 * other problem goes back to the (verified) redirect URI as `error` and `state`.
 */
import { ApplicationIntegrationType } from 'discord-api-types/v10';
import type { Application } from '../../../core/world/types.js';
import { isSnowflake } from '../../../core/snowflake.js';
import { readChallengeMethod, isWellFormedChallenge, type CodeChallengeMethod } from './pkce.js';
import { grantsToken, installsApp, parseScopes, Scope } from './scopes.js';
import { matchRedirectUri } from './redirect.js';
import { readPermissionsParam } from './install.js';

/** Longest `state` and `nonce` echoed back (characters). */
export const MAX_STATE_LENGTH = 1000;

export type AuthorizeQuery = Readonly<Record<string, string | undefined>>;

/** A request the consent page may show: everything checked but the user's choice. */
export interface AuthorizationRequest {
  clientId: string;
  /** null: an install-only request without a redirect (the page says it is done). */
  redirectUri: string | null;
  scopes: string[];
  state: string | undefined;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: CodeChallengeMethod | null;
  prompt: 'consent' | 'none' | null;
  integrationType: 0 | 1;
  guildId: string | null;
  disableGuildSelect: boolean;
  permissions: string | null;
}

export type AuthorizeReading =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Shown on the page: the client or the redirect URI cannot be trusted. */
  | { kind: 'show'; message: string }
  /** Sent back to the redirect URI. */
  | { kind: 'redirect'; redirectUri: string; error: string; description: string; state: string | undefined };

/** The client id the query names, when it is one (the app is looked up before `checkAuthorizeQuery`). */
export function clientIdOf(query: AuthorizeQuery): string | null {
  const id = query.client_id;
  return id !== undefined && isSnowflake(id) ? id : null;
}

export function checkAuthorizeQuery(app: Application | null, query: AuthorizeQuery): AuthorizeReading {
  if (!app) return { kind: 'show', message: 'Unknown application (client_id).' };
  const scopeReading = parseScopes(query.scope);
  const scopes = 'scopes' in scopeReading ? scopeReading.scopes : [];
  const installOnly = 'scopes' in scopeReading && scopes.length > 0 && !grantsToken(scopes);
  const redirectUri = matchRedirectUri(app.redirect_uris, query.redirect_uri);
  if (redirectUri === null && !(installOnly && !query.redirect_uri)) {
    return { kind: 'show', message: 'This redirect_uri is not registered for the application.' };
  }
  const state = query.state;
  const refuse = (error: string, description: string): AuthorizeReading =>
    redirectUri === null
      ? { kind: 'show', message: description }
      : { kind: 'redirect', redirectUri, error, description, state };
  if (state !== undefined && state.length > MAX_STATE_LENGTH) return refuse('invalid_request', 'state is too long');
  if ('unknown' in scopeReading) return refuse('invalid_scope', `Unknown scope: ${scopeReading.unknown}`);
  if (scopes.length === 0) return refuse('invalid_scope', 'No scope was requested');
  if (!installOnly && query.response_type !== 'code') {
    return refuse('unsupported_response_type', 'response_type must be code');
  }
  const codeChallenge = query.code_challenge ?? null;
  const method = codeChallenge === null ? null : readChallengeMethod(query.code_challenge_method);
  if (codeChallenge !== null && (method === null || !isWellFormedChallenge(codeChallenge, method))) {
    return refuse('invalid_request', 'code_challenge or code_challenge_method is invalid');
  }
  if (app.public_client && codeChallenge === null && grantsToken(scopes)) {
    return refuse('invalid_request', 'A public client must send a PKCE code_challenge');
  }
  // A plain challenge is the verifier itself: once it leaks (a log, the browser history) it protects
  // nothing, and a public client has no secret to fall back on (docs/decisions.md).
  if (app.public_client && method === 'plain') {
    return refuse('invalid_request', 'A public client must use code_challenge_method S256');
  }
  const nonce = query.nonce ?? null;
  if (nonce !== null && nonce.length > MAX_STATE_LENGTH) return refuse('invalid_request', 'nonce is too long');
  const prompt = query.prompt === undefined || query.prompt === '' ? null : query.prompt;
  if (prompt !== null && prompt !== 'consent' && prompt !== 'none') return refuse('invalid_request', 'Unknown prompt');
  const integrationType =
    query.integration_type === undefined || query.integration_type === '' ? 0 : Number(query.integration_type);
  if (
    integrationType !== ApplicationIntegrationType.GuildInstall &&
    integrationType !== ApplicationIntegrationType.UserInstall
  ) {
    return refuse('invalid_request', 'integration_type must be 0 or 1');
  }
  if (installsApp(scopes) && !app.integration_types.includes(integrationType)) {
    return refuse('invalid_request', 'The application does not support this integration_type');
  }
  if (integrationType === ApplicationIntegrationType.UserInstall && scopes.includes(Scope.Bot)) {
    return refuse('invalid_scope', 'The bot scope installs to a guild, not to a user (integration_type 1)');
  }
  const guildId = query.guild_id === undefined || query.guild_id === '' ? null : query.guild_id;
  if (guildId !== null && !isSnowflake(guildId)) return refuse('invalid_request', 'guild_id is not a snowflake');
  const permissions = readPermissionsParam(query.permissions);
  if (permissions === undefined) return refuse('invalid_request', 'permissions is not a permission bit set');
  return {
    kind: 'ok',
    request: {
      clientId: app.id,
      redirectUri,
      scopes,
      state,
      nonce,
      codeChallenge,
      codeChallengeMethod: method,
      prompt,
      integrationType,
      guildId,
      disableGuildSelect: query.disable_guild_select === 'true',
      permissions,
    },
  };
}
