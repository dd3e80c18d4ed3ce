/**
 * OAuth2 token endpoint, revocation, and what a token says about itself (docs/oauth2.md): the
 * authorization code (PKCE), refresh token and client credentials grants. Errors use OAuth2's
 * own shape, not v10's. The browser pages (authorize, discovery, JWKS) are in oauth2-pages.ts.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, type ApiError } from '../../core/io/errors.js';
import { acceptFormBodies } from '../../http/form-body.js';
import type { ClientCredentials, OAuth2Service, TokenClient, TokenForm } from './service.js';
import { invalidClient, invalidRequest, OAuth2Error } from './oauth2-error.js';
import { checkCredential } from '../../http/credential-throttle.js';
import { errorHandler } from '../../http/errors.js';
import { principalOf, requireApp } from '../../http/guards.js';
import type { IssuedToken } from '../../store/store.js';

export interface OAuth2RoutesOptions {
  oauth2: OAuth2Service;
}

/**
 * The one place an OAuth2Error meets the wire: `{error, error_description}` with its status, and
 * the challenge RFC 6749 §5.2 (a failed client authentication: Basic) or RFC 6750 §3 (a token
 * lacking a scope: Bearer) asks for.
 */
function sendOAuth2Error(reply: FastifyReply, error: OAuth2Error): FastifyReply {
  if (error.status === 401) reply.header('www-authenticate', 'Basic realm="slashd"');
  if (error.requiredScope !== undefined) {
    reply.header('www-authenticate', `Bearer error="${error.error}", scope="${error.requiredScope}"`);
  }
  return reply.code(error.status).send({ error: error.error, error_description: error.description });
}

export function readClientCredentials(request: FastifyRequest, form: TokenForm): ClientCredentials | null {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return null;
    try {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon)),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
      };
    } catch {
      // A malformed escape (URIError) is a failed client authentication, not a server error.
      return null;
    }
  }
  if (form.client_id && form.client_secret) return { clientId: form.client_id, clientSecret: form.client_secret };
  return null;
}

/**
 * A browser client (a public client's page, e.g. the SDK in a web game) may read the answer when
 * its origin is the origin of one of the app's registered redirect URIs. Its form POST is a simple
 * request (no preflight); nothing else is allowed across origins.
 */
async function allowPublicClientOrigin(
  oauth2: OAuth2Service,
  request: FastifyRequest,
  reply: FastifyReply,
  clientId: string | undefined,
): Promise<void> {
  const origin = request.headers.origin;
  if (!origin) return;
  reply.header('vary', 'Origin');
  if ((await oauth2.clients.publicClientOrigins(clientId)).includes(origin))
    reply.header('access-control-allow-origin', origin);
}

/** The Bearer token of the request (after `requireApp`); null for a bot. */
function bearerTokenOf(request: FastifyRequest): IssuedToken | null {
  const principal = principalOf(request);
  return principal.kind === 'bearer' ? principal.token : null;
}

/**
 * The client of a token request, authenticated under the failed-credential throttle: a wrong
 * secret counts against the caller's address (never against the client id, which anyone can name).
 */
async function clientOf(
  oauth2: OAuth2Service,
  request: FastifyRequest,
  reply: FastifyReply,
  form: TokenForm,
): Promise<TokenClient> {
  const client = await checkCredential(request, reply, () =>
    oauth2.clients.tokenClient(readClientCredentials(request, form), form.client_id),
  );
  if (!client) throw invalidClient();
  return client;
}

export async function oauth2Routes(api: FastifyInstance, { oauth2 }: OAuth2RoutesOptions): Promise<void> {
  // The token endpoint is form-encoded; this plugin is the only API plugin that reads forms.
  acceptFormBodies(api);

  // Handlers throw OAuth2Error; everything else leaves as a v10 error, as on every other route.
  api.setErrorHandler((error: FastifyError | ApiError, request, reply) =>
    error instanceof OAuth2Error ? sendOAuth2Error(reply, error) : errorHandler(error, request, reply),
  );

  api.post('/oauth2/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      throw invalidRequest('The request body must be application/x-www-form-urlencoded');
    }
    const form = (request.body ?? {}) as TokenForm;
    await allowPublicClientOrigin(oauth2, request, reply, form.client_id);
    reply.header('cache-control', 'no-store');
    return reply.send(await oauth2.grant(await clientOf(oauth2, request, reply, form), form));
  });

  api.post('/oauth2/token/revoke', async (request, reply) => {
    const form = (request.body ?? {}) as TokenForm;
    await allowPublicClientOrigin(oauth2, request, reply, form.client_id);
    const client = await clientOf(oauth2, request, reply, form);
    await oauth2.revoke(client.app, form.token);
    return reply.code(200).send({});
  });

  api.get('/oauth2/@me', { onRequest: requireApp }, async (request) => {
    const token = bearerTokenOf(request);
    if (!token) throw apiError('Unauthorized');
    return oauth2.tokenInfo.describe(token);
  });

  api.get('/oauth2/userinfo', { onRequest: requireApp }, async (request) =>
    oauth2.tokenInfo.userinfo(bearerTokenOf(request)),
  );
}
