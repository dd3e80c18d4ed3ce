/** `GET /admin/interactions/{id}/transcript`: what happened to one interaction, behind the admin token. */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { InteractionReads } from './reads.js';
import { requireAdminToken } from '../../http/guards.js';

export interface AdminInteractionRoutesOptions {
  interactions: InteractionReads;
  adminToken: string;
}

export async function adminInteractionRoutes(
  admin: FastifyInstance,
  { interactions, adminToken }: AdminInteractionRoutesOptions,
): Promise<void> {
  admin.addHook('onRequest', requireAdminToken(adminToken));
  admin.get<{ Params: { id: string } }>('/interactions/:id/transcript', async (request) => {
    if (!isSnowflake(request.params.id)) throw apiError('UnknownInteraction');
    const transcript = await interactions.transcript(request.params.id);
    if (!transcript) throw apiError('UnknownInteraction');
    return transcript;
  });
}
