/**
 * Guild members for bots (v10 Guild Member endpoints): `PATCH /guilds/{g}/members/{u}` (nickname,
 * roles, timeout, voice flags), `PATCH /guilds/{g}/members/@me` (the bot's nickname), `PUT/DELETE
 * /guilds/{g}/members/{u}/roles/{r}`, `DELETE /guilds/{g}/members/{u}` (kick) and `GET
 * /guilds/{g}/members/search`. The reason comes from `X-Audit-Log-Reason`; who may do what to whom
 * is the service's (the bot's permissions and the role hierarchy).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditLogReason } from '../bans/rules.js';
import type { MembersService } from './service.js';
import { appOf, requireBot } from '../../http/guards.js';

export interface MemberRoutesOptions {
  members: MembersService;
}

interface MemberParams {
  guildId: string;
  userId: string;
}

/** A member edit names a few fields and at most 250 roles (about 6 KiB). */
const MEMBER_BODY_LIMIT_BYTES = 16 * 1024;

const BOT = { onRequest: requireBot };
const BOT_WITH_BODY = { ...BOT, bodyLimit: MEMBER_BODY_LIMIT_BYTES };

function reasonOf(request: FastifyRequest): string | null {
  return auditLogReason(request.headers['x-audit-log-reason']);
}

export async function memberRoutes(api: FastifyInstance, { members }: MemberRoutesOptions): Promise<void> {
  api.get<{ Params: { guildId: string }; Querystring: Partial<Record<'query' | 'limit', unknown>> }>(
    '/guilds/:guildId/members/search',
    BOT,
    async (request) => members.search(appOf(request).id, request.params.guildId, request.query),
  );

  api.patch<{ Params: { guildId: string } }>('/guilds/:guildId/members/@me', BOT_WITH_BODY, async (request) =>
    members.editOwnNick(appOf(request).id, request.params.guildId, request.body, reasonOf(request)),
  );

  api.patch<{ Params: MemberParams }>('/guilds/:guildId/members/:userId', BOT_WITH_BODY, async (request) => {
    const { guildId, userId } = request.params;
    return members.edit(appOf(request).id, guildId, userId, request.body, reasonOf(request));
  });

  api.delete<{ Params: MemberParams }>('/guilds/:guildId/members/:userId', BOT, async (request, reply) => {
    await members.kick(appOf(request).id, request.params.guildId, request.params.userId, reasonOf(request));
    return reply.code(204).send();
  });

  for (const [method, give] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    api.route<{ Params: MemberParams & { roleId: string } }>({
      method,
      url: '/guilds/:guildId/members/:userId/roles/:roleId',
      ...BOT_WITH_BODY,
      handler: async (request, reply) => {
        const { guildId, userId, roleId } = request.params;
        await members.setRole(appOf(request).id, guildId, userId, roleId, give, reasonOf(request));
        return reply.code(204).send();
      },
    });
  }
}
