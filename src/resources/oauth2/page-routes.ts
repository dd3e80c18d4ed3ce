/**
 * The browser side of OAuth2 (docs/oauth2.md): `GET /oauth2/authorize` (sign-in, then the consent
 * page), its form posts, and OpenID Connect discovery and the JWKS. Pages are server-rendered with
 * a strict CSP (no script, no frames: frame-ancestors 'none'); the sign-in form carries a token
 * bound to a cookie of the browser that loaded it, and the Authorize form one bound to the
 * session; a form posted from another site is refused. A bad client_id or redirect_uri is shown,
 * never redirected to.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationRequest } from './rules/authorize-request.js';
import { nullRecordFrom } from '../../core/records.js';
import { acceptFormBodies } from '../../http/form-body.js';
import type { ConsentSessions } from './consent-sessions.js';
import { CONSENT_SESSION_TTL_SECONDS, SIGN_IN_FORM_TTL_SECONDS } from './consent-sessions.js';
import type { AuthorizeOutcome, OAuth2Service } from './service.js';
import { OIDC_PATHS, type OidcService } from './oidc-service.js';
import { throttleCredential } from '../../http/credential-throttle.js';
import { CONSENT_CSS, consentPage, donePage, errorPage, signInPage } from './page-views.js';

export interface OAuth2PagesOptions {
  oauth2: OAuth2Service;
  oidc: OidcService;
  sessions: ConsentSessions;
}

/** The consent-page session cookie: only the authorization pages read it. */
export const SESSION_COOKIE = 'slashd_consent';
/** The cookie that binds a sign-in form to the browser that loaded it (login CSRF). */
export const SIGN_IN_COOKIE = 'slashd_sign_in';
/** Largest form body of the pages (bytes): a token and the authorize query. */
const PAGE_FORM_LIMIT_BYTES = 16 * 1024;
/** Longest authorize query carried through the forms (characters). */
const MAX_QUERY_LENGTH = 8 * 1024;

type Form = Record<string, string | undefined>;

