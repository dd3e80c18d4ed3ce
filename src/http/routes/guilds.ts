/**
 * The guild reads bots make while handling interactions (docs/v10-behaviour.md#endpoints): the
 * guild, its channels, roles and members. A bot reads a guild it is in (installed with the `bot`
 * scope), a user one they are a member of; anyone else gets 50001, an unknown guild 10004.
 */
import type { FastifyInstance } from 'fastify';
import { missingAccess } from '../../core/errors.js';
import { isThread } from '../../core/permissions/channels.js';
import { findGuildMember, guildMembers } from '../../core/world/guild-members.js';
import { compareSnowflakes } from '../../core/world/page-query.js';
import { toWireGuild, toWireGuildChannel, toWireGuildMember, toWireRoles } from '../../core/world/v10-objects.js';
import type { Application } from '../../core/world/types.js';
import type { HttpContext } from '../context.js';
import { MEMBERS_LIMIT, readPage, type PagingQuery } from '../paging.js';
import { queryFlag } from '../query.js';
import { guildDirectory, principalOf, unknownMember, viewerOf, visibleGuild } from '../world-access.js';

/** Application flags that enable the privileged GUILD_MEMBERS intent (v10: listing members needs one). */
const GATEWAY_GUILD_MEMBERS = 1 << 14;
const GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;

function hasMembersIntent(app: Application): boolean {
  return (app.flags & (GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED)) !== 0;
}

interface GuildParams {
  guildId: string;
}

export async function guildRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const store = ctx.store;

  api.get<{ Params: GuildParams; Querystring: { with_counts?: string } }>(
    '/guilds/:guildId',
    { config: { auth: 'any' } },
    async (request) => {
      const guild = await visibleGuild(store, await viewerOf(store, request), request.params.guildId);
      const wire = toWireGuild(guild);
      if (queryFlag(request.query.with_counts)) {
        wire.approximate_member_count = guildMembers(guild, await guildDirectory(store, guild)).length;
        wire.approximate_presence_count = 0;
      }
      return wire;
    },
  );

  /** Every channel but threads (v10 lists threads elsewhere), whatever the caller may view in them. */
  api.get<{ Params: GuildParams }>('/guilds/:guildId/channels', { config: { auth: 'any' } }, async (request) => {
    const guild = await visibleGuild(store, await viewerOf(store, request), request.params.guildId);
    return guild.channels.filter((c) => !isThread(c)).map((c) => toWireGuildChannel(guild, c));
  });

  api.get<{ Params: GuildParams }>('/guilds/:guildId/roles', { config: { auth: 'any' } }, async (request) => {
    const guild = await visibleGuild(store, await viewerOf(store, request), request.params.guildId);
    return toWireRoles(guild);
  });

  api.get<{ Params: GuildParams & { userId: string } }>(
    '/guilds/:guildId/members/:userId',
    { config: { auth: 'any' } },
    async (request) => {
      const guild = await visibleGuild(store, await viewerOf(store, request), request.params.guildId);
      const userId = request.params.userId;
      const view = findGuildMember(guild, userId, await guildDirectory(store, guild, userId));
      if (!view) throw unknownMember();
      return toWireGuildMember(guild, view);
    },
  );

  /**
   * The member list, ascending by user id after `after`: bots only, and only with the GUILD_MEMBERS
   * intent enabled for the app (v10 refuses with Missing Access otherwise).
   */
  api.get<{ Params: GuildParams; Querystring: PagingQuery }>(
    '/guilds/:guildId/members',
    { config: { auth: 'bot' } },
    async (request) => {
      const principal = await principalOf(store, request);
      if (principal.kind !== 'bot') throw missingAccess();
      const page = readPage(request.query, MEMBERS_LIMIT, ['after']);
      const guild = await visibleGuild(store, { kind: 'bot', applicationId: principal.app.id }, request.params.guildId);
      if (!hasMembersIntent(principal.app)) throw missingAccess();
      const after = page.after ?? '0';
      return guildMembers(guild, await guildDirectory(store, guild))
        .filter((view) => compareSnowflakes(view.member.user_id, after) > 0)
        .slice(0, page.limit)
        .map((view) => toWireGuildMember(guild, view));
    },
  );
}
