/**
 * Injected faults on the API (`/admin/faults`, docs/faults.md): a hook that `onRoute` adds to every
 * `/api/vN` route, after authentication and the rate limits, so a fault strikes only requests of
 * the app it names (its bot or Bearer token, or the application id of a webhook path). It adds
 * latency, answers v10's 429 (built as the rate limits build theirs: src/http/rate-limits.ts), or
 * a 5xx.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withPreParsing, type PreParsingHook } from './pre-parsing-hooks.js';
import { apiError, type ErrorName } from '../core/io/errors.js';
import { bucketOf, type BucketSpec } from '../core/rate-limits/buckets.js';
import type { Fault } from '../core/faults/fault.js';
import type { FaultTable } from '../faults/fault-table.js';
import { rateLimitRefusal } from './rate-limits.js';

export interface FaultHookOptions {
  faults: FaultTable;
  now: () => number;
}

const API_ROUTE = /^\/api\/v\d+\//;

/** The error of each status a `server_error` fault may answer with (src/core/faults/limits.ts). */
const SERVER_ERRORS: Readonly<Record<number, ErrorName>> = {
  500: 'InjectedInternalServerError',
  502: 'InjectedBadGateway',
  503: 'InjectedServiceUnavailable',
  504: 'InjectedGatewayTimeout',
};

/** The application a request acts for: its token's, else the path's (a webhook's application id). */
function applicationOf(request: FastifyRequest): string | null {
  const principal = request.principal;
  if (principal && principal.kind !== 'user') return principal.app.id;
  const params = request.params as Record<string, string | undefined> | undefined;
  return params?.applicationId ?? null;
}

/** A 429 as the rate limits answer it: the bucket's (its headers, nothing remaining) or the global one. */
function rateLimited(fault: Fault, spec: BucketSpec, reply: FastifyReply, now: number): Error {
  const retryAfterMs = Math.round(fault.retry_after * 1000);
  if (fault.global)
    return rateLimitRefusal(reply, spec.hash, { allowed: false, scope: 'global', retryAfterMs, bucket: null });
  return rateLimitRefusal(reply, spec.hash, {
    allowed: false,
    scope: 'user',
    retryAfterMs,
    bucket: { limit: 1, remaining: 0, resetAt: now + retryAfterMs, resetAfterMs: retryAfterMs },
  });
}

function hookFor(spec: BucketSpec, { faults, now }: FaultHookOptions): PreParsingHook {
  const bucket = { name: spec.name, hash: spec.hash };
  return (request, reply, payload, done) => {
    if (faults.isEmpty) return done(null, payload);
    const applicationId = applicationOf(request);
    const fault = applicationId === null ? null : faults.strike({ applicationId, family: 'http', bucket });
    if (!fault) return done(null, payload);
    request.log.info({ faultId: fault.id, kind: fault.kind }, 'injected fault');
    if (fault.kind === 'rate_limit') return done(rateLimited(fault, spec, reply, now()), payload);
    if (fault.kind === 'server_error')
      return done(apiError(SERVER_ERRORS[fault.status] ?? 'InjectedInternalServerError'), payload);
    delay(fault.latency_ms).then(
      () => done(null, payload),
      () => done(null, payload),
    );
  };
}

/** Adds the fault hook to every API route as it is declared. Call before the routes are registered. */
export function faultHooks(app: FastifyInstance, options: FaultHookOptions): void {
  app.addHook('onRoute', (route) => {
    if (!API_ROUTE.test(route.url)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hooks = new Map(methods.map((method) => [method, hookFor(bucketOf(method, route.url), options)]));
    const check: PreParsingHook = (request, reply, payload, done) => {
      const hook = hooks.get(request.method);
      if (hook) hook(request, reply, payload, done);
      else done(null, payload);
    };
    route.preParsing = withPreParsing(route.preParsing, check);
  });
}
