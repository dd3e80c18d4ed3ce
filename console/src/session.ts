/** Who is signed in, kept for this tab only (sessionStorage): a token never outlives the tab. */
import { createApi, type Api } from './api';
import type { SignedInUser } from './types';

export interface Session {
  api: Api;
  user: SignedInUser;
}

const TOKEN_KEY = 'slashd.console.token';

export async function signIn(token: string): Promise<Session> {
  const user = (await createApi(token).get('/users/@me')) as SignedInUser;
  sessionStorage.setItem(TOKEN_KEY, token);
  return { api: createApi(token, user.locale), user };
}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
