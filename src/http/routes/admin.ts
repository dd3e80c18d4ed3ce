/**
 * The admin API: the world (applications, users, guilds, pre-issued tokens) in the same shapes as
 * the world file (docs/world.md). Guarded by the admin token from the config.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WORLD_IMPORT_BODY_LIMIT_BYTES } from '../limits.js';
import { ApiError, invalidFormBody, notFound, unauthorized, type Issue } from '../../core/errors.js';
import {
  parseApplication,
  parseGuild,
  parseOAuth2Token,
  parseUser,
  parseWorld,
  parseWorldShape,
} from '../../core/world/parse.js';
import type { Application, World } from '../../core/world/types.js';
import type { StoredApplication } from '../../store/store.js';
import { sameSecret } from '../../store/tokens.js';
import type { HttpContext } from '../context.js';

function accept<T>(result: { ok: true; value: T } | { ok: false; issues: Issue[] }): T {
  if (!result.ok) throw invalidFormBody(result.issues);
  return result.value;
}

function samePathId(pathId: string, bodyId: string): void {
  if (pathId !== bodyId) throw new ApiError(400, 0, 'The id in the body differs from the id in the path');
}

export async function adminRoutes(admin: FastifyInstance, { ctx }: { ctx: HttpContext }): Promise<void> {
  const world = ctx.world;
  admin.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const secret = header.replace(/^(Bearer|Admin)\s+/i, '');
    if (!header || !sameSecret(secret, ctx.adminToken)) throw unauthorized();
  });

  admin.get('/world', async () => ctx.store.exportWorld());
  admin.put('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) => {
    await world.replace(accept(parseWorld(request.body)) as World);
    return ctx.store.exportWorld();
  });
  admin.post('/world', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request) => {
    await world.merge(accept(parseWorldShape(request.body)));
    return ctx.store.exportWorld();
  });

  /** One world resource in the world file's shape: list, get, put (an upsert) and delete by id. */
  function resource<T extends { id: string }>(
    path: string,
    ops: {
      list: () => Promise<T[]>;
      get: (id: string) => Promise<T | null>;
      parse: (body: unknown) => { ok: true; value: T } | { ok: false; issues: Issue[] };
      put: (value: T) => Promise<void>;
      remove: (id: string) => Promise<boolean>;
    },
  ): void {
    admin.get(path, async () => ops.list());
    admin.get<{ Params: { id: string } }>(`${path}/:id`, async (request) => {
      const found = await ops.get(request.params.id);
      if (!found) throw notFound();
      return found;
    });
    admin.put<{ Params: { id: string } }>(`${path}/:id`, async (request) => {
      const value = accept(ops.parse(request.body));
      samePathId(request.params.id, value.id);
      await ops.put(value);
      return value;
    });
    admin.delete<{ Params: { id: string } }>(`${path}/:id`, async (request, reply) => {
      if (!(await ops.remove(request.params.id))) throw notFound();
      return reply.code(204).send();
    });
  }

  // The admin API shows applications as the world file has them: without the signing keys.
  const withoutKeys = ({ keys: _keys, ...app }: StoredApplication): Application => app;
  resource('/applications', {
    list: async () => (await ctx.store.listApplications()).map(withoutKeys),
    get: async (id) => {
      const app = await ctx.store.getApplication(id);
      return app && withoutKeys(app);
    },
    parse: parseApplication,
    put: (app) => world.putApplication(app),
    remove: (id) => world.deleteApplication(id),
  });
  resource('/users', {
    list: () => ctx.store.listUsers(),
    get: (id) => ctx.store.getUser(id),
    parse: parseUser,
    put: (user) => world.putUser(user),
    remove: (id) => world.deleteUser(id),
  });
  resource('/guilds', {
    list: () => ctx.store.listGuilds(),
    get: (id) => ctx.store.getGuild(id),
    parse: parseGuild,
    put: (guild) => world.putGuild(guild),
    remove: (id) => world.deleteGuild(id),
  });

  admin.get('/oauth2-tokens', async () => ctx.store.listOAuth2Tokens());
  admin.post('/oauth2-tokens', async (request, reply) => {
    const token = accept(parseOAuth2Token(request.body));
    await ctx.store.putOAuth2Token({ ...token, expires_at: null });
    return reply.code(201).send(token);
  });
}
