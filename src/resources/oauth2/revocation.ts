/** Token revocation (RFC 7009): an access token alone, or a refresh token with every token of its grant. */
import type { OAuth2GrantStore, StoredApplication, WorldStore } from '../../store/store.js';

/** Access tokens (`world`), refresh tokens and their grants (`grants`). */
export interface RevocationStore {
  readonly world: Pick<WorldStore, 'findOAuth2Token' | 'deleteOAuth2Token'>;
  readonly grants: Pick<OAuth2GrantStore, 'redeemRefreshToken' | 'revokeGrant'>;
}

/** Revokes the token if it is this app's (RFC 7009 §2.1); anything else is silently ignored. */
export async function revokeToken(
  store: RevocationStore,
  app: StoredApplication,
  token: string | undefined,
): Promise<void> {
  if (!token) return;
  const access = await store.world.findOAuth2Token(token);
  if (access && access.application_id === app.id) {
    await store.world.deleteOAuth2Token(token);
    return;
  }
  const refresh = await store.grants.redeemRefreshToken(app.id, token);
  if (refresh) await store.grants.revokeGrant(app.id, refresh.grant.grant_id);
}
