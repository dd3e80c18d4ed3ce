/**
 * Who is calling: a bot (`Bot <token>`), an OAuth2 bearer (`Bearer <token>`), or a user of the
 * client (`<token>` with no prefix). Lookups go through the store, which compares in constant time.
 */
import { apiError } from '../core/io/errors.js';
import type { User } from '../core/world/types.js';
import type { IssuedToken, Store, StoredApplication } from '../store/store.js';

export type Principal =
  | { kind: 'bot'; app: StoredApplication }
  /** `user` is the token's user, or for a client-credentials token the app's owner. */
  | { kind: 'bearer'; app: StoredApplication; token: IssuedToken; user: User | null }
  | { kind: 'user'; user: User };

export const SCOPE_COMMANDS_UPDATE = 'applications.commands.update';
export const SCOPE_PERMISSIONS_UPDATE = 'applications.commands.permissions.update';

export async function authenticate(store: Store, header: string | undefined): Promise<Principal | null> {
  if (!header) return null;
  const space = header.indexOf(' ');
  const scheme = space === -1 ? '' : header.slice(0, space).toLowerCase();
  const secret = space === -1 ? header : header.slice(space + 1).trim();
  if (!secret) return null;
  if (scheme === 'bot') {
    const app = await store.findApplicationByBotToken(secret);
    return app ? { kind: 'bot', app } : null;
  }
  if (scheme === 'bearer') {
    const token = await store.findOAuth2Token(secret);
    if (!token) return null;
    const app = await store.getApplication(token.application_id);
    if (!app) return null;
    const user = await store.getUser(token.user_id ?? app.owner_id);
    return { kind: 'bearer', app, token, user };
  }
  if (space !== -1) return null;
  const user = await store.findUserByToken(secret);
  return user ? { kind: 'user', user } : null;
}

/**
 * The app a command endpoint acts for: the caller must be that app's bot, or a bearer token of
 * that app with `applications.commands.update`. Another app's token learns nothing of this one.
 */
export function requireCommandsCaller(
  principal: Principal | null,
  applicationId: string,
): { app: StoredApplication; principal: Exclude<Principal, { kind: 'user' }> } {
  if (!principal || principal.kind === 'user') throw apiError('Unauthorized');
  if (principal.app.id !== applicationId) throw apiError('NotAuthorizedForApplication');
  if (principal.kind === 'bearer' && !principal.token.scopes.includes(SCOPE_COMMANDS_UPDATE))
    throw apiError('MissingOAuth2Scope');
  return { app: principal.app, principal };
}
