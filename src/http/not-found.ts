/**
 * Requests no route answers. An API version slashd does not serve is 400 (50041); a known path with
 * another method 405; anything else 404. The v10 body is kept, and its message names what slashd
 * does not serve (`404: Not Found (slashd does not serve GET /guilds/{guild.id}/integrations)`), so a
 * bot developer knows it is slashd, not their code; each such API route is logged once at warn
 * level (docs/v10-behaviour.md#routes-slashd-does-not-serve).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError, type ApiError } from '../core/io/errors.js';
import { describeRoute, type RouteDescription } from '../core/v10-routes/describe.js';
import { apiPathOf } from './api-versions.js';
import { sendError } from './errors.js';
import type { RouteIndex } from './method-not-allowed.js';

/** Distinct unserved routes logged per server; later ones are not (one line says so): bounded memory and log. */
export const UNSERVED_ROUTES_LOGGED_MAX = 256;

/** Which unserved routes were logged: each once, at most `max` of them. */
export class UnservedRouteLog {
  private readonly logged = new Set<string>();
  private fullSaid = false;

  constructor(private readonly max = UNSERVED_ROUTES_LOGGED_MAX) {}

  /** 'first' the first time `route` is seen; 'full' once, for the first route past the cap; else null. */
  note(route: string): 'first' | 'full' | null {
    if (this.logged.has(route)) return null;
    if (this.logged.size < this.max) {
      this.logged.add(route);
      return 'first';
    }
    if (this.fullSaid) return null;
    this.fullSaid = true;
    return 'full';
  }
}

function unservedError(description: RouteDescription, api: boolean, knownPath: boolean): ApiError {
  const params = { route: description.route };
  if (knownPath) return description.v10Method ? apiError('UnservedMethod', { params }) : apiError('MethodNotAllowed');
  if (api && !(description.v10Path && description.v10Method)) return apiError('UnservedNonV10Route', { params });
  return apiError('UnservedRoute', { params });
}

/** Worth a warning: a v10 request slashd does not answer, or an API request v10 would not answer either. */
function logLine(description: RouteDescription, knownPath: boolean): string | null {
  if (knownPath && !description.v10Method) return null;
  const v10 = description.v10Path && description.v10Method;
  return `slashd does not serve ${description.route} (${v10 ? 'a v10 route' : 'not a v10 route either'})`;
}

/** The v10 route template each unserved API request was named by, for the coverage hook (app-usage-hook.ts). */
const unservedTemplates = new WeakMap<FastifyRequest, string>();

/** The template `notFoundHandler` named this request by; undefined when it did not answer it, or outside the API. */
export function unservedTemplateOf(request: FastifyRequest): string | undefined {
  return unservedTemplates.get(request);
}

export function notFoundHandler(routes: RouteIndex, log = new UnservedRouteLog()) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? '';
    const where = apiPathOf(path);
    if (where.kind === 'unserved-version') return sendError(reply, apiError('InvalidApiVersion'));
    const api = where.kind === 'served';
    const description = describeRoute(request.method, api ? where.below : path, api);
    if (api) unservedTemplates.set(request, description.route);
    const knownPath = routes.hasPath(path);
    const line = api ? logLine(description, knownPath) : null;
    if (line !== null) {
      const seen = log.note(description.route);
      if (seen === 'first') request.log.warn({ route: description.route }, line);
      if (seen === 'full')
        request.log.warn(
          `more routes slashd does not serve were requested; not logged past ${UNSERVED_ROUTES_LOGGED_MAX}`,
        );
    }
    return sendError(reply, unservedError(description, api, knownPath));
  };
}
