/**
 * Joining and leaving guilds (v10): `PUT /guilds/{g}/members/{u}` (a bot, with the user's
 * `guilds.join` token in the body), `DELETE /users/@me/guilds/{g}` (a user or a bot leaves), and
 * `GET /users/@me/guilds/{g}/member` (a user, or a Bearer token with `guilds.members.read`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { appOf, principalOf, requireAnyCaller, requireBot, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { Scope } from '../oauth2/rules/scopes.js';
import type { JoiningService } from './joining-service.js';

export interface JoiningRoutesOptions {
  joining: JoiningService;
}

/** A member body is a token, a nickname and a few roles. */
const MEMBER_ADD_BODY_LIMIT_BYTES = 16 * 1024;

/** The user whose member is read: a user's own token, or a Bearer token granted `guilds.members.read`. */
function memberReader(request: FastifyRequest): string {
  const principal = principalOf(request);
  if (principal.kind === 'user') return principal.user.id;
  if (principal.kind === 'bearer' && principal.token.user_id) {
    if (!principal.token.scopes.includes(Scope.GuildsMembersRead)) throw apiError('MissingOAuth2Scope');
    return principal.token.user_id;
  }
  throw apiError('Unauthorized');
}

export async function joiningRoutes(api: FastifyInstance, { joining }: JoiningRoutesOptions): Promise<void> {
  api.put<{ Params: { guildId: string; userId: string } }>(
    '/guilds/:guildId/members/:userId',
    { onRequest: requireBot, bodyLimit: MEMBER_ADD_BODY_LIMIT_BYTES },
    async (request, reply) => {
      const { guildId, userId } = request.params;
      const member = await joining.addMember(appOf(request).id, guildId, userId, request.body);
      return member ? reply.code(201).send(member) : reply.code(204).send();
    },
  );

  api.delete<{ Params: { guildId: string } }>(
    '/users/@me/guilds/:guildId',
    { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] },
    async (request, reply) => {
      await joining.leave(viewerOf(request), request.params.guildId);
      return reply.code(204).send();
    },
  );

  api.get<{ Params: { guildId: string } }>(
    '/users/@me/guilds/:guildId/member',
    { onRequest: requireAnyCaller },
    async (request) => joining.ownMember(memberReader(request), request.params.guildId),
  );
}
