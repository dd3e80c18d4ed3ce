/**
 * Authentication, once per request and before the body is read. A route that declares a guard
 * (./guards.ts) gets this module's hook first in its onRequest hooks: it looks the token up and
 * sets `request.principal`, which every guard and handler then reads. Fastify runs onRequest hooks
 * before it parses a body, so a refused caller is answered 401 before a byte of an upload is
 * buffered. Routes without guards (webhooks and callbacks, whose credential is in the path; OAuth2
 * client authentication; the admin API) are never looked up. A presented token is looked up under
 * the failed-credential throttle (./credential-throttle.ts): an address that has failed too often
 * gets 429 here, before any guard.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Guild } from '../core/world/types.js';
import { authenticate, type Principal, type PrincipalStore } from '../resources/applications/principal-lookup.js';
import { checkCredential } from './credential-throttle.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set by the authentication hook on routes with guards; null elsewhere or without a valid token. */
    principal: Principal | null;
    /** The path's guild, once `requireAppInGuild` has found the app installed there; null before. */
    guild: Guild | null;
  }
}

/** Hooks that read `request.principal`; a route that declares one is authenticated first. */
const principalGuards = new WeakSet<object>();

/** Marks `hook` as a guard: every route that declares it is authenticated before it runs. */
export function guard<T extends object>(hook: T): T {
  principalGuards.add(hook);
  return hook;
}

type Hooks = RouteOptions['onRequest'];

function hookList(hooks: Hooks): unknown[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function declaresGuard(route: RouteOptions): boolean {
  return [route.onRequest, route.preValidation, route.preHandler]
    .flatMap((hooks) => hookList(hooks))
    .some((hook) => typeof hook === 'function' && principalGuards.has(hook));
}

/** Adds the hook to `app` and every plugin registered under it after this call. */
export function authentication(app: FastifyInstance, principals: PrincipalStore): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('guild', null);
  const authenticateRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    // No token is no guess: only a presented token goes through the failed-credential throttle.
    request.principal = header ? await checkCredential(request, reply, () => authenticate(principals, header)) : null;
  };
  app.addHook('onRoute', (route) => {
    if (!declaresGuard(route)) return;
    // First of the route's own hooks, so that the guards that follow see the principal.
    route.onRequest = [authenticateRequest, ...hookList(route.onRequest)] as NonNullable<RouteOptions['onRequest']>;
  });
}

/**
 * The principal of a request, whether or not its route authenticated it: a request no guarded
 * route answered (a route slashd does not serve) has its token looked up now, after its answer,
 * for the record of what each bot called (app-usage-hook.ts); no answer depends on it.
 */
export function principalAfterAnswer(principals: PrincipalStore) {
  return async (request: FastifyRequest): Promise<Principal | null> =>
    request.principal ?? (await authenticate(principals, request.headers.authorization));
}
