/** The HTTP adapter: Fastify, v10 errors, and one plugin per resource under /api/v10 and /api/v9 (and /api, as v10). */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyBaseLogger,
} from 'fastify';
import { allowedHosts, HostPolicy } from './allowed-hosts.js';
import { authentication } from './authentication.js';
import { credentialThrottling } from './credential-throttle.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import type { HttpServiceParts } from './context.js';
import { SERVED_VERSIONS, servedAsV10 } from './api-versions.js';
import { handlerDeadlines } from './deadlines.js';
import { clientErrorHandler, errorHandler } from './errors.js';
import { ignoreTypeOfEmptyBodies } from './empty-body.js';
import { parseJsonBody } from './json-body.js';
import { durableReplies } from './durable-replies.js';
import { keepAliveHooks } from './keep-alive.js';
import { decodeSafePathEscapes } from './path-decoding.js';
import { checkPathIds } from './path-ids.js';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_HTTP_TIMEOUTS, serverTimeoutOptions, type HttpTimeouts } from './limits.js';
import { RouteIndex } from './method-not-allowed.js';
import { notFoundHandler } from './not-found.js';
import { rateLimits, type RateLimitHookOptions } from './rate-limits.js';
import { faultHooks, type FaultHookOptions } from './faults.js';
import { acceptUploads, UploadSpace } from './multipart.js';
import type { MetricsExposition } from './probes.js';
import { RESOURCES } from '../resources/index.js';
import type { Resource, RouteContext } from '../resources/resource.js';
import { observeRequests, logRequests, replyWithRequestId, requestId } from './observability.js';
import type { HttpMetrics } from '../metrics/metrics.js';

/** Interaction and webhook tokens travel in paths: they are cut out of every logged URL. */
const TOKEN_IN_PATH = /^(\/api(?:\/v\d+)?\/(?:interactions\/\d+|webhooks\/\d+))\/[^/?]+/;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, '$1/:token');
}

/**
 * v10 sends JSON as exactly `application/json`, and discord.py parses a body as JSON only when the
 * header equals that string; Fastify appends `; charset=utf-8` to JSON it sends, so every reply's
 * type is normalised here once, whatever route or error path produced it.
 */
function exactJsonContentType(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && type.startsWith('application/json') && type !== 'application/json') {
    reply.header('content-type', 'application/json');
  }
  done(null, payload);
}

export interface ServerOptions {
  /** The node's logger (requests log through children of it); none when null or absent. */
  logger?: FastifyBaseLogger | null | undefined;
  timeouts?: Partial<HttpTimeouts> | undefined;
  /** Requests counted per route, and `GET /metrics` for holders of `tokens`. */
  metrics?: { http: HttpMetrics; exposition: MetricsExposition; tokens: readonly string[] } | undefined;
  /** v10 rate limits on the API routes; none when absent. */
  rateLimits?: RateLimitHookOptions | null | undefined;
  /**
   * Which proxies' X-Forwarded-For is believed for `request.ip` (Fastify's `trustProxy`): a hop
   * count or a comma-separated list of addresses and CIDRs; none when absent.
   */
  trustProxy?: TrustProxy | undefined;
  /** Injected faults on the API routes (`/admin/faults`); none when absent. */
  faults?: FaultHookOptions | undefined;
  /** The built web console served at /console (docs/console.md); a page saying so when absent. */
  consoleFolder?: string | undefined;
  /** Which Host headers are answered (DNS rebinding); by default addresses and localhost names only. */
  allowedHosts?: HostPolicy | undefined;
  /** Failed credentials throttled per address (docs/security.md#failed-credentials); none when absent. */
  credentialThrottle?: CredentialThrottle | null | undefined;
  /** The store's pending commit, if any: every reply waits for it (src/http/durable-replies.ts). */
  durable?: (() => Promise<void> | undefined) | undefined;
}

/** The proxies slashd believes: how many hops, or which addresses (`10.0.0.0/8,127.0.0.1`). */
export type TrustProxy = number | string;

/** A hop count as the function Fastify's types take (its runtime takes the number too: same rule). */
function fastifyTrustProxy(trust: TrustProxy): string | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * The server of a node: the hooks every route needs, then each resource's routes (`resources`,
 * by default every resource of src/resources/index.ts) under each served API version and at the root.
 */
export async function buildServer(
  { services, parts }: HttpServiceParts,
  options: ServerOptions = {},
  resources: readonly Resource[] = RESOURCES,
): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    ...serverTimeoutOptions(timeouts),
    // A stop closes idle keep-alive connections at once instead of waiting for their timeout.
    forceCloseConnections: 'idle',
    // While closing, requests get v10's 503 from keepAliveHooks, not Fastify's own body.
    return503OnClosing: false,
    // Interaction tokens travel in paths and are longer than find-my-way's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Errors raised before routing (a malformed URL, an oversized parameter) leave as v10 bodies too;
    // paths under /api without a version are served as v10.
    rewriteUrl: (request) => servedAsV10(decodeSafePathEscapes(request.url ?? '/')),
    // The reply is thenable; the router wants nothing back.
    frameworkErrors: (error, request, reply) => void errorHandler(error, request, reply),
    clientErrorHandler,
    genReqId: requestId,
    // One line per request, written by logRequests (./observability.ts), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: fastifyTrustProxy(options.trustProxy) }),
  });
  const routes = new RouteIndex();
  routes.attach(app);
  handlerDeadlines(app, timeouts);
  app.addHook('onSend', exactJsonContentType);
  if (options.durable) durableReplies(app, options.durable);
  keepAliveHooks(app);
  replyWithRequestId(app);
  logRequests(app);
  if (options.metrics) observeRequests(app, options.metrics.http);
  const context: RouteContext = { services, parts, options };
  for (const resource of resources) resource.hooks?.(app, context);

  app.removeAllContentTypeParsers();
  ignoreTypeOfEmptyBodies(app);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  app.setErrorHandler(errorHandler);
  // Before any other hook: a request for a name slashd is not is answered by nothing else.
  allowedHosts(app, options.allowedHosts ?? new HostPolicy());
  credentialThrottling(app, options.credentialThrottle ?? null);
  authentication(app, services.principals);
  checkPathIds(app);
  if (options.rateLimits) rateLimits(app, options.rateLimits);
  if (options.faults) faultHooks(app, options.faults);
  app.setNotFoundHandler(notFoundHandler(routes));

  // One node's uploads share one bound of temporary disk, whichever version they come by.
  const uploads = new UploadSpace(timeouts);
  // Each resource's plugins take from the registry only the services they call.
  for (const version of SERVED_VERSIONS) {
    await app.register(
      async (api) => {
        await acceptUploads(api, uploads);
        for (const resource of resources) await resource.apiRoutes?.(api, context);
      },
      { prefix: `/api/${version}` },
    );
  }
  for (const resource of resources) await resource.rootRoutes?.(app, context);
  return app;
}
