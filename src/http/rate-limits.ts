/**
 * v10 rate limits as a Fastify hook on every API route: every request to the API is counted in
 * its route's bucket (and its caller's global window) before its body is read, and every reply,
 * errors included, carries the bucket's `X-RateLimit-*` headers; over a limit, the reply is v10's
 * 429. The hook runs in preParsing, after the authentication hook and the onRequest guards, so
 * the caller is known (a refused token is answered 401 first). /admin, /healthz, /readyz and
 * /metrics are outside the API and never limited.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withPreParsing, type PreParsingHook } from './pre-parsing-hooks.js';
import { apiError } from '../core/io/errors.js';
import { NO_METRICS, type RateLimitMetrics } from '../metrics/metrics.js';
import { bucketOf, type BucketSpec } from '../core/rate-limits/buckets.js';
import type { RateLimitPreset } from '../core/rate-limits/presets.js';
import {
  bucketHeaders,
  decide,
  refusalHeaders,
  seconds,
  type CounterHit,
  type Decision,
  type CounterStore,
  type HitResult,
} from '../core/rate-limits/window.js';

export interface RateLimitHookOptions {
  preset: RateLimitPreset;
  counters: CounterStore;
  now: () => number;
  /** Told of every refusal, by scope (`user`, `global`, `shared`). */
  metrics?: RateLimitMetrics | undefined;
}

const API_ROUTE = /^\/api\/v\d+\//;
/** While the counters are out of reach, one warning per this many ms, not one per request. */
const UNREACHABLE_WARNING_INTERVAL_MS = 10_000;

/**
 * Who a request counts against: the token's bot, Bearer grant or user, else the client's address.
 * The OAuth2 token routes too: counted per client id, anyone's wrong secrets would lock the real
 * client out; their failed client authentications are throttled per address (credential-throttle.ts).
 */
function callerOf(request: FastifyRequest): string {
  const principal = request.principal;
  if (principal === null) return `ip:${request.ip}`;
  if (principal.kind === 'bot') return `bot:${principal.app.id}`;
  if (principal.kind === 'user') return `user:${principal.user.id}`;
  return `bearer:${principal.app.id}:${principal.token.user_id ?? ''}`;
}

/** A token from the path goes into counter keys only as a digest: keys may be listed, tokens must not be. */
function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url').slice(0, 22);
}

const SNOWFLAKE = /^\d{1,20}$/;

/**
 * An id as it goes into a counter key: a snowflake as it is, anything else (up to the router's
 * 1,000 characters) as a digest, so every key has a bounded length.
 */
function keyPart(id: string): string {
  return SNOWFLAKE.test(id) ? id : `#${digest(id)}`;
}

/** The major parameters of the request's path, as they go into its counter key. */
export function majorValues(spec: BucketSpec, request: Pick<FastifyRequest, 'params'>): string {
  const params = request.params as Record<string, string | undefined>;
  return spec.majorParams
    .map((name) => (name === 'token' ? digest(params[name] ?? '') : keyPart(params[name] ?? '')))
    .join(':');
}

/**
 * Adds the check to every API route as it is declared: the route's bucket is worked out once,
 * and routes outside /api/vN get no hook at all. Call before the routes are registered.
 */
export function rateLimits(app: FastifyInstance, options: RateLimitHookOptions): void {
  let warnedAt = -Infinity;
  const unreachable = (request: FastifyRequest, error: unknown): void => {
    const at = Date.now();
    if (at - warnedAt < UNREACHABLE_WARNING_INTERVAL_MS) return;
    warnedAt = at;
    request.log.warn({ err: error }, 'rate-limit counters unreachable; requests not limited');
  };
  app.addHook('onRoute', (route) => {
    if (!API_ROUTE.test(route.url)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hooks = new Map(
      methods.map((method) => [method, checkFor(bucketOf(method, route.url), options, unreachable)]),
    );
    const check: PreParsingHook = (request, reply, payload, done) => {
      const hook = hooks.get(request.method);
      if (hook) hook(request, reply, payload, done);
      else done(null, payload);
    };
    const single = methods.length === 1 ? hooks.get(methods[0]!) : undefined;
    route.preParsing = withPreParsing(route.preParsing, single ?? check);
  });
}

/**
 * v10's 429 for a refusal: the bucket's `X-RateLimit-*` headers (when the bucket was counted), the
 * scope's, and the body with `retry_after` and `global`. Injected faults answer with it too.
 */
export function rateLimitRefusal(
  reply: FastifyReply,
  bucketHash: string,
  decision: Extract<Decision, { allowed: false }>,
): Error {
  if (decision.bucket) reply.headers(bucketHeaders(bucketHash, decision.bucket));
  reply.headers(refusalHeaders(decision));
  return apiError('RateLimited', {
    extra: { retry_after: seconds(decision.retryAfterMs), global: decision.scope === 'global' },
  });
}

/** The check of one bucket: counts the request, sets the headers, and refuses it over a limit. */
function checkFor(
  spec: BucketSpec,
  { preset, counters, now, metrics = NO_METRICS }: RateLimitHookOptions,
  unreachable: (request: FastifyRequest, error: unknown) => void,
): PreParsingHook {
  const limits = preset.groups[spec.group];
  const global = spec.global ? preset.global : null;
  const keyPrefix = `b:${spec.hash}:`;

  const apply = (reply: FastifyReply, hit: HitResult, at: number): Error | null => {
    const decision = decide(hit, limits, global, at);
    if (decision.allowed) {
      reply.headers(bucketHeaders(spec.hash, decision.bucket));
      return null;
    }
    metrics.rateLimited(decision.scope);
    return rateLimitRefusal(reply, spec.hash, decision);
  };

  return (request, reply, payload, done) => {
    const caller = spec.pathIsCaller ? '' : callerOf(request);
    const route: CounterHit = {
      key: `${keyPrefix}${majorValues(spec, request)}:${caller}`,
      limit: limits.limit,
      windowMs: limits.windowMs,
    };
    const globalHit: CounterHit | null = global
      ? { key: `g:${caller}`, limit: global.limit, windowMs: global.windowMs }
      : null;
    const at = now();
    const hit = counters.hit(at, route, globalHit);
    if (!(hit instanceof Promise)) return done(apply(reply, hit, at), payload);
    hit.then(
      (counted) => done(apply(reply, counted, at), payload),
      (error: unknown) => {
        // Counters out of reach (Redis down) let requests through: limits protect the service, not data.
        unreachable(request, error);
        done(null, payload);
      },
    );
  };
}
