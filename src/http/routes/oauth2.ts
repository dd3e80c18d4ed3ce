/**
 * OAuth2 token endpoint (docs/v10-behaviour.md#oauth2): client credentials for now; authorization codes come
 * with the OAuth2 issue. Errors use OAuth2's own shape, not v10's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nullRecordFrom } from '../../core/records.js';
import type { ClientCredentials, OAuth2Service } from '../../services/oauth2-service.js';

export interface OAuth2RoutesOptions {
  oauth2: OAuth2Service;
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).send({ error, error_description: description });
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

export async function oauth2Routes(api: FastifyInstance, { oauth2 }: OAuth2RoutesOptions): Promise<void> {
  // The token endpoint is form-encoded; this plugin is the only place that reads forms, so every
  // other route answers a form body with the v10 invalid-content-type error and writes nothing.
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, nullRecordFrom(new URLSearchParams(text)));
  });

  api.post('/oauth2/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(reply, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    }
    const form = (request.body ?? {}) as Record<string, string>;
    const app = await oauth2.authenticateClient(readClientCredentials(request, form));
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
    const unknown = oauth2.refusedScope(scopes);
    if (scopes.length === 0 || unknown !== undefined) {
      return oauthError(reply, 400, 'invalid_scope', `The requested scope is invalid: ${unknown ?? '(none)'}`);
    }
    return reply.send(await oauth2.issueClientCredentials(app, scopes));
  });

  api.post('/oauth2/token/revoke', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    const app = await oauth2.authenticateClient(readClientCredentials(request, form));
    if (!app) return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    await oauth2.revoke(app, form.token);
    return reply.code(200).send({});
  });
}
