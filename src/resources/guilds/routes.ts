/**
 * The guild reads bots make while handling interactions (docs/v10-behaviour.md#endpoints): the
 * guild, its channels, roles, custom emojis and members. A bot reads a guild it is in (installed with the `bot`
 * scope), a user one they are a member of; anyone else gets 50001, an unknown guild 10004.
 */
import type { FastifyInstance } from 'fastify';
import type { GuildsService } from './service.js';
import type { GuildEditService } from './guild-edit-service.js';
import { GUILD_EDIT_BODY_LIMIT_BYTES } from './rules/guild-edit.js';
import { auditLogReason } from '../bans/rules.js';
import {
  appOf,
  requireAnyCaller,
  requireBot,
  requireUser,
  requireUserOrBot,
  userOf,
  viewerOf,
} from '../../http/guards.js';
import { requesterLocale } from '../../http/requester-locale.js';
import { MEMBERS_LIMIT, readPage, type PagingQuery } from '../../http/paging.js';
import { queryFlag } from '../../http/query.js';

export interface GuildRoutesOptions {
  guilds: GuildsService;
  guildEdit: GuildEditService;
}

interface GuildParams {
  guildId: string;
}

/** A bot or a user of the client; an OAuth2 bearer token reads no guild (v10: 401). */
const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

export async function guildRoutes(api: FastifyInstance, { guilds, guildEdit }: GuildRoutesOptions): Promise<void> {
  api.patch<{ Params: GuildParams }>(
    '/guilds/:guildId',
    { ...READER, bodyLimit: GUILD_EDIT_BODY_LIMIT_BYTES },
    async (request) =>
      guildEdit.edit(
        viewerOf(request),
        request.params.guildId,
        request.body,
        auditLogReason(request.headers['x-audit-log-reason']),
      ),
  );

  api.get<{ Params: GuildParams }>('/guilds/:guildId/preview', READER, async (request) =>
    guildEdit.preview(viewerOf(request), request.params.guildId),
  );

  api.get<{ Params: GuildParams; Querystring: { with_counts?: string } }>('/guilds/:guildId', READER, async (request) =>
    guilds.guild(viewerOf(request), request.params.guildId, queryFlag(request.query.with_counts)),
  );

  api.get<{ Params: GuildParams }>('/guilds/:guildId/channels', READER, async (request) =>
    guilds.channels(viewerOf(request), request.params.guildId),
  );

  api.get<{ Params: GuildParams }>('/guilds/:guildId/roles', READER, async (request) =>
    guilds.roles(viewerOf(request), request.params.guildId),
  );

  api.get<{ Params: GuildParams & { userId: string } }>('/guilds/:guildId/members/:userId', READER, async (request) =>
    guilds.member(viewerOf(request), request.params.guildId, request.params.userId),
  );

  /** Every command of the guild's apps, for the permission editor: a user who may manage command permissions. */
  api.get<{ Params: GuildParams }>(
    '/guilds/:guildId/application-command-index',
    { onRequest: requireUser },
    async (request) => {
      const user = userOf(request);
      return guilds.guildCommandIndex(user, request.params.guildId, requesterLocale(request, user.locale));
    },
  );

  /** The member list: bots only. */
  api.get<{ Params: GuildParams; Querystring: PagingQuery }>(
    '/guilds/:guildId/members',
    { onRequest: requireBot },
    async (request) => {
      const page = readPage(request.query, MEMBERS_LIMIT, ['after']);
      return guilds.members(appOf(request), request.params.guildId, page);
    },
  );
}
