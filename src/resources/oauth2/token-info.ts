/**
 * What a Bearer token says about itself: `GET /oauth2/@me` (its application, scopes, expiry, and
 * with `identify` its user) and OpenID Connect's userinfo (with `openid`).
 */
import { Scope } from './rules/scopes.js';
import { toWireCurrentUser } from '../../core/world/wire.js';
import type { IssuedToken, WorldStore } from '../../store/store.js';
import { insufficientScope } from './oauth2-error.js';

export type TokenInfoStore = Pick<WorldStore, 'getApplication' | 'getUser'>;

export class TokenInfo {
  constructor(private readonly store: TokenInfoStore) {}

  /** `GET /oauth2/@me`: the token's application, scopes, expiry, and its user with `identify`. */
  async describe(token: IssuedToken): Promise<Record<string, unknown>> {
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

  /**
   * The OpenID Connect userinfo of a token with `openid` and a user; insufficient_scope for
   * anything else (a bot, a token without `openid` or without a user).
   */
  async userinfo(token: IssuedToken | null): Promise<Record<string, unknown>> {
    const user = token?.user_id && token.scopes.includes(Scope.OpenId) ? await this.store.getUser(token.user_id) : null;
    if (!user) throw insufficientScope(Scope.OpenId, 'The token lacks the openid scope');
    return { sub: user.id, preferred_username: user.username, locale: user.locale };
  }
}
