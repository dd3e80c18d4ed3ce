/**
 * v10 rate limits as one Fastify hook: every request to the API is counted in its route's bucket
 * (and its caller's global window) before its body is read, and every reply, errors included,
 * carries the bucket's `X-RateLimit-*` headers; over a limit, the reply is v10's 429. The hook
 * runs in preParsing, after the authentication hook and the onRequest guards, so the caller is
 * known (a refused token is answered 401 first). /admin, /healthz, /readyz and /metrics are
 * outside the API and never limited.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/io/errors.js';
import { bucketOf, type BucketSpec } from '../core/rate-limits/buckets.js';
import type { RateLimitPreset } from '../core/rate-limits/presets.js';
import {
  bucketHeaders,
  decide,
  refusalHeaders,
  seconds,
  type CounterHit,
  type CounterStore,
  type HitResult,
} from '../core/rate-limits/window.js';

export interface RateLimitHookOptions {
  preset: RateLimitPreset;
  counters: CounterStore;
  now: () => number;
}

const API_ROUTE = /^\/api\/v\d+\//;

/** Who a request counts against: the token's bot, Bearer grant or user, else the client's address. */
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

function majorValues(spec: BucketSpec, request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  return spec.majorParams
    .map((name) => (name === 'token' ? digest(params[name] ?? '') : (params[name] ?? '')))
    .join(':');
}

export function rateLimits(app: FastifyInstance, { preset, counters, now }: RateLimitHookOptions): void {
  const buckets = new Map<string, BucketSpec | null>();
  const bucketFor = (request: FastifyRequest): BucketSpec | null => {
    const template = request.routeOptions.url;
    if (template === undefined) return null;
    const id = `${request.method} ${template}`;
    let spec = buckets.get(id);
    if (spec === undefined) {
      spec = API_ROUTE.test(template) ? bucketOf(request.method, template) : null;
      buckets.set(id, spec);
    }
    return spec;
  };

  const apply = (spec: BucketSpec, reply: FastifyReply, hit: HitResult, at: number): Error | null => {
    const route = preset.groups[spec.group];
    const decision = decide(hit, route, spec.global ? preset.global : null, at);
    if (decision.bucket) reply.headers(bucketHeaders(spec.hash, decision.bucket));
    if (decision.allowed) return null;
    reply.headers(refusalHeaders(decision));
    return apiError('RateLimited', {
      extra: { retry_after: seconds(decision.retryAfterMs), global: decision.scope === 'global' },
    });
  };

  app.addHook('preParsing', (request, reply, payload, done) => {
    const spec = bucketFor(request);
    if (spec === null) return done(null, payload);
    const major = majorValues(spec, request);
    const caller = spec.pathIsCaller ? '' : callerOf(request);
    const route: CounterHit = { key: `b:${spec.hash}:${major}:${caller}`, ...preset.groups[spec.group] };
    const global: CounterHit | null = spec.global ? { key: `g:${caller}`, ...preset.global } : null;
    const at = now();
    const hit = counters.hit(at, route, global);
    if (!(hit instanceof Promise)) return done(apply(spec, reply, hit, at), payload);
    hit.then(
      (counted) => done(apply(spec, reply, counted, at), payload),
      (error: unknown) => {
        // Counters out of reach (Redis down) let requests through: limits protect the service, not data.
        request.log.warn({ err: error }, 'rate-limit counters unreachable; request not limited');
        done(null, payload);
      },
    );
  });
}
