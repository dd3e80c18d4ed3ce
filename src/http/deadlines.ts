/**
 * The deadline of each request's handling: when it passes, the client gets a v10 503 at once
 * (through the error handler) and the handler's work is let go. What the handler returns or throws
 * after that is dropped here, quietly: the answer was given (Fastify would otherwise log it, with
 * the URL, which can hold a token).
 *
 * Deadlines wait in one wheel (./deadline-wheel.ts), from the first hook to the reply's end: no
 * timer or AbortController per request (Fastify's `handlerTimeout` builds both, a close listener
 * and a DOMException at each close). An upload route's deadline is the outer bound of its body's
 * arrival and its handling: its body parsing (./multipart.ts) is told first when it passes, and
 * keeps its own deadline counted from the body's end.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { DeadlineWheel, type PendingDeadline } from './deadline-wheel.js';
import { HandlerDeadlineError } from './dependency-errors.js';
import { ADMIN_HANDLER_TIMEOUT_MS, type HttpTimeouts } from './limits.js';

/** Routes under this prefix (the admin API) get the longer deadline. */
const ADMIN_PREFIX = '/admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's handling deadline in the wheel (set on every route by `handlerDeadlines`). */
    deadlineMs?: number;
  }
  interface FastifyRequest {
    /** The request's place in the deadline wheel, until its answer has gone out. */
    deadline: PendingDeadline | null;
  }
}

/** Whether the deadline of `request` passed before its answer (then the answer was a 503). */
function pastDeadline(request: FastifyRequest): boolean {
  return request.deadline?.expired === true;
}

function dropLateOutcome(handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function deadlined(this: FastifyInstance, request, reply) {
    try {
      const result: unknown = await handler.call(this, request, reply);
      return reply.sent && pastDeadline(request) ? undefined : result;
    } catch (error) {
      if (reply.sent && pastDeadline(request)) return undefined;
      throw error;
    }
  };
}

/** What Fastify does when its `handlerTimeout` passes: a 503 unless the answer has started. */
function expire(request: FastifyRequest, reply: FastifyReply, deadlineMs: number): void {
  if (reply.sent || reply.raw.destroyed) return;
  const error = new HandlerDeadlineError(deadlineMs, request.routeOptions.url);
  if (reply.raw.headersSent) reply.raw.destroy(error);
  else void reply.send(error);
}

/** Every route's deadline (the admin API's and uploads' longer); before any route. */
export function handlerDeadlines(app: FastifyInstance, timeouts: HttpTimeouts): void {
  const admin = Math.max(ADMIN_HANDLER_TIMEOUT_MS, timeouts.handlerTimeoutMs);
  const upload = timeouts.requestTimeoutMs + timeouts.handlerTimeoutMs;
  const wheel = new DeadlineWheel();
  app.decorateRequest('deadline', null);
  app.addHook('onRoute', (route) => {
    const deadlineMs = route.url.startsWith(ADMIN_PREFIX)
      ? admin
      : route.config?.uploads === true
        ? upload
        : timeouts.handlerTimeoutMs;
    route.config = { ...route.config, deadlineMs };
    route.handler = dropLateOutcome(route.handler);
  });
  app.addHook('onRequest', (request, reply, done) => {
    const deadlineMs = request.routeOptions.config.deadlineMs ?? timeouts.handlerTimeoutMs;
    request.deadline = wheel.wait(deadlineMs, () => expire(request, reply, deadlineMs));
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.deadline) wheel.settle(request.deadline);
    done();
  });
  app.addHook('onClose', (_app, done) => {
    wheel.stop();
    done();
  });
}
