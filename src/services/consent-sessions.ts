/**
 * Who is signed in on the consent page (docs/decisions.md#oauth2-authorization-server): the user
 * pastes their world token once and gets a short-lived HttpOnly cookie naming them, signed with a
 * secret of the deployment (derived from the stored OIDC key, so every node and a restart accept
 * it). The cookie is bound to the user's current token: changing the token signs them out.
 * The Authorize form carries a token derived from the cookie (CSRF: a page of another origin can
 * neither read the cookie nor compute the token).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { User } from '../core/world/types.js';
import type { WorldStore } from '../store/store.js';
import { tokenDigest } from '../store/tokens.js';

/** How long a consent-page sign-in lasts (seconds). */
export const CONSENT_SESSION_TTL_SECONDS = 900;
/** Longest cookie value read (characters). */
const MAX_SESSION_LENGTH = 200;

export class ConsentSessions {
  constructor(
    private readonly users: Pick<WorldStore, 'findUserByToken' | 'getUser' | 'listUsers'>,
    private readonly secret: () => Promise<Buffer>,
    private readonly now: () => number,
    /** The sandbox (`--demo`): the sign-in page lists the world's users to pick from. */
    private readonly sandbox = false,
  ) {}

  /** The users the sign-in page offers (the sandbox only; their tokens are on the page); empty otherwise. */
  async sandboxUsers(): Promise<{ username: string; token: string }[]> {
    if (!this.sandbox) return [];
    return (await this.users.listUsers()).map((u) => ({ username: u.username, token: u.token }));
  }

  /** A session for the holder of this user token; null when no user has it. */
  async signIn(userToken: string): Promise<{ session: string; user: User } | null> {
    const user = userToken ? await this.users.findUserByToken(userToken) : null;
    if (!user) return null;
    const expires = Math.floor(this.now() / 1000) + CONSENT_SESSION_TTL_SECONDS;
    const body = `${user.id}.${expires}`;
    return { session: `${body}.${await this.mac(`${body}.${tokenDigest(user.token)}`)}`, user };
  }

  /** The signed-in user of a session cookie; null when it is missing, forged, expired, or the user's token changed. */
  async userOf(session: string | undefined): Promise<User | null> {
    if (!session || session.length > MAX_SESSION_LENGTH) return null;
    const [userId, expires, mac] = session.split('.');
    if (!userId || !expires || !mac || !/^\d+$/.test(expires)) return null;
    if (Number(expires) * 1000 <= this.now()) return null;
    const user = await this.users.getUser(userId);
    if (!user) return null;
    return sameText(mac, await this.mac(`${userId}.${expires}.${tokenDigest(user.token)}`)) ? user : null;
  }

  /** The Authorize form's anti-CSRF token for this session. */
  async formToken(session: string): Promise<string> {
    return this.mac(`form.${session}`);
  }

  async checkFormToken(session: string, token: string | undefined): Promise<boolean> {
    return token !== undefined && sameText(token, await this.formToken(session));
  }

  private async mac(text: string): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(text)
      .digest('base64url');
  }
}

function sameText(a: string, b: string): boolean {
  const da = Buffer.from(a);
  const db = Buffer.from(b);
  return da.length === db.length && timingSafeEqual(da, db);
}
