/** The HTTP adapter: Fastify, v10 errors, and one plugin per resource under /api/v10 and /api/v9. */
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { notFound, methodNotAllowed } from '../core/errors.js';
import type { HttpContext } from './context.js';
import { clientErrorHandler, errorHandler, invalidApiVersion, sendError } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { decodeSafePathEscapes } from './path-decoding.js';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_HTTP_TIMEOUTS, serverTimeoutOptions, type HttpTimeouts } from './limits.js';
import { authenticateBeforeBody } from './route-auth.js';
import { RouteIndex } from './method-not-allowed.js';
import { adminRoutes } from './routes/admin.js';
import { homeRoutes } from './routes/home.js';
import { applicationCommandRoutes } from './routes/application-commands.js';
import { channelRoutes } from './routes/channels.js';
import { channelMessageRoutes } from './routes/channel-messages.js';
import { guildRoutes } from './routes/guilds.js';
import { userRoutes } from './routes/users.js';
import { commandPermissionRoutes } from './routes/command-permissions.js';
import { interactionRoutes } from './routes/interactions.js';
import { webhookRoutes } from './routes/webhooks.js';
import { identityRoutes } from './routes/identity.js';
import { oauth2Routes } from './routes/oauth2.js';
import { gatewayRoutes } from './routes/gateway.js';

/** API versions served; v9 is the same as v10 for everything here (docs/v10-behaviour.md#conventions). */
const SERVED_VERSIONS = ['v10', 'v9'] as const;
const VERSIONED_PATH = /^\/api\/v(\d+)(?:\/|$)/;

/** Interaction and webhook tokens travel in paths: they are cut out of every logged URL. */
const TOKEN_IN_PATH = /^(\/api\/v\d+\/(?:interactions\/\d+|webhooks\/\d+))\/[^/?]+/;

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
  logger?: FastifyServerOptions['logger'];
  timeouts?: Partial<HttpTimeouts>;
}

export async function buildServer(ctx: HttpContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    ...serverTimeoutOptions({ ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts }),
    // A stop closes idle keep-alive connections at once instead of waiting for their timeout.
    forceCloseConnections: 'idle',
    // Interaction tokens travel in paths and are longer than find-my-way's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Errors raised before routing (a malformed URL, an oversized parameter) leave as v10 bodies too.
    rewriteUrl: (request) => decodeSafePathEscapes(request.url ?? '/'),
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply),
    clientErrorHandler,
  });
  const routes = new RouteIndex();
  routes.attach(app);
  app.addHook('onSend', exactJsonContentType);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  app.setErrorHandler(errorHandler);
  authenticateBeforeBody(app, ctx.store);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const version = VERSIONED_PATH.exec(path)?.[1];
    if (version !== undefined && !SERVED_VERSIONS.includes(`v${version}` as (typeof SERVED_VERSIONS)[number])) {
      return sendError(reply, invalidApiVersion());
    }
    return sendError(reply, routes.hasPath(path) ? methodNotAllowed() : notFound());
  });

  for (const version of SERVED_VERSIONS) {
    await app.register(
      async (api) => {
        await api.register(applicationCommandRoutes, { ctx });
        await api.register(commandPermissionRoutes, { ctx });
        await api.register(channelRoutes, { ctx });
        await api.register(interactionRoutes, { ctx });
        await api.register(webhookRoutes, { ctx });
        await api.register(identityRoutes, { ctx });
        await api.register(oauth2Routes, { ctx });
        await api.register(gatewayRoutes, { ctx });
        await api.register(guildRoutes, { ctx });
        await api.register(userRoutes, { ctx });
        await api.register(channelMessageRoutes, { ctx });
      },
      { prefix: `/api/${version}` },
    );
  }
  await app.register(adminRoutes, { ctx, prefix: '/admin' });
  await app.register(homeRoutes, { ctx });
  return app;
}
