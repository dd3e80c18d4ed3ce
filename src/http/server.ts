/** The HTTP adapter: Fastify, v10 errors, and one plugin per resource under /api/v10 and /api/v9 (and /api, as v10). */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyBaseLogger } from 'fastify';
import { allowedHosts, HostPolicy } from './allowed-hosts.js';
import { authentication, principalAfterAnswer } from './authentication.js';
import { credentialThrottling } from './credential-throttle.js';
import type { CredentialThrottle } from '../rate-limits/credential-throttle.js';
import type { HttpServices } from './context.js';
import { SERVED_VERSIONS, servedAsV10 } from './api-versions.js';
import { handlerDeadlines } from './deadlines.js';
import { clientErrorHandler, errorHandler } from './errors.js';
import { ignoreTypeOfEmptyBodies } from './empty-body.js';
import { parseJsonBody } from './json-body.js';
import { keepAliveHooks } from './keep-alive.js';
import { decodeSafePathEscapes } from './path-decoding.js';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_HTTP_TIMEOUTS, serverTimeoutOptions, type HttpTimeouts } from './limits.js';
import { RouteIndex } from './method-not-allowed.js';
import { notFoundHandler } from './not-found.js';
import { rateLimits, type RateLimitHookOptions } from './rate-limits.js';
import { faultHooks, type FaultHookOptions } from './faults.js';
import { adminFaultRoutes } from '../resources/faults/routes.js';
import { adminInteractionRoutes } from '../resources/interactions/admin-routes.js';
import { adminRoutes } from '../resources/world/routes.js';
import { snapshotRoutes } from '../resources/snapshots/routes.js';
import { homeRoutes } from '../resources/home/routes.js';
import { consoleRoutes } from '../resources/console/routes.js';
import { readStaticFolder } from './static-files.js';
import { applicationCommandRoutes } from '../resources/commands/routes.js';
import { channelRoutes } from '../resources/command-index/routes.js';
import { channelMessageRoutes } from '../resources/messages/routes.js';
import { attachmentRoutes } from '../resources/attachments/routes.js';
import { acceptUploads } from './multipart.js';
import { channelPinRoutes } from '../resources/pins/routes.js';
import { messageReactionRoutes } from '../resources/reactions/routes.js';
import { guildRoutes } from '../resources/guilds/routes.js';
import { banRoutes } from '../resources/bans/routes.js';
import { dmChannelRoutes } from '../resources/dms/routes.js';
import { auditLogRoutes } from '../resources/audit-log/routes.js';
import { guildChannelRoutes } from '../resources/channels/routes.js';
import { roleRoutes } from '../resources/roles/routes.js';
import { threadRoutes } from '../resources/threads/routes.js';
import { channelEditRoutes } from '../resources/channels/edit-routes.js';
import { memberRoutes } from '../resources/members/routes.js';
import { userRoutes } from '../resources/users/routes.js';
import { commandPermissionRoutes } from '../resources/command-permissions/routes.js';
import { interactionRoutes } from '../resources/interactions/routes.js';
import { webhookRoutes } from '../resources/interactions/webhook-routes.js';
import { identityRoutes } from '../resources/applications/routes.js';
import { oauth2Routes } from '../resources/oauth2/routes.js';
import { oauth2PageRoutes } from '../resources/oauth2/page-routes.js';
import { gatewayRoutes } from '../resources/gateway/routes.js';
import { adminCommandCreatesRoutes } from '../resources/commands/admin-routes.js';
import { adminDeliveryRoutes } from '../resources/gateway/admin-routes.js';
import { adminUsageRoutes } from '../resources/usage/routes.js';
import { recordAppUsage } from '../resources/usage/hook.js';
import type { AppUsageRecorder } from '../resources/usage/service.js';
import { metricsRoutes, type MetricsExposition } from '../resources/metrics/routes.js';
import { observeRequests, replyWithRequestId, requestId } from './observability.js';
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
  /** Each bot's routes recorded for `slashd test` (GET /admin/applications/{id}/usage); none when absent. */
  usage?: AppUsageRecorder | undefined;
}

/** The proxies slashd believes: how many hops, or which addresses (`10.0.0.0/8,127.0.0.1`). */
export type TrustProxy = number | string;

