/**
 * OAuth2 token endpoint, revocation, and what a token says about itself (docs/oauth2.md): the
 * authorization code (PKCE), refresh token and client credentials grants. Errors use OAuth2's
 * own shape, not v10's. The browser pages (authorize, discovery, JWKS) are in oauth2-pages.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptFormBodies } from '../form-body.js';
import {
  OAuth2Error,
  type AccessTokenResponse,
  type ClientCredentials,
  type OAuth2Service,
  type TokenClient,
} from '../../services/oauth2-service.js';
import { checkCredential } from '../credential-throttle.js';
import { principalOf, requireApp } from '../guards.js';
import type { IssuedToken } from '../../store/store.js';

export interface OAuth2RoutesOptions {
  oauth2: OAuth2Service;
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="slashd"');
  return reply.code(status).send({ error, error_description: description });
}

export function readClientCredentials(request: FastifyRequest, form: Record<string, string>): ClientCredentials | null {
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
  if ((await oauth2.publicClientOrigins(clientId)).includes(origin))
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
  form: Record<string, string>,
): Promise<TokenClient> {
  const client = await checkCredential(request, reply, async () => {
    try {
      return await oauth2.tokenClient(readClientCredentials(request, form), form.client_id);
    } catch (error) {
      if (error instanceof OAuth2Error && error.error === 'invalid_client') return null;
      throw error;
    }
  });
  if (!client) throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed');
  return client;
}

/** The token response of the form's grant type. */
async function grant(
  oauth2: OAuth2Service,
  client: TokenClient,
  form: Record<string, string>,
): Promise<AccessTokenResponse> {
  switch (form.grant_type) {
    case 'authorization_code':
      return oauth2.exchangeCode(client, form);
    case 'refresh_token':
      return oauth2.refresh(client, form);
    case 'client_credentials':
      if (!client.authenticated) throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed');
      return oauth2.issueClientCredentials(client.app, oauth2.clientCredentialsScopes(form.scope));
    default:
      throw new OAuth2Error(400, 'unsupported_grant_type', `Unsupported grant type: ${String(form.grant_type ?? '')}`);
  }
}

export async function oauth2Routes(api: FastifyInstance, { oauth2 }: OAuth2RoutesOptions): Promise<void> {
  // The token endpoint is form-encoded; this plugin is the only API plugin that reads forms.
  acceptFormBodies(api);

  api.post('/oauth2/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(reply, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    }
    const form = (request.body ?? {}) as Record<string, string>;
    await allowPublicClientOrigin(oauth2, request, reply, form.client_id);
    reply.header('cache-control', 'no-store');
    let answer: AccessTokenResponse;
    try {
      answer = await grant(oauth2, await clientOf(oauth2, request, reply, form), form);
    } catch (error) {
      if (error instanceof OAuth2Error) return oauthError(reply, error.status, error.error, error.description);
      throw error;
    }
    return reply.send(answer);
  });

  api.post('/oauth2/token/revoke', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    await allowPublicClientOrigin(oauth2, request, reply, form.client_id);
    try {
      const client = await clientOf(oauth2, request, reply, form);
      await oauth2.revoke(client.app, form.token);
    } catch (error) {
      if (error instanceof OAuth2Error) return oauthError(reply, error.status, error.error, error.description);
      throw error;
    }
    return reply.code(200).send({});
  });

  api.get('/oauth2/@me', { onRequest: requireApp }, async (request, reply) => {
    const token = bearerTokenOf(request);
    if (!token) return reply.code(401).send({ message: '401: Unauthorized', code: 0 });
    return oauth2.describeToken(token);
  });

  api.get('/oauth2/userinfo', { onRequest: requireApp }, async (request, reply) => {
    const token = bearerTokenOf(request);
    const info = token && (await oauth2.userinfo(token));
    if (!info) {
      reply.header('www-authenticate', 'Bearer error="insufficient_scope", scope="openid"');
      return reply
        .code(403)
        .send({ error: 'insufficient_scope', error_description: 'The token lacks the openid scope' });
    }
    return info;
  });
}
