/**
 * What a user of the client sees in a channel: its command picker (the application command index)
 * and its messages. Both take a user token (`Authorization: <token>`); the messages also take an
 * app's bot token, as v10 lets a bot read the channels it can see.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { missingAccess, unauthorized } from '../../core/errors.js';
import { appCanReadMessages, canReadMessages, canViewChannel } from '../../core/permissions/channel-permissions.js';
import { BOT_SCOPE, findInstall } from '../../core/permissions/install.js';
import type { Channel, Guild, Member, User } from '../../core/world/types.js';
import { unknownChannel } from '../../services/invocation-scene.js';
import { authenticate } from '../auth.js';
import type { HttpContext } from '../context.js';
import { MESSAGES_LIMIT, readPage, type PagingQuery } from '../paging.js';
import { requesterLocale } from '../requester-locale.js';

interface ChannelParams {
  channelId: string;
}

export async function channelRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  async function viewer(
    request: FastifyRequest<{ Params: ChannelParams }>,
  ): Promise<{ user: User; guild: Guild; member: Member; channel: Channel }> {
    const principal = await authenticate(ctx.store, request.headers.authorization);
    if (!principal || principal.kind !== 'user') throw unauthorized();
    const guild = await ctx.store.findGuildByChannel(request.params.channelId);
    const channel = guild?.channels.find((c) => c.id === request.params.channelId);
    if (!guild || !channel) throw unknownChannel();
    const member = guild.members.find((m) => m.user_id === principal.user.id);
    if (!member || !canViewChannel(guild, member, channel)) throw missingAccess();
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
    if (!principal || (principal.kind !== 'user' && principal.kind !== 'bot')) throw unauthorized();
    const guild = await ctx.store.findGuildByChannel(request.params.channelId);
    const channel = guild?.channels.find((c) => c.id === request.params.channelId);
    if (!guild || !channel) throw unknownChannel();
    if (principal.kind === 'bot') {
      if (!findInstall(guild, principal.app.id)?.scopes.includes(BOT_SCOPE)) throw missingAccess();
      if (!appCanReadMessages(guild, principal.app.id, channel)) throw missingAccess();
      return { readerId: principal.app.id, guild, channel };
    }
    const member = guild.members.find((m) => m.user_id === principal.user.id);
    if (!member || !canReadMessages(guild, member, channel)) throw missingAccess();
    return { readerId: principal.user.id, guild, channel };
  }

  api.get<{ Params: ChannelParams; Querystring: PagingQuery }>(
    '/channels/:channelId/messages',
    { config: { auth: 'any' } },
    async (request) => {
      const { readerId, guild, channel } = await reader(request);
      const page = readPage(request.query, MESSAGES_LIMIT, ['before', 'after', 'around']);
      return ctx.renderer.channelMessages(guild, channel, readerId, page);
    },
  );
}