/** A hop count as the function Fastify's types take (its runtime takes the number too: same rule). */
function fastifyTrustProxy(trust: TrustProxy): string | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildServer(services: HttpServices, options: ServerOptions = {}): Promise<FastifyInstance> {
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
    ...(options.trustProxy === undefined ? {} : { trustProxy: fastifyTrustProxy(options.trustProxy) }),
  });
  const routes = new RouteIndex();
  routes.attach(app);
  handlerDeadlines(app, timeouts);
  app.addHook('onSend', exactJsonContentType);
  keepAliveHooks(app);
  replyWithRequestId(app);
  if (options.metrics) observeRequests(app, options.metrics.http);
  if (options.usage) recordAppUsage(app, options.usage, principalAfterAnswer(services.principals));

  app.removeAllContentTypeParsers();
  ignoreTypeOfEmptyBodies(app);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  app.setErrorHandler(errorHandler);
  // Before any other hook: a request for a name slashd is not is answered by nothing else.
  allowedHosts(app, options.allowedHosts ?? new HostPolicy());
  credentialThrottling(app, options.credentialThrottle ?? null);
  authentication(app, services.principals);
  if (options.rateLimits) rateLimits(app, options.rateLimits);
  if (options.faults) faultHooks(app, options.faults);
  app.setNotFoundHandler(notFoundHandler(routes));

  // Each plugin gets only the services it calls.
  const { commands, world } = services;
  for (const version of SERVED_VERSIONS) {
    await app.register(
      async (api) => {
        await acceptUploads(api);
        await api.register(applicationCommandRoutes, { commands, guilds: world });
        await api.register(commandPermissionRoutes, { permissions: services.permissions, guilds: world });
        await api.register(channelRoutes, { channels: services.channels });
        await api.register(interactionRoutes, {
          interactions: services.interactions,
          reads: services.interactionReads,
          callbacks: services.callbacks,
          attachments: services.attachments,
        });
        await api.register(webhookRoutes, { webhookMessages: services.webhookMessages, renderer: services.renderer });
        await api.register(identityRoutes, { applications: services.applications });
        await api.register(oauth2Routes, { oauth2: services.oauth2 });
        await api.register(guildRoutes, { guilds: services.guilds });
        if (services.bans) await api.register(banRoutes, { bans: services.bans });
        if (services.dms) await api.register(dmChannelRoutes, { dms: services.dms });
        if (services.auditLog) await api.register(auditLogRoutes, { auditLog: services.auditLog });
        if (services.roles) await api.register(roleRoutes, { roles: services.roles });
        if (services.guildChannels) await api.register(guildChannelRoutes, { guildChannels: services.guildChannels });
        if (services.threads) await api.register(threadRoutes, services.threads);
        if (services.threads || services.guildChannels) {
          await api.register(channelEditRoutes, {
            threads: services.threads?.threads,
            guildChannels: services.guildChannels,
          });
        }
        if (services.members) await api.register(memberRoutes, { members: services.members });
        await api.register(userRoutes, { guilds: services.guilds });
        await api.register(channelMessageRoutes, {
          channelMessages: services.channelMessages,
          moderation: services.messageModeration,
        });
        await api.register(channelPinRoutes, { pins: services.pins });
        await api.register(messageReactionRoutes, { reactions: services.reactions });
        await api.register(gatewayRoutes, { gateway: services.gateway });
      },
      { prefix: `/api/${version}` },
    );
  }
  if (services.attachments) await app.register(attachmentRoutes, { attachments: services.attachments });
  await app.register(adminRoutes, { world, adminToken: services.adminToken, prefix: '/admin' });
  await app.register(snapshotRoutes, {
    snapshots: services.snapshots,
    adminToken: services.adminToken,
    prefix: '/admin',
  });
  await app.register(adminCommandCreatesRoutes, { world, commands, adminToken: services.adminToken, prefix: '/admin' });
  await app.register(adminDeliveryRoutes, {
    world,
    presence: services.gateway,
    adminToken: services.adminToken,
    prefix: '/admin',
  });
  await app.register(adminInteractionRoutes, {
    interactions: services.interactionReads,
    adminToken: services.adminToken,
    prefix: '/admin',
  });
  if (services.faults) {
    await app.register(adminFaultRoutes, {
      faults: services.faults,
      adminToken: services.adminToken,
      prefix: '/admin',
    });
  }
  if (options.usage) {
    await app.register(adminUsageRoutes, { usage: options.usage, adminToken: services.adminToken, prefix: '/admin' });
  }
  await app.register(homeRoutes, { ready: services.ready });
  await app.register(oauth2PageRoutes, {
    oauth2: services.oauth2,
    oidc: services.oidc,
    sessions: services.consentSessions,
  });
  const consoleFiles = options.consoleFolder === undefined ? null : readStaticFolder(options.consoleFolder);
  await app.register(consoleRoutes, { console: services.console, files: consoleFiles });
  if (options.metrics) {
    await app.register(metricsRoutes, { metrics: options.metrics.exposition, tokens: options.metrics.tokens });
  }
  return app;
}
