/**
 * What a user of the client sees in a channel: its command picker (the application command index)
 * and its messages. Both take a user token (`Authorization: <token>`); the messages also take an
 * app's bot token, as v10 lets a bot read the channels it can see.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { appCanReadMessages, canReadMessages, canViewChannel } from '../../core/permissions/channel-permissions.js';
import { BOT_SCOPE, findInstall } from '../../core/permissions/install.js';
import type { Channel, Guild, Member, User } from '../../core/world/types.js';
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
  async function viewer(
    request: FastifyRequest<{ Params: ChannelParams }>,
  ): Promise<{ user: User; guild: Guild; member: Member; channel: Channel }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind !== 'user') throw apiError('Unauthorized');
    const guild = await ctx.store.findGuildByChannel(request.params.channelId);
    const channel = guild?.channels.find((c) => c.id === request.params.channelId);
    if (!guild || !channel) throw apiError('UnknownChannel');
    const member = guild.members.find((m) => m.user_id === principal.user.id);
    if (!member || !canViewChannel(guild, member, channel)) throw apiError('MissingAccess');
    return { user: principal.user, guild, member, channel };
  }

  api.get<{ Params: ChannelParams }>(
    '/channels/:channelId/application-command-index',
    { config: { auth: 'user' } },
    async (request, reply) => {
      const { user, guild, channel } = await viewer(request);
      const locale = requesterLocale(request, user.locale);
      // Assembled from each command's cached JSON: the index is read on every picker open.
      return reply
        .type('application/json; charset=utf-8')
        .send(await ctx.commandIndex.buildJson(guild, channel, user, locale));
    },
  );

  /**
   * Who reads a channel's messages: a member who may read its history, or an app's bot (installed
   * with the bot scope) that may, from its install's role bits. Anyone else gets Missing Access.
   */
  async function reader(
    request: FastifyRequest<{ Params: ChannelParams }>,
  ): Promise<{ readerId: string; guild: Guild; channel: Channel }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || (principal.kind !== 'user' && principal.kind !== 'bot')) throw apiError('Unauthorized');
    const guild = await ctx.store.findGuildByChannel(request.params.channelId);
    const channel = guild?.channels.find((c) => c.id === request.params.channelId);
    if (!guild || !channel) throw apiError('UnknownChannel');
    if (principal.kind === 'bot') {
      if (!findInstall(guild, principal.app.id)?.scopes.includes(BOT_SCOPE)) throw apiError('MissingAccess');
      if (!appCanReadMessages(guild, principal.app.id, channel)) throw apiError('MissingAccess');
      return { readerId: principal.app.id, guild, channel };
    }
    const member = guild.members.find((m) => m.user_id === principal.user.id);
    if (!member || !canReadMessages(guild, member, channel)) throw apiError('MissingAccess');
    return { readerId: principal.user.id, guild, channel };
  }

  api.get<{ Params: ChannelParams; Querystring: { limit?: string } }>(
    '/channels/:channelId/messages',
    { config: { auth: 'any' } },
    async (request) => {
      const { readerId, guild, channel } = await reader(request);
      const asked = Number(request.query.limit ?? MESSAGES_PAGE_DEFAULT);
      const limit = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MESSAGES_PAGE_MAX) : MESSAGES_PAGE_DEFAULT;
      return ctx.renderer.channelMessages(guild, channel, readerId, limit);
    },
  );
}
