/**
 * `/admin/faults`: injected faults (docs/faults.md), behind the admin token. `GET` lists them (an
 * app's with `?application_id=`), `POST` adds one, `DELETE /admin/faults/{id}` removes one and
 * `DELETE /admin/faults` every one (an app's with `?application_id=`).
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { FaultsService } from './service.js';
import { requireAdminToken } from '../../http/guards.js';
import { ADMIN_FAULT_BODY_LIMIT_BYTES } from '../../http/limits.js';

export interface AdminFaultRoutesOptions {
  faults: FaultsService;
  adminToken: string;
}

interface AppQuery {
  application_id?: string;
}

/** The `application_id` filter of the query: a snowflake, or absent. */
function appFilter(query: AppQuery): string | undefined {
  const id = query.application_id;
  if (id === undefined) return undefined;
  if (!isSnowflake(id)) throw apiError('NotFound');
  return id;
}

export async function adminFaultRoutes(
  admin: FastifyInstance,
  { faults, adminToken }: AdminFaultRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));

  admin.get<{ Querystring: AppQuery }>('/faults', async (request) => faults.list(appFilter(request.query)));
  admin.post('/faults', { bodyLimit: ADMIN_FAULT_BODY_LIMIT_BYTES }, async (request, reply) =>
    reply.code(201).send(faults.add(request.body)),
  );
  admin.get<{ Params: { id: string } }>('/faults/:id', async (request) => {
    const found = faults.get(request.params.id);
    if (!found) throw apiError('NotFound');
    return found;
  });
  admin.delete<{ Params: { id: string } }>('/faults/:id', async (request, reply) => {
    if (!faults.remove(request.params.id)) throw apiError('NotFound');
    return reply.code(204).send();
  });
  admin.delete<{ Querystring: AppQuery }>('/faults', async (request) => ({
    removed: faults.clear(appFilter(request.query)),
  }));
}
