/**
 * Command permissions (v10 API, Command permission endpoints; docs/v10-behaviour.md#endpoints). Reads take the bot
 * token or a Bearer token of the app; edits only a Bearer token with
 * `applications.commands.permissions.update`, for a user who may make them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { User } from '../../core/world/types.js';
import type { PermissionsService } from '../../services/permissions-service.js';
import { SCOPE_PERMISSIONS_UPDATE } from '../auth.js';
import { guard } from '../authentication.js';
import {
  appOf,
  guildOf,
  missingGuard,
  principalOf,
  requireApp,
  requireAppInGuild,
  type InstalledGuilds,
} from '../guards.js';

export interface CommandPermissionRoutesOptions {
  permissions: PermissionsService;
  guilds: InstalledGuilds;
}

interface GuildParams {
  applicationId: string;
  guildId: string;
}

interface TargetParams extends GuildParams {
  commandId: string;
}

/**
 * preHandler: edits take only a Bearer token with `applications.commands.permissions.update`
 * granted by a user. A token without a user (client credentials, stored before the scope was
 * refused there) never edits permissions as if the owner had granted it.
 */
const requirePermissionsEditor = guard(async (request: FastifyRequest) => {
  const principal = principalOf(request);
  if (principal.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
  if (principal.kind !== 'bearer' || !principal.token.scopes.includes(SCOPE_PERMISSIONS_UPDATE))
    throw apiError('MissingOAuth2Scope');
  if (principal.token.user_id === null) throw apiError('MissingOAuth2Scope');
  if (!principal.user) throw apiError('Unauthorized');
});

/** The user editing, after `requirePermissionsEditor`. */
function editorOf(request: FastifyRequest): User {
  const principal = principalOf(request);
  if (principal.kind !== 'bearer' || !principal.user) throw missingGuard('the editor');
  return principal.user;
}

export async function commandPermissionRoutes(
  api: FastifyInstance,
  { permissions, guilds }: CommandPermissionRoutesOptions,
): Promise<void> {
  const base = '/applications/:applicationId/guilds/:guildId/commands';
  const inGuild = requireAppInGuild(guilds);
  const read = { onRequest: requireApp, preHandler: [inGuild] };
  const edit = { onRequest: requireApp, preHandler: [inGuild, requirePermissionsEditor] };

  api.get<{ Params: GuildParams }>(`${base}/permissions`, read, async (request) =>
    permissions.list(appOf(request), guildOf(request)),
  );

  api.put<{ Params: GuildParams }>(`${base}/permissions`, read, async () => {
    throw apiError('BatchEditDisabled');
  });

  api.get<{ Params: TargetParams }>(`${base}/:commandId/permissions`, read, async (request) =>
    permissions.get(appOf(request), guildOf(request), request.params.commandId),
  );

  api.put<{ Params: TargetParams }>(`${base}/:commandId/permissions`, edit, async (request) =>
    permissions.put(appOf(request), guildOf(request), editorOf(request), request.params.commandId, request.body),
  );
}
