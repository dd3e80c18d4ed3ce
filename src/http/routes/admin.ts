/**
 * The admin API: the world (applications, users, guilds, pre-issued tokens) in the same shapes as
 * the world file (docs/world.md). Guarded by the admin token from the config.
 */
import type { FastifyInstance } from 'fastify';
import { WORLD_IMPORT_BODY_LIMIT_BYTES } from '../limits.js';
import { apiError } from '../../core/io/errors.js';
import { orThrow, type Result } from '../../core/io/result.js';
import {
  parseApplication,
  parseGuild,
  parseOAuth2Token,
  parseUser,
  parseWorld,
  parseWorldShape,
} from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import type { WorldService } from '../../services/world-service.js';
import { requireAdminToken } from '../guards.js';

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
  admin.put('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) => {
    await world.replace(orThrow<World>(parseWorld(request.body)));
    return world.export();
  });
  admin.post('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) => {
    await world.merge(orThrow(parseWorldShape(request.body)));
    return world.export();
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

  admin.get('/oauth2-tokens', async () => world.listOAuth2Tokens());
  admin.post('/oauth2-tokens', async (request, reply) => {
    const token = orThrow(parseOAuth2Token(request.body));
    await world.putOAuth2Token(token);
    return reply.code(201).send(token);
  });
}
