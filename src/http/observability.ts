/**
 * Cross-cutting hooks of every request: its id (in every log line of the request, in the
 * `X-Request-Id` reply header, and carried into the deliveries it causes) and its count and
 * latency per route pattern.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { HttpMetrics } from '../metrics/metrics.js';
import { UNMATCHED_ROUTE } from '../metrics/prometheus.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming id is kept only when it is a short token of safe characters (a load balancer's or
 * a client's id): it is written into logs and into headers sent to apps, so nothing that could
 * forge a log field or split a header passes.
 */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Random bytes naming this process in its generated ids, so two nodes' ids do not meet. */
const PROCESS_ID_BYTES = 4;

/** A generated id's count part wraps here (eight hex digits): ids repeat only after 2^32 requests. */
const COUNT_WRAP = 0x1_0000_0000;

const processPart = randomBytes(PROCESS_ID_BYTES).toString('hex');
let requestCount = 0;

/**
 * A generated id: 16 hex characters, this process's random part and a count. A count, not random
 * bytes per request: ids only have to tell one request's lines from another's, and drawing random
 * bytes was 6-9 % of the busy time of the hottest route (docs/benchmarks.md, issue 27).
 */
function generatedId(): string {
  requestCount = (requestCount + 1) % COUNT_WRAP;
  return processPart + requestCount.toString(16).padStart(8, '0');
}

/** Fastify's `genReqId`: the caller's id when it is safe, a fresh one otherwise. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given === 'string' && SAFE_REQUEST_ID.test(given)) return given;
  return generatedId();
}

/** Every reply names its request's id, errors and 404s included. */
export function replyWithRequestId(app: FastifyInstance): void {
  // Callback style, as every hook each request runs: an async hook costs a promise a request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
}

/**
 * One log line per request, at its end (Fastify's own two, "incoming request" and "request
 * completed", are off): the method, the URL with its tokens cut out, the status and the time.
 */
export function logRequests(app: FastifyInstance): void {
  // pino's loggers tell their level; below info (the default, warn) there is nothing to write.
  const levels = app.log as { isLevelEnabled?: (level: string) => boolean };
  if (levels.isLevelEnabled?.('info') === false) return;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        req: { method: request.method, url: request.url },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
}

/** Every finished request is counted by its route pattern, never its path (paths hold ids and tokens). */
export function observeRequests(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
