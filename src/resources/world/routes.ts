/**
 * The admin API: the world (applications, users, guilds, pre-issued tokens) in the same shapes as
 * the world file (docs/world.md). Guarded by the admin token from the config.
 */
import type { FastifyInstance } from 'fastify';
import { WORLD_IMPORT_BODY_LIMIT_BYTES } from '../../http/limits.js';
import { apiError } from '../../core/io/errors.js';
import { isRecord } from '../../core/io/read.js';
import { orThrow, type Result } from '../../core/io/result.js';
import {
  parseApplication,
  parseGuild,
  parseMember,
  parseOAuth2Token,
  parseUser,
  parseWorld,
  parseWorldShape,
} from '../../core/world/parse.js';
import type { User, World } from '../../core/world/types.js';
import { ADMIN_MEMBERS_LIMIT, readPage, type PagingQuery } from '../../http/paging.js';
import type { WorldService } from './service.js';
import { requireAdminToken } from '../../http/guards.js';
import { acceptWorldLines } from './world-lines.js';

export interface AdminRoutesOptions {
  world: WorldService;
  /** Secret of the /admin API; compared in constant time. */
  adminToken: string;
}

function samePathId(pathId: string, bodyId: string): void {
  if (pathId !== bodyId) throw apiError('BodyIdMismatch');
}

export async function adminRoutes(admin: FastifyInstance, { world, adminToken }: AdminRoutesOptions): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));

  admin.get('/world', async () => world.export());
  // The two imports also take a world in lines, for worlds past the JSON body limit.
  await admin.register(async (imports) => {
    acceptWorldLines(imports);
    imports.put('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) => {
      await world.replace(orThrow<World>(parseWorld(request.body)));
      return world.export();
    });
    /** Answers what changed (docs/world.md): never the whole world, which GET answers. */
    imports.post('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) =>
      world.merge(orThrow(parseWorldShape(request.body))),
    );
  });
  /** One world resource in the world file's shape: list, get, put (an upsert) and delete by id. */
  function resource<T extends { id: string }>(
    path: string,
    ops: {
      list: () => Promise<T[]>;
      get: (id: string) => Promise<T | null>;
      parse: (body: unknown) => Result<T>;
      put: (value: T) => Promise<void>;
      remove: (id: string) => Promise<boolean>;
    },
  ): void {
    admin.get(path, async () => ops.list());
    admin.get<{ Params: { id: string } }>(`${path}/:id`, async (request) => {
      const found = await ops.get(request.params.id);
      if (!found) throw apiError('NotFound');
      return found;
    });
    admin.put<{ Params: { id: string } }>(`${path}/:id`, async (request) => {
      const value = orThrow(ops.parse(request.body));
      samePathId(request.params.id, value.id);
      await ops.put(value);
      return value;
    });
    admin.delete<{ Params: { id: string } }>(`${path}/:id`, async (request, reply) => {
      if (!(await ops.remove(request.params.id))) throw apiError('NotFound');
      return reply.code(204).send();
    });
  }

  resource('/applications', {
    list: () => world.listApplications(),
    get: (id) => world.getApplication(id),
    parse: parseApplication,
    put: (app) => world.putApplication(app),
    remove: (id) => world.deleteApplication(id),
  });
  resource('/users', {
    list: () => world.listUsers(),
    get: (id) => world.getUser(id),
    parse: parseUser,
    put: (user) => world.putUser(user),
    remove: (id) => world.deleteUser(id),
  });
  resource('/guilds', {
    list: () => world.listGuilds(),
    get: (id) => world.getGuild(id),
    parse: parseGuild,
    put: (guild) => world.putGuild(guild),
    remove: (id) => world.deleteGuild(id),
  });

  /** A user changed by the fields the body names; the others keep their stored values. */
  admin.patch<{ Params: { id: string } }>('/users/:id', async (request) => {
    const { body } = request;
    const updated = await world.updateUser(request.params.id, (existing) => {
      const patched = isRecord(body) ? { ...existing, ...body } : body;
      const user = orThrow<User>(parseUser(patched));
      samePathId(request.params.id, user.id);
      return user;
    });
    if (!updated) throw apiError('NotFound');
    return updated;
  });

  /** A guild's members, a page at a time (ascending user id, after `after`), without the rest of the guild. */
  admin.get<{ Params: { id: string }; Querystring: PagingQuery }>('/guilds/:id/members', async (request) => {
    const page = readPage(request.query, ADMIN_MEMBERS_LIMIT, ['after']);
    const members = await world.listGuildMembers(request.params.id, { limit: page.limit, after: page.after ?? null });
    if (!members) throw apiError('UnknownGuild');
    return members;
  });

  /** One member added or replaced; the guild's other members are neither sent nor rewritten by the caller. */
  admin.put<{ Params: { id: string; userId: string } }>('/guilds/:id/members/:userId', async (request) => {
    const { body } = request;
    const member = orThrow(parseMember(isRecord(body) ? { user_id: request.params.userId, ...body } : body));
    samePathId(request.params.userId, member.user_id);
    if (!(await world.putGuildMember(request.params.id, member))) throw apiError('UnknownGuild');
    return member;
  });

  admin.delete<{ Params: { id: string; userId: string } }>('/guilds/:id/members/:userId', async (request, reply) => {
    if (!(await world.deleteGuildMember(request.params.id, request.params.userId))) throw apiError('UnknownMember');
    return reply.code(204).send();
  });

  admin.get('/oauth2-tokens', async () => world.listOAuth2Tokens());
  admin.post('/oauth2-tokens', async (request, reply) => {
    const token = orThrow(parseOAuth2Token(request.body));
    await world.putOAuth2Token(token);
    return reply.code(201).send(token);
  });
}
