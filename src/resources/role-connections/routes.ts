/**
 * Application role connections' routes: the metadata records for the app's bot, and the user's
 * connection for a Bearer token of that app with `role_connections.write` (v10: a bot token or a
 * user's session is refused, the one with 20001, the other with 401).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { appOf, principalOf, requireAnyCaller, requireBot, requireOwnApp } from '../../http/guards.js';
import { guard } from '../../http/authentication.js';
import { Scope } from '../oauth2/rules/scopes.js';
import type { RoleConnectionsService } from './service.js';

export interface RoleConnectionRoutesOptions {
  roleConnections: RoleConnectionsService;
}

/** Five records of a few short strings (and their localizations). */
const METADATA_BODY_LIMIT_BYTES = 64 * 1024;
/** A connection: two names and at most five values. */
const CONNECTION_BODY_LIMIT_BYTES = 8 * 1024;

interface AppParams {
  applicationId: string;
}

/** preHandler: a Bearer token of the path's app with `role_connections.write`, granted by a user. */
const requireRoleConnectionsWriter = guard(async (request: FastifyRequest) => {
  const principal = principalOf(request);
  if (principal.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
  if (principal.kind !== 'bearer') throw apiError('Unauthorized');
  if (!principal.token.scopes.includes(Scope.RoleConnectionsWrite) || principal.token.user_id === null) {
    throw apiError('MissingOAuth2Scope');
  }
  const { applicationId } = request.params as AppParams;
  if (principal.app.id !== applicationId) throw apiError('NotAuthorizedForApplication');
});

/** The user whose connection it is: the Bearer token's, after `requireRoleConnectionsWriter`. */
function connectedUserOf(request: FastifyRequest): string {
  const principal = principalOf(request);
  if (principal.kind !== 'bearer' || principal.token.user_id === null) throw apiError('Unauthorized');
  return principal.token.user_id;
}

export async function roleConnectionRoutes(
  api: FastifyInstance,
  { roleConnections }: RoleConnectionRoutesOptions,
): Promise<void> {
  const base = '/applications/:applicationId/role-connections/metadata';
  api.get<{ Params: AppParams }>(base, { onRequest: requireBot, preHandler: [requireOwnApp] }, async (request) =>
    roleConnections.metadata(appOf(request).id, request.params.applicationId),
  );
  api.put<{ Params: AppParams }>(
    base,
    { onRequest: requireBot, preHandler: [requireOwnApp], bodyLimit: METADATA_BODY_LIMIT_BYTES },
    async (request) => roleConnections.putMetadata(appOf(request).id, request.params.applicationId, request.body),
  );

  const own = '/users/@me/applications/:applicationId/role-connection';
  const writer = { onRequest: requireAnyCaller, preHandler: [requireRoleConnectionsWriter] };
  api.get<{ Params: AppParams }>(own, writer, async (request) =>
    roleConnections.connection(request.params.applicationId, connectedUserOf(request)),
  );
  api.put<{ Params: AppParams }>(own, { ...writer, bodyLimit: CONNECTION_BODY_LIMIT_BYTES }, async (request) =>
    roleConnections.putConnection(request.params.applicationId, connectedUserOf(request), request.body),
  );
  api.delete<{ Params: AppParams }>(own, writer, async (request, reply) => {
    await roleConnections.deleteConnection(request.params.applicationId, connectedUserOf(request));
    return reply.code(204).send();
  });
}
