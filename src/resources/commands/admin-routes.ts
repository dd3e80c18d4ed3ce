/**
 * `DELETE /admin/applications/{id}/command-creates`: the app's daily command-create limit (v10's
 * 200 per scope and UTC day, 30034) starts afresh, in every scope, for a developer or a test that
 * has used it up. The commands stay. `slashd serve --daily-command-creates` changes the limit.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import type { CommandsService } from './service.js';
import type { WorldService } from '../world/service.js';
import { requireAdminToken } from '../../http/guards.js';

export interface AdminCommandCreatesRoutesOptions {
  world: Pick<WorldService, 'getApplication'>;
  commands: Pick<CommandsService, 'resetCreatesToday'>;
  adminToken: string;
}

export async function adminCommandCreatesRoutes(
  admin: FastifyInstance,
  { world, commands, adminToken }: AdminCommandCreatesRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.delete<{ Params: { id: string } }>('/applications/:id/command-creates', async (request, reply) => {
    if (!(await world.getApplication(request.params.id))) throw apiError('NotFound');
    await commands.resetCreatesToday(request.params.id);
    return reply.code(204).send();
  });
}
