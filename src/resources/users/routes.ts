/**
 * Users as others see them (`GET /users/{id}`), the caller's guilds (`GET /users/@me/guilds`): a
 * bot's are the guilds it is in, a user's those they are a member of (through a Bearer token only
 * with the `guilds` scope, as in v10), and a bot's edit of itself (`PATCH /users/@me`) with the
 * images it sets, served outside the API as v10's CDN serves them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { GuildsService } from '../guilds/service.js';
import type { WebhooksService } from '../webhooks/service.js';
import { appOf, principalOf, requireAnyCaller, requireBot } from '../../http/guards.js';
import { BOT_PROFILE_BODY_LIMIT_BYTES, type BotImage } from './rules.js';
import type { BotProfileService } from './service.js';
import { GUILDS_LIMIT, readPage, type PagingQuery } from '../../http/paging.js';
import { queryFlag } from '../../http/query.js';

/** The OAuth2 scope that lets a Bearer token list its user's guilds. */
const GUILDS_SCOPE = 'guilds';

export interface UserRoutesOptions {
  guilds: GuildsService;
  botProfiles: BotProfileService;
}

export interface UserImageRoutesOptions {
  botProfiles: BotProfileService;
  webhooks: WebhooksService;
}

/** Whose guilds a token lists. */
function guildsViewer(request: FastifyRequest): Viewer {
  const principal = principalOf(request);
  if (principal.kind === 'bot') return { kind: 'bot', applicationId: principal.app.id };
  if (principal.kind === 'user') return { kind: 'user', userId: principal.user.id };
  if (!principal.token.scopes.includes(GUILDS_SCOPE) || !principal.token.user_id) throw apiError('MissingOAuth2Scope');
  return { kind: 'user', userId: principal.token.user_id };
}

export async function userRoutes(api: FastifyInstance, { guilds, botProfiles }: UserRoutesOptions): Promise<void> {
  /** A bot renames itself or sets its avatar and banner (`GET /users/@me` is the applications resource's). */
  api.patch('/users/@me', { onRequest: requireBot, bodyLimit: BOT_PROFILE_BODY_LIMIT_BYTES }, async (request) =>
    botProfiles.update(appOf(request), request.body),
  );

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

interface ImageParams {
  userId: string;
  file: string;
}

function sendImage(reply: FastifyReply, image: BotImage) {
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', 'public, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(image.bytes));
}

/**
 * `/avatars/{id}/{hash}.{ext}` (a bot's or a webhook's: v10's CDN has one path for both) and
 * `/banners/{id}/{hash}.{ext}`, outside the API and without a token, as v10's CDN serves them.
 */
export async function userImageRoutes(
  app: FastifyInstance,
  { botProfiles, webhooks }: UserImageRoutesOptions,
): Promise<void> {
  app.get<{ Params: ImageParams }>('/avatars/:userId/:file', async (request, reply) => {
    const { userId, file } = request.params;
    return sendImage(reply, (await botProfiles.image(userId, 'avatar', file)) ?? (await webhooks.avatar(userId, file)));
  });
  app.get<{ Params: ImageParams }>('/banners/:userId/:file', async (request, reply) => {
    const image = await botProfiles.image(request.params.userId, 'banner', request.params.file);
    if (!image) throw apiError('NotFound');
    return sendImage(reply, image);
  });
}
