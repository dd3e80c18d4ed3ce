/**
 * The admin API: the world (applications, users, guilds, pre-issued tokens) in the same shapes as
 * the world file (shared/contracts/world.md). Guarded by the admin token from the config.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidFormBody, notFound, unauthorized, type Issue } from '../../core/errors.js';
import { parseApplication, parseGuild, parseOAuth2Token, parseUser, parseWorld, parseWorldShape } from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import { sameSecret } from '../../store/tokens.js';
import type { HttpContext } from '../context.js';

function accept<T>(result: { ok: true; value: T } | { ok: false; issues: Issue[] }): T {
  if (!result.ok) throw invalidFormBody(result.issues);
  return result.value;
}

function samePathId(pathId: string, bodyId: string): void {
  if (pathId !== bodyId) throw new ApiError(400, 0, 'The id in the body differs from the id in the path');
}

export async function adminRoutes(
  admin: FastifyInstance,
  { ctx }: { ctx: HttpContext },
): Promise<void> {
  const world = ctx.world;
  admin.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const secret = header.replace(/^(Bearer|Admin)\s+/i, '');
    if (!header || !sameSecret(secret, ctx.adminToken)) throw unauthorized();
  });

  admin.get('/world', async () => ctx.store.exportWorld());
  admin.put('/world', async (request) => {
    await world.replace(accept(parseWorld(request.body)) as World);
    return ctx.store.exportWorld();
  });
  admin.post('/world', async (request) => {
    await world.merge(accept(parseWorldShape(request.body)));
    return ctx.store.exportWorld();
  });

  admin.get('/applications', async () => (await ctx.store.listApplications()).map(({ keys: _keys, ...app }) => app));
  admin.get<{ Params: { id: string } }>('/applications/:id', async (request) => {
    const app = await ctx.store.getApplication(request.params.id);
    if (!app) throw notFound();
    const { keys: _keys, ...rest } = app;
    return rest;
  });
  admin.put<{ Params: { id: string } }>('/applications/:id', async (request) => {
    const app = accept(parseApplication(request.body));
    samePathId(request.params.id, app.id);
    await world.putApplication(app);
    return app;
  });
  admin.delete<{ Params: { id: string } }>('/applications/:id', async (request, reply) => {
    if (!(await ctx.store.deleteApplication(request.params.id))) throw notFound();
    return reply.code(204).send();
  });

  admin.get('/users', async () => ctx.store.listUsers());
  admin.get<{ Params: { id: string } }>('/users/:id', async (request) => {
    const user = await ctx.store.getUser(request.params.id);
    if (!user) throw notFound();
    return user;
  });
  admin.put<{ Params: { id: string } }>('/users/:id', async (request) => {
    const user = accept(parseUser(request.body));
    samePathId(request.params.id, user.id);
    await world.putUser(user);
    return user;
  });
  admin.delete<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    if (!(await ctx.store.deleteUser(request.params.id))) throw notFound();
    return reply.code(204).send();
  });

  admin.get('/guilds', async () => ctx.store.listGuilds());
  admin.get<{ Params: { id: string } }>('/guilds/:id', async (request) => {
    const guild = await ctx.store.getGuild(request.params.id);
    if (!guild) throw notFound();
    return guild;
  });
  admin.put<{ Params: { id: string } }>('/guilds/:id', async (request) => {
    const guild = accept(parseGuild(request.body));
    samePathId(request.params.id, guild.id);
    await ctx.store.putGuild(guild);
    return guild;
  });
  admin.delete<{ Params: { id: string } }>('/guilds/:id', async (request, reply) => {
    if (!(await ctx.store.deleteGuild(request.params.id))) throw notFound();
    return reply.code(204).send();
  });

  admin.get('/oauth2-tokens', async () => ctx.store.listOAuth2Tokens());
  admin.post('/oauth2-tokens', async (request, reply) => {
    const token = accept(parseOAuth2Token(request.body));
    await ctx.store.putOAuth2Token({ ...token, expires_at: null });
    return reply.code(201).send(token);
  });
}
