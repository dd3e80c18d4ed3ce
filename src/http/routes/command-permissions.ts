/**
 * Command permissions (v10 API, Command permission endpoints; docs/v10-behaviour.md#endpoints). Reads take the bot
 * token or a Bearer token of the app; edits only a Bearer token with
 * `applications.commands.permissions.update`, for a user who may make them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { Guild, User } from '../../core/world/types.js';
import type { StoredApplication } from '../../store/store.js';
import { authenticate, SCOPE_PERMISSIONS_UPDATE, type Principal } from '../auth.js';
import type { HttpContext } from '../context.js';

interface GuildParams {
  applicationId: string;
  guildId: string;
}

interface TargetParams extends GuildParams {
  commandId: string;
}

export async function commandPermissionRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function resolve(
    request: FastifyRequest<{ Params: GuildParams }>,
  ): Promise<{ principal: Principal; app: StoredApplication; guild: Guild }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind === 'user') throw apiError('Unauthorized');
    if (principal.app.id !== request.params.applicationId) throw apiError('NotAuthorizedForApplication');
    const guild = isSnowflake(request.params.guildId) ? await ctx.store.getGuild(request.params.guildId) : null;
    if (!guild || !isInstalledForCommands(guild, principal.app.id)) throw apiError('MissingAccess');
    return { principal, app: principal.app, guild };
  }

  function editor(principal: Principal): User {
    if (principal.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
    if (principal.kind !== 'bearer' || !principal.token.scopes.includes(SCOPE_PERMISSIONS_UPDATE))
      throw apiError('MissingOAuth2Scope');
    // Only a user grants this scope: a token without a user (client credentials, stored before
    // the scope was refused there) never edits permissions as if the owner had granted it.
    if (principal.token.user_id === null) throw apiError('MissingOAuth2Scope');
    if (!principal.user) throw apiError('Unauthorized');
    return principal.user;
  }

  const base = '/applications/:applicationId/guilds/:guildId/commands';

  api.get<{ Params: GuildParams }>(`${base}/permissions`, { config: { auth: 'app' } }, async (request) => {
    const { app, guild } = await resolve(request);
    return ctx.permissions.list(app, guild);
  });

  api.put<{ Params: GuildParams }>(`${base}/permissions`, { config: { auth: 'app' } }, async (request) => {
    await resolve(request);
    // The batch edit is disabled in v10 (docs/v10-behaviour.md#endpoints): a clear refusal, nothing changed.
    throw apiError('BatchEditDisabled');
  });

  api.get<{ Params: TargetParams }>(`${base}/:commandId/permissions`, { config: { auth: 'app' } }, async (request) => {
    const { app, guild } = await resolve(request);
    return ctx.permissions.get(app, guild, request.params.commandId);
  });

  api.put<{ Params: TargetParams }>(`${base}/:commandId/permissions`, { config: { auth: 'app' } }, async (request) => {
    const { principal, app, guild } = await resolve(request);
    return ctx.permissions.put(app, guild, editor(principal), request.params.commandId, request.body);
  });
}
