/** Prune (v10): `GET /guilds/{id}/prune` (the count) and `POST /guilds/{id}/prune`, for bots. */
import type { FastifyInstance } from 'fastify';
import { appOf, requireBot } from '../../http/guards.js';
import { auditLogReason } from '../bans/rules.js';
import type { PruneService } from './prune-service.js';

export interface PruneRoutesOptions {
  prune: PruneService;
}

/** A prune body is a few fields and at most 250 role ids. */
const PRUNE_BODY_LIMIT_BYTES = 16 * 1024;

export async function pruneRoutes(api: FastifyInstance, { prune }: PruneRoutesOptions): Promise<void> {
  api.get<{ Params: { guildId: string }; Querystring: { days?: string; include_roles?: string } }>(
    '/guilds/:guildId/prune',
    { onRequest: requireBot },
    async (request) => prune.count(appOf(request).id, request.params.guildId, request.query),
  );

  api.post<{ Params: { guildId: string } }>(
    '/guilds/:guildId/prune',
    { onRequest: requireBot, bodyLimit: PRUNE_BODY_LIMIT_BYTES },
    async (request) =>
      prune.prune(
        appOf(request).id,
        request.params.guildId,
        request.body,
        auditLogReason(request.headers['x-audit-log-reason']),
      ),
  );
}
