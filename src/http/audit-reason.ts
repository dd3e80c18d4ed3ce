/** The reason a request gives for its audit log entry: `X-Audit-Log-Reason`, URL-decoded. */
import type { FastifyRequest } from 'fastify';
import { auditLogReason } from '../resources/bans/rules.js';

export function reasonOf(request: FastifyRequest): string | null {
  return auditLogReason(request.headers['x-audit-log-reason']);
}
