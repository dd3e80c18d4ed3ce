/**
 * A guild's roles (v10 Guild Role endpoints): `GET /guilds/{g}/roles/{r}` for any reader of the
 * guild (the list is in `guilds.ts`); creating, editing, moving (`PATCH /guilds/{g}/roles`) and
 * deleting for bots, with the checks the service makes (MANAGE_ROLES, the role hierarchy).
 */
import type { FastifyInstance } from 'fastify';
import type { RolesService } from './service.js';
import { appOf, requireAnyCaller, requireBot, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import { reasonOf } from '../../http/audit-reason.js';

export interface RoleRoutesOptions {
  roles: RolesService;
}

interface GuildParams {
  guildId: string;
}
interface RoleParams extends GuildParams {
  roleId: string;
}

/** A role body is a few fields; a reorder names at most every role of a guild (250). */
export const ROLE_BODY_LIMIT_BYTES = 64 * 1024;

const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
const BOT_WRITE = { onRequest: requireBot, bodyLimit: ROLE_BODY_LIMIT_BYTES };

export async function roleRoutes(api: FastifyInstance, { roles }: RoleRoutesOptions): Promise<void> {
  // discord.py sends ids as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.get<{ Params: RoleParams }>('/guilds/:guildId/roles/:roleId', READER, async (request) =>
    roles.get(viewerOf(request), request.params.guildId, request.params.roleId),
  );

  api.post<{ Params: GuildParams }>('/guilds/:guildId/roles', BOT_WRITE, async (request) =>
    roles.create(appOf(request).id, request.params.guildId, request.body, reasonOf(request)),
  );

  api.patch<{ Params: GuildParams }>('/guilds/:guildId/roles', BOT_WRITE, async (request) =>
    roles.reorder(appOf(request).id, request.params.guildId, request.body, reasonOf(request)),
  );

  api.patch<{ Params: RoleParams }>('/guilds/:guildId/roles/:roleId', BOT_WRITE, async (request) =>
    roles.edit(appOf(request).id, request.params.guildId, request.params.roleId, request.body, reasonOf(request)),
  );

  api.delete<{ Params: RoleParams }>(
    '/guilds/:guildId/roles/:roleId',
    { onRequest: requireBot },
    async (request, reply) => {
      await roles.delete(appOf(request).id, request.params.guildId, request.params.roleId, reasonOf(request));
      return reply.code(204).send();
    },
  );
}
