/**
 * The admin API's snapshots, for tests in any language: `POST /admin/snapshots` takes one and
 * answers its id, `POST /admin/snapshots/{id}/restore` makes it the state again (one
 * transaction), `POST /admin/reset` returns to the state at start-up, or to the world in its body
 * (`{"world": {...}}`, the world file's shape). Guarded by the admin token.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import { parseWorld } from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import type { SnapshotService } from './service.js';
import { requireAdminToken } from '../../http/guards.js';
import { DEFAULT_BODY_LIMIT_BYTES, WORLD_IMPORT_BODY_LIMIT_BYTES } from '../../http/limits.js';

export interface SnapshotRoutesOptions {
  snapshots: SnapshotService;
  adminToken: string;
}

/** The world a reset body names, or undefined for none (no body, or a body without `world`). */
function resetWorld(body: unknown): World | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw apiError('BadRequest');
  const { world } = body as { world?: unknown };
  return world === undefined ? undefined : orThrow<World>(parseWorld(world));
}

export async function snapshotRoutes(
  admin: FastifyInstance,
  { snapshots, adminToken }: SnapshotRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  const params = { type: 'object', properties: { id: { type: 'string' } } } as const;

  admin.get('/snapshots', async () => snapshots.list());
  admin.post('/snapshots', { bodyLimit: DEFAULT_BODY_LIMIT_BYTES }, async (_request, reply) =>
    reply.code(201).send(await snapshots.take()),
  );
  admin.post<{ Params: { id: string } }>(
    '/snapshots/:id/restore',
    { bodyLimit: DEFAULT_BODY_LIMIT_BYTES, schema: { params } },
    async (request, reply) => {
      await snapshots.restore(request.params.id);
      return reply.code(204).send();
    },
  );
  admin.delete<{ Params: { id: string } }>('/snapshots/:id', { schema: { params } }, async (request, reply) => {
    await snapshots.remove(request.params.id);
    return reply.code(204).send();
  });
  admin.post('/reset', { bodyLimit: WORLD_IMPORT_BODY_LIMIT_BYTES }, async (request, reply) => {
    await snapshots.reset(resetWorld(request.body));
    return reply.code(204).send();
  });
}
