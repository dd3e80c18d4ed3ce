/**
 * `GET /guilds/{g}/audit-logs` for bots (v10 Get Guild Audit Log): filtered by who acted
 * (`user_id`), the action (`action_type`), `before`/`after` an entry, `limit` 1-100. Who may read
 * it is the service's (the bot in the guild, VIEW_AUDIT_LOG).
 */
import type { FastifyInstance } from 'fastify';
import type { AuditLog, AuditLogQueryText } from './service.js';
import { appOf, requireBot } from '../../http/guards.js';

export interface AuditLogRoutesOptions {
  auditLog: AuditLog;
}

export async function auditLogRoutes(api: FastifyInstance, { auditLog }: AuditLogRoutesOptions): Promise<void> {
  api.get<{ Params: { guildId: string }; Querystring: AuditLogQueryText }>(
    '/guilds/:guildId/audit-logs',
    { onRequest: requireBot },
    async (request) => auditLog.read(appOf(request).id, request.params.guildId, request.query),
  );
}
