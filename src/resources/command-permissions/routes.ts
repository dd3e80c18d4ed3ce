/**
 * Command permissions (v10 API, Command permission endpoints; docs/v10-behaviour.md#endpoints). Reads take the bot
 * token or a Bearer token of the app; edits only a Bearer token with
 * `applications.commands.permissions.update`, for a user who may make them. A user's own session
 * (`Authorization: <token>`, as v10's client sends it from the server settings) reads and edits
 * them too, as a member who may manage them (docs/permissions.md#the-user-session).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { CommandPermissionType } from '../../core/permissions/command-permissions.js';
import type { Application, User } from '../../core/world/types.js';
import type { PermissionsService } from './service.js';
import { Scope } from '../oauth2/rules/scopes.js';
import { guard } from '../../http/authentication.js';
import {
  appOf,
  guildOf,
  missingGuard,
  principalOf,
  requireAnyCaller,
  requireAppInGuild,
  type InstalledGuilds,
} from '../../http/guards.js';

/** The path's guild if the app is installed there, and the app, for a user session. */
export interface PermissionTargets extends InstalledGuilds {
  getApplication(applicationId: string): Promise<Application | null>;
}

export interface CommandPermissionRoutesOptions {
  permissions: PermissionsService;
  guilds: PermissionTargets;
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
  if (principal.kind === 'user') return;
  if (principal.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
  if (principal.kind !== 'bearer' || !principal.token.scopes.includes(Scope.CommandsPermissionsUpdate))
    throw apiError('MissingOAuth2Scope');
  if (principal.token.user_id === null) throw apiError('MissingOAuth2Scope');
  if (!principal.user) throw apiError('Unauthorized');
});

/** The user editing, after `requirePermissionsEditor`: the session's user or the Bearer token's. */
function editorOf(request: FastifyRequest): User {
  const principal = principalOf(request);
  if (principal.kind === 'user') return principal.user;
  if (principal.kind !== 'bearer' || !principal.user) throw missingGuard('the editor');
  return principal.user;
}

/** The user of a session reading permissions; null when the app reads its own. */
function sessionUserOf(request: FastifyRequest): User | null {
  const principal = principalOf(request);
  return principal.kind === 'user' ? principal.user : null;
}

/** The path's app, for a user session, found by `inGuildFor` (apps calling are their principal). */
const sessionApps = new WeakMap<FastifyRequest, Application>();

function targetAppOf(request: FastifyRequest): Application {
  const principal = principalOf(request);
  if (principal.kind !== 'user') return appOf(request);
  const app = sessionApps.get(request);
  if (!app) throw missingGuard("the path's application");
  return app;
}

/** At most this many of a body's overwrites are looked up as members (v10 allows 100 per command). */
const MAX_NAMED_MEMBERS = 100;

/**
 * The members a permissions request reads: the acting user's, and those its body names (checked
 * as members); the guild's other members are not read.
 */
function membersNamedBy(request: FastifyRequest): string[] {
  const principal = principalOf(request);
  const acting = principal.kind === 'bot' ? [] : principal.user ? [principal.user.id] : [];
  const body = request.body as { permissions?: unknown } | null | undefined;
  const overwrites = body && typeof body === 'object' && Array.isArray(body.permissions) ? body.permissions : [];
  const named = (overwrites as unknown[]).flatMap((overwrite) => {
    const { id, type } = (overwrite ?? {}) as { id?: unknown; type?: unknown };
    return type === CommandPermissionType.User && typeof id === 'string' ? [id] : [];
  });
  return [...acting, ...named.slice(0, MAX_NAMED_MEMBERS)];
}

/**
 * preHandler: an app caller as `requireAppInGuild` admits it; a user session when the path's app
 * is installed in the path's guild for commands (else Missing Access, as for an app). Whether the
 * user may manage the guild's command permissions is the service's to decide.
 */
function requireTargetInGuild(guilds: PermissionTargets): ReturnType<typeof requireAppInGuild> {
  const inGuild = requireAppInGuild(guilds, membersNamedBy);
  return guard(async (request: FastifyRequest, reply) => {
    if (principalOf(request).kind !== 'user') return inGuild(request, reply);
    const { applicationId, guildId } = request.params as { applicationId: string; guildId: string };
    const guild = await guilds.installedGuild(applicationId, guildId, membersNamedBy(request));
    const app = guild && (await guilds.getApplication(applicationId));
    if (!guild || !app) throw apiError('MissingAccess');
    request.guild = guild;
    sessionApps.set(request, app);
  });
}

export async function commandPermissionRoutes(
  api: FastifyInstance,
  { permissions, guilds }: CommandPermissionRoutesOptions,
): Promise<void> {
  const base = '/applications/:applicationId/guilds/:guildId/commands';
  const inGuild = requireTargetInGuild(guilds);
  const read = { onRequest: requireAnyCaller, preHandler: [inGuild] };
  const edit = { onRequest: requireAnyCaller, preHandler: [inGuild, requirePermissionsEditor] };

  api.get<{ Params: GuildParams }>(`${base}/permissions`, read, async (request) =>
    permissions.list(targetAppOf(request), guildOf(request), sessionUserOf(request)),
  );

  api.put<{ Params: GuildParams }>(`${base}/permissions`, read, async () => {
    throw apiError('BatchEditDisabled');
  });

  api.get<{ Params: TargetParams }>(`${base}/:commandId/permissions`, read, async (request) =>
    permissions.get(targetAppOf(request), guildOf(request), request.params.commandId, sessionUserOf(request)),
  );

  api.put<{ Params: TargetParams }>(`${base}/:commandId/permissions`, edit, async (request) =>
    permissions.put(targetAppOf(request), guildOf(request), editorOf(request), request.params.commandId, request.body),
  );
}
