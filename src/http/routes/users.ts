/**
 * Users as others see them (`GET /users/{id}`) and the caller's guilds (`GET /users/@me/guilds`):
 * a bot's are the guilds it is in, a user's those they are a member of (through a Bearer token
 * only with the `guilds` scope, as in v10).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSnowflake } from '../../core/snowflake.js';
import { guildMembers } from '../../core/world/guild-members.js';
import { compareSnowflakes, selectPage } from '../../core/world/page-query.js';
import type { Guild } from '../../core/world/types.js';
import { toWireMyGuild } from '../../core/world/v10-objects.js';
import { viewerGuildPermissions, viewerId, viewerInGuild, type Viewer } from '../../core/world/viewer.js';
import { toWirePublicBot, toWirePublicUser } from '../../core/world/wire.js';
import { missingScope } from '../auth.js';
import type { HttpContext } from '../context.js';
import { GUILDS_LIMIT, readPage, type PagingQuery } from '../paging.js';
import { queryFlag } from '../query.js';
import { guildDirectory, principalOf, unknownUser } from '../world-access.js';

/** The OAuth2 scope that lets a Bearer token list its user's guilds. */
const GUILDS_SCOPE = 'guilds';

export async function userRoutes(api: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const store = ctx.store;

  /** Whose guilds a token lists. */
  async function guildsViewer(request: FastifyRequest): Promise<Viewer> {
    const principal = await principalOf(store, request);
    if (principal.kind === 'bot') return { kind: 'bot', applicationId: principal.app.id };
    if (principal.kind === 'user') return { kind: 'user', userId: principal.user.id };
    if (!principal.token.scopes.includes(GUILDS_SCOPE) || !principal.token.user_id) throw missingScope();
    return { kind: 'user', userId: principal.token.user_id };
  }

  /** v10: ascending by id, `before` or `after` a guild id, at most `limit` (1-200, default 200). */
  api.get<{ Querystring: PagingQuery & { with_counts?: string } }>(
    '/users/@me/guilds',
    { config: { auth: 'any' } },
    async (request) => {
      const viewer = await guildsViewer(request);
      const page = readPage(request.query, GUILDS_LIMIT, ['before', 'after']);
      // Without a cursor the list starts at the lowest id, as `after=0` would.
      if (page.before === undefined && page.after === undefined) page.after = '0';
      const mine = (await store.listGuilds()).filter((guild) => viewerInGuild(guild, viewer));
      const chosen = selectPage(mine, page, (g) => g.id).sort((a, b) => compareSnowflakes(a.id, b.id));
      const withCounts = queryFlag(request.query.with_counts);
      const wire = [];
      for (const guild of chosen) wire.push(await myGuild(guild, viewer, withCounts));
      return wire;
    },
  );

  async function myGuild(guild: Guild, viewer: Viewer, withCounts: boolean) {
    const count = withCounts ? guildMembers(guild, await guildDirectory(store, guild)).length : undefined;
    const isOwner = guild.owner_id === viewerId(viewer);
    return toWireMyGuild(guild, isOwner, viewerGuildPermissions(guild, viewer), count);
  }

  /** Any user (or a bot, by its application id) to any caller, as in v10. */
  api.get<{ Params: { userId: string } }>('/users/:userId', { config: { auth: 'any' } }, async (request) => {
    await principalOf(store, request);
    const id = request.params.userId;
    if (!isSnowflake(id)) throw unknownUser();
    const user = await store.getUser(id);
    if (user) return toWirePublicUser(user);
    const app = await store.getApplication(id);
    if (app) return toWirePublicBot(app);
    throw unknownUser();
  });
}
