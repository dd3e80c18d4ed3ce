/**
 * Global and guild application commands (v10 API, Endpoints; docs/v10-behaviour.md#endpoints). One handler set
 * serves both scopes: a guild id in the path narrows the scope and requires the app's install.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CommandScope } from '../../core/commands/model.js';
import { DICTIONARIES, toWireCommand, type LocalizationView } from './rules/wire.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { CommandsService } from './service.js';
import type { Principal } from '../applications/principal-lookup.js';
import {
  appOf,
  principalOf,
  requireApp,
  requireAppInGuild,
  requireCommandsCaller,
  type InstalledGuilds,
} from '../../http/guards.js';
import { COMMANDS_BODY_LIMIT_BYTES } from '../../http/limits.js';
import { queryFlag, strictQueryFlag } from '../../http/query.js';
import { DRY_RUN_INVALID } from '../../core/io/codes.js';
import { issue } from '../../core/io/issue.js';
import { requesterLocale } from '../../http/requester-locale.js';

export interface ApplicationCommandRoutesOptions {
  commands: CommandsService;
  guilds: InstalledGuilds;
}

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

/**
 * `?dry_run=true` (slashd's own, docs/faults.md#dry-run-and-deploy): the bulk overwrite is planned and
 * reported, never written. Any value but a query boolean is refused (50035 at `dry_run`).
 */
function dryRunOf(request: FastifyRequest): boolean {
  const flag = strictQueryFlag((request.query as Record<string, unknown>).dry_run, false);
  if (flag === null) throw invalidFormBody([issue(['dry_run'], DRY_RUN_INVALID, 'Must be true or false.')]);
  return flag;
}

/** The scope the path names; the guards have checked the caller may act in it. */
function scopeOf(request: FastifyRequest<{ Params: ScopeParams }>): CommandScope {
  return { applicationId: request.params.applicationId, guildId: request.params.guildId ?? null };
}

export async function applicationCommandRoutes(
  api: FastifyInstance,
  { commands, guilds }: ApplicationCommandRoutesOptions,
): Promise<void> {
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
    const json = await commands.listJson(scopeOf(request), listView(request, principalOf(request)));
    return reply.type('application/json').send(json);
  };

  const create = async (request: FastifyRequest<{ Params: ScopeParams }>, reply: FastifyReply) => {
    const { created, command } = await commands.create(appOf(request), scopeOf(request), request.body);
    return reply.code(created ? 201 : 200).send(toWireCommand(command));
  };

  const bulkOverwrite = async (request: FastifyRequest<{ Params: ScopeParams }>, reply: FastifyReply) => {
    if (dryRunOf(request)) {
      return reply.send(await commands.bulkOverwriteDryRun(appOf(request), scopeOf(request), request.body));
    }
    const written = await commands.bulkOverwrite(appOf(request), scopeOf(request), request.body);
    return reply.send(written.map((c) => toWireCommand(c)));
  };

  const get = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    checkCommandId(request.params.commandId);
    return reply.send(toWireCommand(await commands.get(scopeOf(request), request.params.commandId)));
  };

  const edit = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    checkCommandId(request.params.commandId);
    const { commandId } = request.params;
    return reply.send(toWireCommand(await commands.edit(appOf(request), scopeOf(request), commandId, request.body)));
  };

  const remove = async (request: FastifyRequest<{ Params: CommandParams }>, reply: FastifyReply) => {
    checkCommandId(request.params.commandId);
    await commands.delete(scopeOf(request), request.params.commandId);
    return reply.code(204).send();
  };

  const global = { onRequest: requireApp, preHandler: [requireCommandsCaller] };
  const inGuild = { onRequest: requireApp, preHandler: [requireCommandsCaller, requireAppInGuild(guilds)] };
  for (const [base, guards] of [
    ['/applications/:applicationId/commands', global],
    ['/applications/:applicationId/guilds/:guildId/commands', inGuild],
  ] as const) {
    const read = { schema: { params: scopeParamsSchema }, ...guards };
    const write = { ...read, bodyLimit: COMMANDS_BODY_LIMIT_BYTES };
    api.get<{ Params: ScopeParams }>(base, read, list);
    api.post<{ Params: ScopeParams }>(base, write, create);
    api.put<{ Params: ScopeParams }>(base, write, bulkOverwrite);
    api.get<{ Params: CommandParams }>(`${base}/:commandId`, read, get);
    api.patch<{ Params: CommandParams }>(`${base}/:commandId`, write, edit);
    api.delete<{ Params: CommandParams }>(`${base}/:commandId`, read, remove);
  }
}
