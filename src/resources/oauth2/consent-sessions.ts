/**
 * Who is signed in on the consent page (docs/decisions.md#oauth2-authorization-server): the user
 * pastes their world token once and gets a short-lived HttpOnly cookie naming them, signed with a
 * secret of the deployment (derived from the stored OIDC key, so every node and a restart accept
 * it). The cookie is bound to the user's current token: changing the token signs them out.
 * The Authorize form carries a token derived from the cookie (CSRF: a page of another origin can
 * neither read the cookie nor compute the token). The sign-in form, before any session, is bound
 * the same way to a cookie of its own (login CSRF: another origin cannot sign the browser in as
 * someone else).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { User } from '../../core/world/types.js';
import type { WorldStore } from '../../store/store.js';
import { tokenDigest } from '../../store/tokens.js';

/** How long a consent-page sign-in lasts (seconds). */
export const CONSENT_SESSION_TTL_SECONDS = 900;
/** Longest cookie value read (characters). */
const MAX_SESSION_LENGTH = 200;
/** How long a sign-in form may wait before it is posted (seconds); past it the page is shown again. */
export const SIGN_IN_FORM_TTL_SECONDS = 3600;
/** Random bytes of a sign-in form's cookie. */
const SIGN_IN_NONCE_BYTES = 18;

/** What binds a sign-in form to the browser that loaded it: a cookie, and the form's token derived from it. */
export interface SignInBinding {
  cookie: string;
  formToken: string;
}

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

  /**
   * The binding of a sign-in form: the browser's current one while it has at least half its time
   * left, else a new one (tabs opened together share one cookie, so each tab's form stays valid).
   */
  async signInBinding(cookie: string | undefined): Promise<SignInBinding> {
    const keep = cookie !== undefined && this.liveSignInCookie(cookie, (SIGN_IN_FORM_TTL_SECONDS / 2) * 1000);
    const current = keep ? cookie : this.newSignInCookie();
    return { cookie: current, formToken: await this.mac(`sign-in.${current}`) };
  }

  /** True when the sign-in form's token was derived from this browser's unexpired sign-in cookie. */
  async checkSignInToken(cookie: string | undefined, token: string | undefined): Promise<boolean> {
    if (cookie === undefined || token === undefined || !this.liveSignInCookie(cookie, 0)) return false;
    return sameText(token, await this.mac(`sign-in.${cookie}`));
  }

  private newSignInCookie(): string {
    const expires = Math.floor(this.now() / 1000) + SIGN_IN_FORM_TTL_SECONDS;
    return `${randomBytes(SIGN_IN_NONCE_BYTES).toString('base64url')}.${expires}`;
  }

  /** The cookie is one this server makes, with more than `marginMs` left before it expires. */
  private liveSignInCookie(cookie: string, marginMs: number): boolean {
    const match = /^[A-Za-z0-9_-]{24}\.(\d{1,12})$/.exec(cookie);
    return match !== null && Number(match[1]) * 1000 > this.now() + marginMs;
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
