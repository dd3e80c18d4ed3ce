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

/** Random bytes of a generated id: 16 hex characters, unique enough to find one request's lines. */
const GENERATED_ID_BYTES = 8;

/** Fastify's `genReqId`: the caller's id when it is safe, a fresh one otherwise. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given === 'string' && SAFE_REQUEST_ID.test(given)) return given;
  return randomBytes(GENERATED_ID_BYTES).toString('hex');
}

/** Every reply names its request's id, errors and 404s included. */
export function replyWithRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
}

/** Every finished request is counted by its route pattern, never its path (paths hold ids and tokens). */
export function observeRequests(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}
