/**
 * Invites (v10 Invite endpoints): `POST/GET /channels/{id}/invites`, `GET /guilds/{id}/invites`,
 * `GET/DELETE /invites/{code}`, and the client's accept, `POST /invites/{code}` (a user's token;
 * bots cannot join guilds by invite, as in v10). Who may do what is the service's.
 */
import type { FastifyInstance } from 'fastify';
import type { InvitesService } from './service.js';
import { auditLogReason } from '../bans/rules.js';
import { principalOf, requireAnyCaller, requireUserOrBot, userOf, viewerOf } from '../../http/guards.js';
import { apiError } from '../../core/io/errors.js';
import { queryFlag } from '../../http/query.js';

export interface InviteRoutesOptions {
  invites: InvitesService;
}

/** An invite body is a few fields. */
const INVITE_BODY_LIMIT_BYTES = 4 * 1024;

/** A bot or a user of the client; an OAuth2 bearer token manages no invite (v10: 401). */
const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

interface CodeParams {
  code: string;
}

export async function inviteRoutes(api: FastifyInstance, { invites }: InviteRoutesOptions): Promise<void> {
  api.post<{ Params: { channelId: string } }>(
    '/channels/:channelId/invites',
    { ...READER, bodyLimit: INVITE_BODY_LIMIT_BYTES },
    async (request) =>
      invites.create(
        viewerOf(request),
        request.params.channelId,
        request.body,
        auditLogReason(request.headers['x-audit-log-reason']),
      ),
  );

  api.get<{ Params: { channelId: string } }>('/channels/:channelId/invites', READER, async (request) =>
    invites.listChannel(viewerOf(request), request.params.channelId),
  );

  api.get<{ Params: { guildId: string } }>('/guilds/:guildId/invites', READER, async (request) =>
    invites.listGuild(viewerOf(request), request.params.guildId),
  );

  api.get<{ Params: CodeParams; Querystring: { with_counts?: string } }>(
    '/invites/:code',
    { onRequest: requireAnyCaller },
    async (request) => invites.get(request.params.code, { withCounts: queryFlag(request.query.with_counts) }),
  );

  api.delete<{ Params: CodeParams }>('/invites/:code', READER, async (request) =>
    invites.delete(viewerOf(request), request.params.code, auditLogReason(request.headers['x-audit-log-reason'])),
  );

  /** The client's accept: a user joins the invite's guild. */
  api.post<{ Params: CodeParams }>(
    '/invites/:code',
    { onRequest: requireAnyCaller, bodyLimit: INVITE_BODY_LIMIT_BYTES },
    async (request) => {
      if (principalOf(request).kind !== 'user') throw apiError('BotsCannotUseEndpoint');
      return invites.accept(userOf(request), request.params.code);
    },
  );
}
