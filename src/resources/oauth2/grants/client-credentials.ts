/**
 * `grant_type=client_credentials` (RFC 6749 §4.4): a token for the app itself. Only a client that
 * proved itself with its secret may ask (a public client has none to prove), and only for scopes a
 * client may grant itself (`CLIENT_CREDENTIALS_SCOPES`, docs/decisions.md).
 */
import { parseScopes, refusedClientCredentialsScope } from '../rules/scopes.js';
import { invalidClient, invalidScope } from '../oauth2-error.js';
import type { Grant } from './grant.js';

/** The scopes of the request; invalid_scope for none, an unknown one, or one a user must grant. */
function clientCredentialsScopes(scope: string | undefined): string[] {
  const reading = parseScopes(scope);
  if ('unknown' in reading) throw invalidScope(`The requested scope is invalid: ${reading.unknown}`);
  const refused = refusedClientCredentialsScope(reading.scopes);
  if (reading.scopes.length === 0 || refused !== undefined) {
    throw invalidScope(`The requested scope is invalid: ${refused ?? '(none)'}`);
  }
  return reading.scopes;
}

export const clientCredentialsGrant: Grant = async ({ tokens }, client, form) => {
  if (!client.authenticated) throw invalidClient();
  return tokens.issueAppToken(client.app, clientCredentialsScopes(form.scope));
};
