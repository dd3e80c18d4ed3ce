/**
 * OAuth2 token endpoint (docs/v10-behaviour.md#oauth2): client credentials for now; authorization codes come
 * with the OAuth2 issue. Errors use OAuth2's own shape, not v10's.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nullRecordFrom } from '../../core/records.js';
import type { HttpContext } from '../context.js';
import { sameSecret } from '../../store/tokens.js';
import type { StoredApplication } from '../../store/store.js';

/** Lifetime of an issued access token, in seconds (v10's `expires_in`). */
export const ACCESS_TOKEN_TTL_SECONDS = 604_800;

/**
 * Scopes a client may grant itself with its secret alone (the token acts for the app's owner).
 * Anything a user must grant, `applications.commands.permissions.update` above all, is absent: it
 * comes only from an authorization code, so a leaked client secret cannot edit permissions.
 */
export const CLIENT_CREDENTIALS_SCOPES: ReadonlySet<string> = new Set([
  'applications.commands.update',
  'applications.commands',
  'identify',
  'guilds',
  'connections',
  'email',
]);

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).send({ error, error_description: description });
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

function readClientCredentials(request: FastifyRequest, form: Record<string, string>): ClientCredentials | null {
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

export async function oauth2Routes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  // The token endpoint is form-encoded; this plugin is the only place that reads forms, so every
  // other route answers a form body with the v10 invalid-content-type error and writes nothing.
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, nullRecordFrom(new URLSearchParams(text)));
  });
  async function authenticateClient(credentials: ClientCredentials | null): Promise<StoredApplication | null> {
    if (!credentials || !/^\d{1,20}$/.test(credentials.clientId)) return null;
    const app = await ctx.store.world.getApplication(credentials.clientId);
    if (!app || !app.client_secret) return null;
    return sameSecret(app.client_secret, credentials.clientSecret) ? app : null;
  }

  api.post('/oauth2/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(reply, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    }
    const form = (request.body ?? {}) as Record<string, string>;
    const app = await authenticateClient(readClientCredentials(request, form));
    if (!app) return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type !== 'client_credentials') {
      return oauthError(
        reply,
        400,
        'unsupported_grant_type',
        `Unsupported grant type: ${String(form.grant_type ?? '')}`,
      );
    }
    const scopes = (form.scope ?? '').split(/\s+/).filter(Boolean);
    const unknown = scopes.find((s) => !CLIENT_CREDENTIALS_SCOPES.has(s));
    if (scopes.length === 0 || unknown !== undefined) {
      return oauthError(reply, 400, 'invalid_scope', `The requested scope is invalid: ${unknown ?? '(none)'}`);
    }
    const accessToken = randomBytes(24).toString('base64url');
    await ctx.store.world.putOAuth2Token({
      access_token: accessToken,
      user_id: null,
      application_id: app.id,
      scopes,
      expires_at: ctx.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
    });
    return reply.send({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: scopes.join(' '),
    });
  });

  api.post('/oauth2/token/revoke', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    const app = await authenticateClient(readClientCredentials(request, form));
    if (!app) return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    const token = form.token ? await ctx.store.world.findOAuth2Token(form.token) : null;
    if (token && token.application_id === app.id) await ctx.store.world.deleteOAuth2Token(token.access_token);
    return reply.code(200).send({});
  });
}
