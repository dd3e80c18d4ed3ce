/**
 * `GET /metrics`: the server's metrics in Prometheus' text format, for a scraper holding the
 * metrics token (or the admin token) as `Authorization: Bearer <token>`. Never public: the
 * counts describe every app's traffic (docs/decisions.md#operations).
 */
import type { MetricsExposition } from '../../http/probes.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { sameSecret } from '../../store/tokens.js';
import { checkCredential } from '../../http/credential-throttle.js';

/** What the route serves: the exposition text and its content type. */

export interface MetricsRoutesOptions {
  metrics: MetricsExposition;
  /** Secrets that may scrape (the metrics token, the admin token); each compared in constant time. */
  tokens: readonly string[];
}

const BEARER = /^Bearer\s+(.+)$/i;

/** Whether `given` equals one of `tokens`; every token is compared, whichever matches. */
function isScrapeToken(given: string | undefined, tokens: readonly string[]): boolean {
  let admitted = false;
  for (const token of tokens) admitted = (given !== undefined && sameSecret(given, token)) || admitted;
  return admitted;
}

/** onRequest: a Bearer token equal to one of `tokens`, under the failed-credential throttle. */
function requireScrapeToken(tokens: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw apiError('Unauthorized');
    const given = BEARER.exec(header)?.[1];
    const admitted = await checkCredential(request, reply, () => (isScrapeToken(given, tokens) ? true : null));
    if (!admitted) throw apiError('Unauthorized');
  };
}

export async function metricsRoutes(app: FastifyInstance, { metrics, tokens }: MetricsRoutesOptions): Promise<void> {
  app.get('/metrics', { onRequest: requireScrapeToken(tokens) }, async (_request, reply) =>
    reply.type(metrics.contentType).send(await metrics.text()),
  );
}
