/**
 * `GET /metrics`: the server's metrics in Prometheus' text format, for a scraper holding the
 * metrics token (or the admin token) as `Authorization: Bearer <token>`. Never public: the
 * counts describe every app's traffic (docs/decisions.md#operations).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { sameSecret } from '../../store/tokens.js';

/** What the route serves: the exposition text and its content type. */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}

export interface MetricsRoutesOptions {
  metrics: MetricsExposition;
  /** Secrets that may scrape (the metrics token, the admin token); each compared in constant time. */
  tokens: readonly string[];
}

const BEARER = /^Bearer\s+(.+)$/i;

/** onRequest: a Bearer token equal to one of `tokens`; every token is compared, whichever matches. */
function requireScrapeToken(tokens: readonly string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const given = BEARER.exec(request.headers.authorization ?? '')?.[1];
    let admitted = false;
    for (const token of tokens) admitted = (given !== undefined && sameSecret(given, token)) || admitted;
    if (!admitted) throw apiError('Unauthorized');
  };
}

export async function metricsRoutes(app: FastifyInstance, { metrics, tokens }: MetricsRoutesOptions): Promise<void> {
  app.get('/metrics', { onRequest: requireScrapeToken(tokens) }, async (_request, reply) =>
    reply.type(metrics.contentType).send(await metrics.text()),
  );
}
