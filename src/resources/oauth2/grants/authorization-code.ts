/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3): a code from the consent page, once, before it
 * expires, with the redirect URI it was issued for and the verifier of its PKCE challenge (RFC 7636;
 * required of a public client, and with S256).
 */
import { verifierMatches } from '../rules/pkce.js';
import { invalidGrant, invalidRequest } from '../oauth2-error.js';
import type { Grant } from './grant.js';

export const authorizationCodeGrant: Grant = async ({ store, now, tokens }, client, form) => {
  if (!form.code) throw invalidRequest('code is required');
  const redeemed = await store.redeemAuthorizationCode(client.app.id, form.code);
  if (!redeemed) throw invalidGrant('Invalid authorization code');
  const { grant } = redeemed;
  if (!redeemed.firstUse) {
    // A code used twice was stolen or replayed: every token issued from it goes (RFC 6749 §4.1.2).
    await store.revokeGrant(client.app.id, grant.grant_id);
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  if (grant.expires_at <= now()) throw invalidGrant('The authorization code has expired');
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
  return tokens.issueUserTokens(client.app, grant, grant.nonce);
};
