/**
 * Command permissions (v10 API, Command permission endpoints; docs/v10-behaviour.md#endpoints). Reads take the bot
 * token or a Bearer token of the app; edits only a Bearer token with
 * `applications.commands.permissions.update`, for a user who may make them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, JsonCode, missingAccess, unauthorized } from '../../core/errors.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { Guild, User } from '../../core/world/types.js';
import type { StoredApplication } from '../../store/store.js';
import {
  authenticate,
  missingScope,
  notAuthorizedForApplication,
  SCOPE_PERMISSIONS_UPDATE,
  type Principal,
} from '../auth.js';
import type { HttpContext } from '../context.js';

interface GuildParams {
  applicationId: string;
  guildId: string;
}

interface TargetParams extends GuildParams {
  commandId: string;
}

const botsCannotUseEndpoint = () => new ApiError(403, JsonCode.BotsCannotUseEndpoint, 'Bots cannot use this endpoint');

/** The batch edit is disabled in v10 (docs/v10-behaviour.md#endpoints): a clear refusal, nothing changed. */
const batchEditDisabled = () =>
  new ApiError(405, 0, 'Batch editing application command permissions is disabled; edit them per command.');

export async function commandPermissionRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function resolve(
    request: FastifyRequest<{ Params: GuildParams }>,
  ): Promise<{ principal: Principal; app: StoredApplication; guild: Guild }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind === 'user') throw unauthorized();
    if (principal.app.id !== request.params.applicationId) throw notAuthorizedForApplication();
    const guild = isSnowflake(request.params.guildId) ? await ctx.store.world.getGuild(request.params.guildId) : null;
    if (!guild || !isInstalledForCommands(guild, principal.app.id)) throw missingAccess();
    return { principal, app: principal.app, guild };
  }

  function editor(principal: Principal): User {
    if (principal.kind === 'bot') throw botsCannotUseEndpoint();
    if (principal.kind !== 'bearer' || !principal.token.scopes.includes(SCOPE_PERMISSIONS_UPDATE)) throw missingScope();
    // Only a user grants this scope: a token without a user (client credentials, stored before
    // the scope was refused there) never edits permissions as if the owner had granted it.
    if (principal.token.user_id === null) throw missingScope();
    if (!principal.user) throw unauthorized();
    return principal.user;
  }

  const base = '/applications/:applicationId/guilds/:guildId/commands';

  api.get<{ Params: GuildParams }>(`${base}/permissions`, { config: { auth: 'app' } }, async (request) => {
    const { app, guild } = await resolve(request);
    return ctx.permissions.list(app, guild);
  });

  api.put<{ Params: GuildParams }>(`${base}/permissions`, { config: { auth: 'app' } }, async (request) => {
    await resolve(request);
    throw batchEditDisabled();
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
