/**
 * Users as others see them (`GET /users/{id}`) and the caller's guilds (`GET /users/@me/guilds`):
 * a bot's are the guilds it is in, a user's those they are a member of (through a Bearer token
 * only with the `guilds` scope, as in v10).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { GuildsService } from '../guilds/service.js';
import { principalOf, requireAnyCaller } from '../../http/guards.js';
import { GUILDS_LIMIT, readPage, type PagingQuery } from '../../http/paging.js';
import { queryFlag } from '../../http/query.js';

/** The OAuth2 scope that lets a Bearer token list its user's guilds. */
const GUILDS_SCOPE = 'guilds';

export interface UserRoutesOptions {
  guilds: GuildsService;
}

/** Whose guilds a token lists. */
function guildsViewer(request: FastifyRequest): Viewer {
  const principal = principalOf(request);
  if (principal.kind === 'bot') return { kind: 'bot', applicationId: principal.app.id };
  if (principal.kind === 'user') return { kind: 'user', userId: principal.user.id };
  if (!principal.token.scopes.includes(GUILDS_SCOPE) || !principal.token.user_id) throw apiError('MissingOAuth2Scope');
  return { kind: 'user', userId: principal.token.user_id };
}

export async function userRoutes(api: FastifyInstance, { guilds }: UserRoutesOptions): Promise<void> {
  /** v10: ascending by id, `before` or `after` a guild id, at most `limit` (1-200, default 200). */
  api.get<{ Querystring: PagingQuery & { with_counts?: string } }>(
    '/users/@me/guilds',
    { onRequest: requireAnyCaller },
    async (request) => {
      const viewer = guildsViewer(request);
      const page = readPage(request.query, GUILDS_LIMIT, ['before', 'after']);
      return guilds.myGuilds(viewer, page, queryFlag(request.query.with_counts));
    },
  );

  /** Any user (or a bot, by its application id) to any caller, as in v10. */
  api.get<{ Params: { userId: string } }>('/users/:userId', { onRequest: requireAnyCaller }, async (request) =>
    guilds.user(request.params.userId),
  );
}
