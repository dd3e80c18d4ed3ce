/**
 * Who is calling: a bot (`Bot <token>`), an OAuth2 bearer (`Bearer <token>`), or a user of the
 * client (`<token>` with no prefix), from the Authorization header. Lookups go through the store,
 * which compares in constant time. Called only by the authentication hook
 * (src/http/authentication.ts), once per request (a lint rule, `ONE_WAY` in eslint.config.js).
 */
import type { User } from '../../core/world/types.js';
import type { IssuedToken, StoredApplication, WorldStore } from '../../store/store.js';

export type Principal =
  | { kind: 'bot'; app: StoredApplication }
  /** `user` is the token's user, or for a client-credentials token the app's owner. */
  | { kind: 'bearer'; app: StoredApplication; token: IssuedToken; user: User | null }
  | { kind: 'user'; user: User };

/** The store reads a token lookup needs, and nothing else. */
export type PrincipalStore = Pick<
  WorldStore,
  'findApplicationByBotToken' | 'findOAuth2Token' | 'getApplication' | 'getUser' | 'findUserByToken'
>;

export async function authenticate(store: PrincipalStore, header: string | undefined): Promise<Principal | null> {
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
