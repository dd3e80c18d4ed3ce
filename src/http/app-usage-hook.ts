/**
 * Records each request of a bot (its bot token) by v10 route template for `slashd test`'s coverage
 * (src/metrics/app-usage.ts): what the bot called, and what it called that slashd does not serve.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeRoute } from '../core/v10-routes/describe.js';
import type { AppUsageRecorder } from '../services/app-usage.js';
import type { Principal } from '../services/principal-lookup.js';
import { apiPathOf } from './api-versions.js';

const NOT_FOUND = 404;
const METHOD_NOT_ALLOWED = 405;

export function recordAppUsage(
  app: FastifyInstance,
  usage: AppUsageRecorder,
  principalOf: (request: FastifyRequest) => Promise<Principal | null>,
): void {
  app.addHook('onResponse', async (request, reply) => {
    const where = apiPathOf(request.url.split('?')[0] ?? '');
    if (where.kind !== 'served') return;
    const unmatched = request.routeOptions.url === undefined;
    const unserved = unmatched && (reply.statusCode === NOT_FOUND || reply.statusCode === METHOD_NOT_ALLOWED);
    // A route no handler serves authenticated nobody: its token is looked up after the answer was sent.
    const principal = unserved ? await principalOf(request) : request.principal;
    if (principal?.kind !== 'bot') return;
    usage.request(principal.app.id, describeRoute(request.method, where.below, true).route, !unserved);
  });
}
