/**
 * Records each request of a bot (its bot token) by v10 route template for `slashd test`'s coverage
 * (src/metrics/app-usage.ts): what the bot called, and what it called that slashd does not serve.
 * It runs on every answer, so a served route's template is worked out once per Fastify route, not
 * per request (the hot path pays a map lookup), and only a bot's requests are recorded at all.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeRoute } from '../../core/v10-routes/describe.js';
import type { AppUsageRecorder } from './service.js';
import type { Principal } from '../applications/principal-lookup.js';
import { apiPathOf } from '../../http/api-versions.js';
import { unservedTemplateOf } from '../../http/not-found.js';

const NOT_FOUND = 404;
const METHOD_NOT_ALLOWED = 405;

/** The v10 route template of a request's path; null outside the versioned API. */
function templateOf(request: FastifyRequest): string | null {
  const where = apiPathOf(request.url.split('?')[0] ?? '');
  return where.kind === 'served' ? describeRoute(request.method, where.below, true).route : null;
}

export function recordAppUsage(
  app: FastifyInstance,
  usage: AppUsageRecorder,
  principalOf: (request: FastifyRequest) => Promise<Principal | null>,
): void {
  /** By method and Fastify route pattern: a pattern's paths all have one v10 template. */
  const templates = new Map<string, string | null>();
  const servedTemplate = (request: FastifyRequest, pattern: string): string | null => {
    const key = `${request.method} ${pattern}`;
    let template = templates.get(key);
    if (template === undefined) templates.set(key, (template = templateOf(request)));
    return template;
  };

  app.addHook('onResponse', (request, reply, done) => {
    const pattern = request.routeOptions.url;
    if (pattern !== undefined) {
      const principal = request.principal;
      const template = principal?.kind === 'bot' ? servedTemplate(request, pattern) : null;
      if (principal?.kind === 'bot' && template !== null) usage.request(principal.app.id, template, true);
      return done();
    }
    if (reply.statusCode !== NOT_FOUND && reply.statusCode !== METHOD_NOT_ALLOWED) return done();
    // Named once, by the handler that answered it.
    const template = unservedTemplateOf(request) ?? templateOf(request);
    if (template === null) return done();
    // A route no handler serves authenticated nobody: its token is looked up after the answer was sent.
    principalOf(request).then(
      (principal) => {
        if (principal?.kind === 'bot') usage.request(principal.app.id, template, false);
        done();
      },
      () => done(),
    );
  });
}