/** Where a page's form may send the browser: slashd, and the client's redirect URI (CSP form-action covers redirects). */
function csp(redirectUri: string | null): string {
  let target = '';
  if (redirectUri) {
    try {
      const url = new URL(redirectUri);
      target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
    } catch {
      target = '';
    }
  }
  return [
    "default-src 'none'",
    "style-src 'self'",
    `form-action 'self'${target}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function sendPage(reply: FastifyReply, status: number, html: string, redirectUri: string | null = null): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', csp(redirectUri))
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A form posted from a page of another site, as the browser tells (Fetch Metadata): refused
 * before anything else. Browsers without the header are held by the forms' tokens alone.
 */
function postedFromAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/**
 * The authorize query as the sign-in answer's `Location` carries it: parsed and written again, so
 * every character is percent-encoded (a CR, LF or U+2028 in the form's field would make the header
 * invalid) and the authorize endpoint reads the same parameters.
 */
export function locationQuery(query: string): string {
  return new URLSearchParams(query).toString();
}

/** The raw query string of the request URL. */
function rawQuery(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at === -1 ? '' : request.url.slice(at + 1);
}

function queryRecord(text: string): Form {
  return nullRecordFrom(new URLSearchParams(text));
}

export async function oauth2PageRoutes(
  app: FastifyInstance,
  { oauth2, oidc, sessions }: OAuth2PagesOptions,
): Promise<void> {
  acceptFormBodies(app);

  const secureCookie = () => oidc.issuer.url().startsWith('https:');

  const finish = (reply: FastifyReply, outcome: AuthorizeOutcome, request: AuthorizationRequest): FastifyReply =>
    'redirect' in outcome
      ? reply.code(303).header('cache-control', 'no-store').header('location', outcome.redirect).send()
      : sendPage(reply, 200, donePage(outcome.done), request.redirectUri);

  /** The sign-in page, its form bound to this browser's sign-in cookie (set or kept). */
  async function sendSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    query: string,
    problem: string | null,
  ): Promise<FastifyReply> {
    const binding = await sessions.signInBinding(readCookie(request, SIGN_IN_COOKIE));
    const cookie = [
      `${SIGN_IN_COOKIE}=${binding.cookie}`,
      'Path=/oauth2/authorize',
      'HttpOnly',
      'SameSite=Strict',
      `Max-Age=${SIGN_IN_FORM_TTL_SECONDS}`,
      ...(secureCookie() ? ['Secure'] : []),
    ].join('; ');
    reply.header('set-cookie', cookie);
    return sendPage(reply, status, signInPage(query, binding.formToken, problem, await sessions.sandboxUsers()));
  }

  /**
   * Reads the authorize query; answers the request itself (error page, redirect with the error)
   * and returns null when the query is refused.
   */
  async function readRequest(query: string, reply: FastifyReply): Promise<AuthorizationRequest | null> {
    if (query.length > MAX_QUERY_LENGTH) {
      await sendPage(reply, 400, errorPage('The authorization request is too long.'));
      return null;
    }
    const reading = await oauth2.authorization.read(queryRecord(query));
    if (reading.kind === 'show') {
      await sendPage(reply, 400, errorPage(reading.message));
      return null;
    }
    if (reading.kind === 'redirect') {
      const url = new URL(reading.redirectUri);
      url.searchParams.append('error', reading.error);
      url.searchParams.append('error_description', reading.description);
      if (reading.state !== undefined) url.searchParams.append('state', reading.state);
      await reply.code(302).header('location', url.toString()).send();
      return null;
    }
    return reading.request;
  }

  app.get('/oauth2/authorize', async (request, reply) => {
    const query = rawQuery(request);
    const authorization = await readRequest(query, reply);
    if (!authorization) return reply;
    const session = readCookie(request, SESSION_COOKIE);
    const user = await sessions.userOf(session);
    if (authorization.prompt === 'none')
      return finish(reply, await oauth2.authorization.silentOutcome(authorization, user), authorization);
    if (!user || !session) return sendSignIn(request, reply, 200, query, null);
    const view = await oauth2.authorization.consentView(authorization, user);
    return sendPage(
      reply,
      200,
      consentPage(view, user.username, query, await sessions.formToken(session)),
      authorization.redirectUri,
    );
  });

  app.post<{ Body: Form }>(
    '/oauth2/authorize/sign-in',
    { bodyLimit: PAGE_FORM_LIMIT_BYTES },
    async (request, reply) => {
      const form = request.body ?? {};
      const query = form.query ?? '';
      if (query.length > MAX_QUERY_LENGTH)
        return sendPage(reply, 400, errorPage('The authorization request is too long.'));
      // Login CSRF: only the form this browser loaded may sign it in, whoever's token it carries.
      const bound = await sessions.checkSignInToken(readCookie(request, SIGN_IN_COOKIE), form.sign_in_token);
      if (postedFromAnotherSite(request) || !bound) {
        return sendSignIn(request, reply, 403, query, 'This form did not come from this page; sign in again.');
      }
      const checked = await throttleCredential(request, () => sessions.signIn(form.token ?? ''));
      if (checked.throttled) {
        const seconds = Math.ceil(checked.throttled.retryAfterMs / 1000);
        reply.header('retry-after', String(seconds));
        const message = `Too many failed sign-ins from your address: try again in ${seconds} s.`;
        return sendSignIn(request, reply, 429, query, message);
      }
      const signedIn = checked.found;
      if (!signedIn) return sendSignIn(request, reply, 401, query, 'No user has this token.');
      const cookie = [
        `${SESSION_COOKIE}=${signedIn.session}`,
        'Path=/oauth2',
        'HttpOnly',
        'SameSite=Lax',
        `Max-Age=${CONSENT_SESSION_TTL_SECONDS}`,
        ...(secureCookie() ? ['Secure'] : []),
      ].join('; ');
      return reply
        .code(303)
        .header('set-cookie', cookie)
        .header('cache-control', 'no-store')
        .header('location', `/oauth2/authorize?${locationQuery(query)}`)
        .send();
    },
  );

  app.post<{ Body: Form }>('/oauth2/authorize', { bodyLimit: PAGE_FORM_LIMIT_BYTES }, async (request, reply) => {
    const form = request.body ?? {};
    // The request is read again from what the form carried: nothing of the page is trusted.
    const authorization = await readRequest(form.query ?? '', reply);
    if (!authorization) return reply;
    const session = readCookie(request, SESSION_COOKIE);
    const user = await sessions.userOf(session);
    if (!user || !session) return sendSignIn(request, reply, 401, form.query ?? '', 'Your sign-in has expired.');
    if (postedFromAnotherSite(request) || !(await sessions.checkFormToken(session, form.form_token))) {
      return sendPage(reply, 403, errorPage('This form did not come from this page; reload it and try again.'));
    }
    if (form.decision === 'authorize') {
      return finish(
        reply,
        await oauth2.authorization.approve(authorization, user, form.guild_id ?? null),
        authorization,
      );
    }
    return finish(reply, oauth2.authorization.deny(authorization), authorization);
  });

  app.get('/oauth2/consent.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CONSENT_CSS),
  );

  app.get(OIDC_PATHS.discovery, async (_request, reply) =>
    reply.header('access-control-allow-origin', '*').send(oidc.discovery()),
  );
  app.get(OIDC_PATHS.jwks, async (_request, reply) =>
    reply
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=3600')
      .send(await oidc.jwks()),
  );
}
