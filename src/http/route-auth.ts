/**
 * Authentication before the body is read: Fastify runs onRequest hooks before it parses a body,
 * so a route that declares `config: { auth }` refuses a caller without a fitting token before a
 * byte of an upload is buffered. The handlers keep their own checks (who may do what); this hook
 * only moves the 401 they would give anyway to the front.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/io/errors.js';
import type { Store } from '../store/store.js';
import { authenticate, type Principal } from './auth.js';

/** Who a route admits at all: a client user, an app (bot or bearer), only a bot, or any token. */
export type RouteAuth = 'user' | 'app' | 'bot' | 'any';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

export function admits(auth: RouteAuth, principal: Principal | null): boolean {
  if (!principal) return false;
  switch (auth) {
    case 'user':
      return principal.kind === 'user';
    case 'app':
      return principal.kind !== 'user';
    case 'bot':
      return principal.kind === 'bot';
    case 'any':
      return true;
  }
}

/** Adds the hook to `app` and every plugin registered under it after this call. */
export function authenticateBeforeBody(app: FastifyInstance, store: Store): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.routeOptions.config?.auth;
    if (auth === undefined) return;
    if (admits(auth, await authenticate(store, request.headers.authorization))) return;
    // The unread body is not drained: the connection closes once the 401 is sent.
    reply.header('connection', 'close');
    throw apiError('Unauthorized');
  });
}
