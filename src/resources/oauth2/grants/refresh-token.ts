/**
 * `grant_type=refresh_token` (RFC 6749 §6): a refresh token is spent on use and a new one issued
 * (rotation); a spent one presented again revokes its whole grant. `scope` may only narrow.
 */
import { coversScopes, parseScopes } from '../rules/scopes.js';
import { invalidGrant, invalidRequest, invalidScope } from '../oauth2-error.js';
import type { Grant } from './grant.js';

export const refreshTokenGrant: Grant = async ({ store, now, tokens }, client, form) => {
  if (!form.refresh_token) throw invalidRequest('refresh_token is required');
  const redeemed = await store.redeemRefreshToken(client.app.id, form.refresh_token);
  if (!redeemed) throw invalidGrant('Invalid refresh token');
  const { grant } = redeemed;
  if (!redeemed.firstUse) {
    // A spent refresh token presented again: it was stolen, or its rotation was. Whoever holds
    // the newer token may be the thief, so the whole grant goes (OAuth 2.0 Security BCP §4.14.2).
    await store.revokeGrant(client.app.id, grant.grant_id);
    throw invalidGrant('The refresh token was already used; every token of its grant is revoked');
  }
  if (grant.expires_at <= now()) throw invalidGrant('Invalid refresh token');
  let scopes = grant.scopes;
  if (form.scope !== undefined && form.scope !== '') {
    const asked = parseScopes(form.scope);
    if ('unknown' in asked || !coversScopes(grant.scopes, asked.scopes)) {
      throw invalidScope('A refresh may only narrow the granted scopes');
    }
    scopes = asked.scopes;
  }
  return tokens.issueUserTokens(client.app, { ...grant, scopes }, null);
};
