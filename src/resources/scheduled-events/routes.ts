/**
 * Guild scheduled events (v10): `GET/POST /guilds/{g}/scheduled-events`, `GET/PATCH/DELETE
 * /guilds/{g}/scheduled-events/{e}`, its interested users `GET .../users` (paged), and the route the
 * client uses to mark its user interested, `PUT/DELETE .../users/@me`. Covers are served outside the
 * API, at the CDN's path, to anyone who has the URL (as v10's CDN serves them).
 */
import type { FastifyInstance } from 'fastify';
import { reasonOf } from '../../http/audit-reason.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import { requireAnyCaller, requireBot, requireUser, requireUserOrBot, userOf, viewerOf } from '../../http/guards.js';
import { readPage, type PagingQuery } from '../../http/paging.js';
import type { IntegerParam } from '../../core/world/page-query.js';
import { queryFlag } from '../../http/query.js';
import { apiError } from '../../core/io/errors.js';
import { EVENT_IMAGE_BYTES_MAX } from './rules/body.js';
import type { ScheduledEventsService } from './service.js';

export interface ScheduledEventRoutesOptions {
  scheduledEvents: ScheduledEventsService;
}

interface GuildParams {
  guildId: string;
}
interface EventParams extends GuildParams {
  eventId: string;
}

/** `GET .../users`: `limit` 1-100, default 100 (v10). */
const USERS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 100, fallback: 100 };
/** A body is a few fields and a cover image as a data URI (a third larger than the image). */
const EVENT_BODY_LIMIT_BYTES = Math.ceil((EVENT_IMAGE_BYTES_MAX * 4) / 3) + 64 * 1024;

const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
const BOT = { onRequest: requireBot };
const USER = { onRequest: requireUser };

export async function scheduledEventRoutes(
  api: FastifyInstance,
  { scheduledEvents }: ScheduledEventRoutesOptions,
): Promise<void> {
  // discord.py sends a voice event's channel id as a JSON integer.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);
  const base = '/guilds/:guildId/scheduled-events';
  api.get<{ Params: GuildParams; Querystring: { with_user_count?: string } }>(base, READER, async (request) =>
    scheduledEvents.list(viewerOf(request), request.params.guildId, {
      withUserCount: queryFlag(request.query.with_user_count),
    }),
  );

  api.post<{ Params: GuildParams }>(base, { ...BOT, bodyLimit: EVENT_BODY_LIMIT_BYTES }, async (request) =>
    scheduledEvents.create(viewerOf(request), request.params.guildId, request.body, reasonOf(request)),
  );

  api.get<{ Params: EventParams; Querystring: { with_user_count?: string } }>(
    `${base}/:eventId`,
    READER,
    async (request) =>
      scheduledEvents.get(viewerOf(request), request.params.guildId, request.params.eventId, {
        withUserCount: queryFlag(request.query.with_user_count),
      }),
  );

  api.patch<{ Params: EventParams }>(
    `${base}/:eventId`,
    { ...BOT, bodyLimit: EVENT_BODY_LIMIT_BYTES },
    async (request) =>
      scheduledEvents.edit(
        viewerOf(request),
        request.params.guildId,
        request.params.eventId,
        request.body,
        reasonOf(request),
      ),
  );

  api.delete<{ Params: EventParams }>(`${base}/:eventId`, BOT, async (request, reply) => {
    const reason = reasonOf(request);
    await scheduledEvents.delete(viewerOf(request), request.params.guildId, request.params.eventId, reason);
    return reply.code(204).send();
  });

  api.get<{ Params: EventParams; Querystring: PagingQuery & { with_member?: string } }>(
    `${base}/:eventId/users`,
    READER,
    async (request) => {
      const page = readPage(request.query, USERS_LIMIT, ['before', 'after']);
      return scheduledEvents.users(
        viewerOf(request),
        request.params.guildId,
        request.params.eventId,
        { before: page.before ?? null, after: page.after ?? null, limit: page.limit },
        queryFlag(request.query.with_member),
      );
    },
  );

  for (const [method, interested] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    api.route<{ Params: EventParams }>({
      method,
      url: `${base}/:eventId/users/@me`,
      ...USER,
      handler: async (request, reply) => {
        const { guildId, eventId } = request.params;
        await scheduledEvents.setInterested(userOf(request).id, guildId, eventId, interested);
        return reply.code(204).send();
      },
    });
  }
}

/** A cover as the CDN serves it: `/guild-events/{event id}/{hash}` (with `.png` and the like, ignored). */
export async function scheduledEventImageRoutes(
  app: FastifyInstance,
  { scheduledEvents }: ScheduledEventRoutesOptions,
): Promise<void> {
  app.get<{ Params: { eventId: string; file: string } }>('/guild-events/:eventId/:file', async (request, reply) => {
    const hash = request.params.file.replace(/\.(png|jpe?g|gif|webp)$/, '');
    const image = await scheduledEvents.image(request.params.eventId, hash);
    if (!image) throw apiError('NotFound');
    return reply
      .header('content-type', image.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(image.bytes);
  });
}
