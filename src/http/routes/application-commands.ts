/**
 * Global and guild application commands (v10 API, Endpoints; docs/v10-behaviour.md#endpoints). One handler set
 * serves both scopes: a guild id in the path narrows the scope and requires the app's install.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CommandScope } from '../../core/commands/model.js';
import { DICTIONARIES, toWireCommand, type LocalizationView } from '../../core/commands/wire.js';
import { apiError } from '../../core/io/errors.js';
import { isSnowflake } from '../../core/snowflake.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import { COMMANDS_BODY_LIMIT_BYTES } from '../limits.js';
import { authenticate, requireCommandsCaller, type Principal } from '../auth.js';
import type { HttpContext } from '../context.js';
import { queryFlag } from '../query.js';
import { requesterLocale } from '../requester-locale.js';
import type { StoredApplication } from '../../store/store.js';

interface ScopeParams {
  applicationId: string;
  guildId?: string;
}

interface CommandParams extends ScopeParams {
  commandId: string;
}

/** Path params every route here shares; ids are checked by hand so that errors stay v10's. */
const scopeParamsSchema = {
  type: 'object',
  properties: { applicationId: { type: 'string' }, guildId: { type: 'string' }, commandId: { type: 'string' } },
} as const;

interface Caller {
  app: StoredApplication;
  principal: Principal;
  scope: CommandScope;
}

export async function applicationCommandRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function resolveCaller(request: FastifyRequest<{ Params: ScopeParams }>): Promise<Caller> {
    const { applicationId, guildId } = request.params;
    const { app, principal } = requireCommandsCaller(
      await authenticate(ctx.store, request.headers.authorization),
      applicationId,
    );
    if (guildId === undefined) return { app, principal, scope: { applicationId, guildId: null } };
    const guild = isSnowflake(guildId) ? await ctx.store.getGuild(guildId) : null;
    if (!guild || !isInstalledForCommands(guild, app.id)) throw apiError('MissingAccess');
    return { app, principal, scope: { applicationId, guildId } };
  }

  function listView(request: FastifyRequest, principal: Principal): LocalizationView {
    const query = request.query as Record<string, unknown>;
    if (queryFlag(query.with_localizations)) return DICTIONARIES;
    const userLocale = principal.kind === 'bot' ? null : principal.user?.locale;
    const locale = requesterLocale(request, userLocale);
    return { kind: 'localized', locale };
  }

  function checkCommandId(commandId: string): void {
    if (!isSnowflake(commandId)) throw apiError('UnknownApplicationCommand');
  }

  const list = async (request: FastifyRequest<{ Params: ScopeParams }>, reply: FastifyReply) => {
    const { principal, scope } = await resolveCaller(request);
    const json = await ctx.commands.listJson(scope, listView(request, principal));
    return reply.type('application/json').send(json);
  };

  const create = async (request: FastifyRequest<{ Params: ScopeParams }>, reply: FastifyReply) => {
    const { app, scope } = await resolveCaller(request);
    const { created, command } = await ctx.commands.create(app, scope, request.body);
    return reply.code(created ? 201 : 200).send(toWireCommand(command));
  };

  const bulkOverwrite = async (request: FastifyRequest<{ Params: ScopeParams }>, reply: FastifyReply) => {
    const { app, scope } = await resolveCaller(request);
    const commands = await ctx.commands.bulkOverwrite(app, scope, request.body);
    return reply.send(commands.map((c) => toWireCommand(c)));
  };

  const get = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    const { scope } = await resolveCaller(request);
    checkCommandId(request.params.commandId);
    return reply.send(toWireCommand(await ctx.commands.get(scope, request.params.commandId)));
  };

  const edit = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    const { app, scope } = await resolveCaller(request);
    checkCommandId(request.params.commandId);
    return reply.send(toWireCommand(await ctx.commands.edit(app, scope, request.params.commandId, request.body)));
  };

  const remove = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    const { scope } = await resolveCaller(request);
    checkCommandId(request.params.commandId);
    await ctx.commands.delete(scope, request.params.commandId);
    return reply.code(204).send();
  };

  for (const base of [
    '/applications/:applicationId/commands',
    '/applications/:applicationId/guilds/:guildId/commands',
  ]) {
    const schema = { params: scopeParamsSchema };
    const config = { auth: 'app' } as const;
    const write = { schema, config, bodyLimit: COMMANDS_BODY_LIMIT_BYTES };
    api.get(base, { schema, config }, list);
    api.post(base, write, create);
    api.put(base, write, bulkOverwrite);
    api.get(`${base}/:commandId`, { schema, config }, get);
    api.patch(`${base}/:commandId`, write, edit);
    api.delete(`${base}/:commandId`, { schema, config }, remove);
  }
}
