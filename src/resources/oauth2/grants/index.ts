/** The grants of the token endpoint by `grant_type`, and the dispatch to one of them. */
import { unsupportedGrantType } from '../oauth2-error.js';
import type { TokenClient } from '../clients.js';
import type { AccessTokenResponse } from '../tokens.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { Grant, GrantContext, TokenForm } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';

export type { Grant, GrantContext, GrantStore, TokenForm } from './grant.js';

/** Keyed by what the client sends: a Map, so `grant_type=__proto__` names no grant. */
export const GRANTS: ReadonlyMap<string, Grant> = new Map([
  ['authorization_code', authorizationCodeGrant],
  ['refresh_token', refreshTokenGrant],
  ['client_credentials', clientCredentialsGrant],
]);

/** The token response of the form's `grant_type`; unsupported_grant_type for any other. */
export async function grantTokens(
  context: GrantContext,
  client: TokenClient,
  form: TokenForm,
): Promise<AccessTokenResponse> {
  const grant = form.grant_type === undefined ? undefined : GRANTS.get(form.grant_type);
  if (!grant) throw unsupportedGrantType(form.grant_type);
  return grant(context, client, form);
}
