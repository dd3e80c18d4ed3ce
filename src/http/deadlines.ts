/**
 * The deadline of each request's handling (Fastify's `handlerTimeout`, set in ./limits.ts): when
 * it passes, the client gets a v10 503 at once (through the error handler) and the handler's work
 * is let go. What the handler returns or throws after that is dropped here, quietly: the answer was
 * given (Fastify would otherwise log it, with the URL, which can hold a token). An upload route's
 * own deadline counts from its body's end (./multipart.ts): a slow body is bounded by its progress,
 * so Fastify's deadline there is only the outer bound of the two together.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { ADMIN_HANDLER_TIMEOUT_MS, type HttpTimeouts } from './limits.js';

/** Routes under this prefix (the admin API) get the longer deadline. */
const ADMIN_PREFIX = '/admin';

function dropLateOutcome(handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function deadlined(this: FastifyInstance, request, reply) {
    try {
      const result: unknown = await handler.call(this, request, reply);
      return reply.sent && request.signal.aborted ? undefined : result;
    } catch (error) {
      if (reply.sent && request.signal.aborted) return undefined;
      throw error;
    }
  };
}

/** Gives the admin API its longer deadline and drops what handlers produce past theirs; before any route. */
export function handlerDeadlines(app: FastifyInstance, timeouts: HttpTimeouts): void {
  const admin = Math.max(ADMIN_HANDLER_TIMEOUT_MS, timeouts.handlerTimeoutMs);
  const upload = timeouts.requestTimeoutMs + timeouts.handlerTimeoutMs;
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(ADMIN_PREFIX)) route.handlerTimeout ??= admin;
    else if (route.config?.uploads === true) route.handlerTimeout ??= upload;
    route.handler = dropLateOutcome(route.handler);
  });
}
