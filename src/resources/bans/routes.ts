/**
 * Guild bans for bots (v10 Guild Ban endpoints): `PUT/GET/DELETE /guilds/{g}/bans/{u}`, `GET
 * /guilds/{g}/bans` (paged) and `POST /guilds/{g}/bulk-ban`. The reason comes from
 * `X-Audit-Log-Reason`; who may ban whom is the service's (BAN_MEMBERS, the role hierarchy).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_BANS_PAGE, auditLogReason } from './rules.js';
import type { BansService } from './service.js';
import { appOf, requireBot } from '../../http/guards.js';
import type { IntegerParam } from '../../core/world/page-query.js';
import { readPage, type PagingQuery } from '../../http/paging.js';

export interface BanRoutesOptions {
  bans: BansService;
}

interface BanParams {
  guildId: string;
  userId: string;
}

/** `GET /guilds/{id}/bans`: `limit` 1-1000, default 1000 (v10). */
const BANS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: MAX_BANS_PAGE, fallback: MAX_BANS_PAGE };

/** Ban bodies are a few fields; a bulk ban names at most 200 ids. */
const BAN_BODY_LIMIT_BYTES = 16 * 1024;

const BOT = { onRequest: requireBot };

export async function banRoutes(api: FastifyInstance, { bans }: BanRoutesOptions): Promise<void> {
  api.get<{ Params: { guildId: string }; Querystring: PagingQuery }>('/guilds/:guildId/bans', BOT, async (request) => {
    const page = readPage(request.query, BANS_LIMIT, ['before', 'after']);
    return bans.list(appOf(request).id, request.params.guildId, {
      before: page.before ?? null,
      after: page.after ?? null,
      limit: page.limit,
    });
  });

  api.get<{ Params: BanParams }>('/guilds/:guildId/bans/:userId', BOT, async (request) =>
    bans.get(appOf(request).id, request.params.guildId, request.params.userId),
  );

  api.put<{ Params: BanParams }>(
    '/guilds/:guildId/bans/:userId',
    { ...BOT, bodyLimit: BAN_BODY_LIMIT_BYTES },
    async (request, reply) => {
      const { guildId, userId } = request.params;
      const reason = auditLogReason(request.headers['x-audit-log-reason']);
      await bans.ban(appOf(request).id, guildId, userId, request.body, reason);
      return reply.code(204).send();
    },
  );

  api.delete<{ Params: BanParams }>('/guilds/:guildId/bans/:userId', BOT, async (request, reply) => {
    const reason = auditLogReason(request.headers['x-audit-log-reason']);
    await bans.unban(appOf(request).id, request.params.guildId, request.params.userId, reason);
    return reply.code(204).send();
  });

  api.post<{ Params: { guildId: string } }>(
    '/guilds/:guildId/bulk-ban',
    { ...BOT, bodyLimit: BAN_BODY_LIMIT_BYTES },
    async (request) => {
      const reason = auditLogReason(request.headers['x-audit-log-reason']);
      return bans.bulkBan(appOf(request).id, request.params.guildId, request.body, reason);
    },
  );
}
