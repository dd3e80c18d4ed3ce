/** Who is signed in, kept for this tab only (sessionStorage): a token never outlives the tab. */
import { createApi, type Api } from './api';
import type { SignedInUser } from './types';

export interface Session {
  api: Api;
  user: SignedInUser;
  /**
   * The interactions used since this sign-in: their ephemeral answers are shown, others' never
   * are, and none come back after signing in again (as v10 clients lose them on reload).
   */
  interactions: Set<string>;
}

const TOKEN_KEY = 'slashd.console.token';

export async function signIn(token: string): Promise<Session> {
  const user = (await createApi(token).get('/users/@me')) as SignedInUser;
  sessionStorage.setItem(TOKEN_KEY, token);
  return { api: createApi(token, user.locale), user, interactions: new Set() };
}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
