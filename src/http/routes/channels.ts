/**
 * What a user of the client sees in a channel: its command picker (the application command index)
 * and its messages. Both take a user token (`Authorization: <token>`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { missingAccess, unauthorized } from '../../core/errors.js';
import { canViewChannel } from '../../core/permissions/channel-permissions.js';
import type { Channel, Guild, Member, User } from '../../core/world/types.js';
import { unknownChannel } from '../../services/invocation-scene.js';
import { authenticate } from '../auth.js';
import type { HttpContext } from '../context.js';
import { requesterLocale } from '../requester-locale.js';

/** Messages one page returns unless `limit` says otherwise, and the most it may say. */
export const MESSAGES_PAGE_DEFAULT = 50;
export const MESSAGES_PAGE_MAX = 100;

interface ChannelParams {
  channelId: string;
}

export async function channelRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function viewer(request: FastifyRequest<{ Params: ChannelParams }>): Promise<{ user: User; guild: Guild; member: Member; channel: Channel }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind !== 'user') throw unauthorized();
    const guild = await ctx.store.findGuildByChannel(request.params.channelId);
    const channel = guild?.channels.find((c) => c.id === request.params.channelId);
    if (!guild || !channel) throw unknownChannel();
    const member = guild.members.find((m) => m.user_id === principal.user.id);
    if (!member || !canViewChannel(guild, member, channel)) throw missingAccess();
    return { user: principal.user, guild, member, channel };
  }

  api.get<{ Params: ChannelParams }>('/channels/:channelId/application-command-index', { config: { auth: 'user' } }, async (request, reply) => {
    const { user, guild, channel } = await viewer(request);
    const locale = requesterLocale(request, user.locale);
    // Assembled from each command's cached JSON: the index is read on every picker open.
    return reply.type('application/json; charset=utf-8').send(await ctx.commandIndex.buildJson(guild, channel, user, locale));
  });

  api.get<{ Params: ChannelParams; Querystring: { limit?: string } }>('/channels/:channelId/messages', { config: { auth: 'user' } }, async (request) => {
    const { user, guild, channel } = await viewer(request);
    const asked = Number(request.query.limit ?? MESSAGES_PAGE_DEFAULT);
    const limit = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MESSAGES_PAGE_MAX) : MESSAGES_PAGE_DEFAULT;
    return ctx.renderer.channelMessages(guild, channel, user, limit);
  });
}
