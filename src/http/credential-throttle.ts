/**
 * The failed-credential throttle at the HTTP edge (docs/security.md#failed-credentials): every
 * place that checks a secret a client presents (the authentication hook, the admin and metrics
 * tokens, the OAuth2 client secret, the sign-in form) runs the check through `checkCredential`,
 * which refuses a throttled address with v10's 429 before the answer could tell a right guess
 * from a wrong one. The address is `request.ip`: the connection's, or with `--trust-proxy` the
 * client's as the trusted proxies forwarded it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Throttled } from '../core/rate-limits/failures.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import { carriesBody } from './empty-body.js';
import { rateLimitRefusal } from './rate-limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The failed-credential throttle; null when it is off. */
    credentialThrottle: CredentialThrottle | null;
  }
}

/** Makes the throttle (or none) reachable from every route of `app`; call before routes are registered. */
export function credentialThrottling(app: FastifyInstance, throttle: CredentialThrottle | null): void {
  app.decorate('credentialThrottle', throttle);
}

/**
 * v10's 429 for a throttled address: every credential from it is refused, so it is global (a
 * client waits before any request, as it does for v10's global limit). A body is left unread, so
 * a request that carries one has its connection closed once the answer is sent; a request without
 * one keeps its connection: reconnecting would make the refusal cost the server more than a
 * success (docs/benchmarks.md, issue 27).
 */
export function throttledRefusal(reply: FastifyReply, throttled: Throttled): Error {
  if (carriesBody(reply.request)) reply.header('connection', 'close');
  return rateLimitRefusal(reply, '', {
    allowed: false,
    scope: 'global',
    retryAfterMs: throttled.retryAfterMs,
    bucket: null,
  });
}

/** What a credential check found: the check's result, or the throttle's refusal instead. */
export type CheckedCredential<T> = { throttled: null; found: T | null } | { throttled: Throttled; found: null };

/**
 * Runs `check` (a lookup of the presented secret; null when it is wrong) under the throttle: a
 * throttled address is refused without a lookup, a failure is counted, and a success from an
 * address that is over its limit (on any node) is refused too.
 */
export async function throttleCredential<T>(
  request: FastifyRequest,
  check: () => Promise<T | null> | T | null,
): Promise<CheckedCredential<T>> {
  const throttle = request.server.credentialThrottle;
  if (throttle === null) return { throttled: null, found: await check() };
  const before = throttle.before(request.ip);
  if (before) return { throttled: before, found: null };
  const found = await check();
  const after = await throttle.after(request.ip, found !== null);
  return after ? { throttled: after, found: null } : { throttled: null, found };
}

/** `throttleCredential` for a route that answers in v10's shape: a throttled address gets the 429 thrown. */
export async function checkCredential<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  check: () => Promise<T | null> | T | null,
): Promise<T | null> {
  const checked = await throttleCredential(request, check);
  if (checked.throttled) throw throttledRefusal(reply, checked.throttled);
  return checked.found;
}
