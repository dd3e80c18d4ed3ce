/**
 * `POST /users/@me/channels` (v10 Create DM): a bot opens, or gets again, its DM channel with a
 * user (`recipient_id`); `GET /users/@me/channels` lists a user's. The channel's messages go
 * through the channel message routes.
 */
import type { FastifyInstance } from 'fastify';
import type { DmChannelsService } from './service.js';
import { appOf, requireBot, requireUser, userOf } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';

export interface DmChannelRoutesOptions {
  dms: DmChannelsService;
}

/** The body is one id. */
const DM_BODY_LIMIT_BYTES = 1024;

export async function dmChannelRoutes(api: FastifyInstance, { dms }: DmChannelRoutesOptions): Promise<void> {
  // discord.py sends `recipient_id` as a JSON integer.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.post('/users/@me/channels', { onRequest: requireBot, bodyLimit: DM_BODY_LIMIT_BYTES }, async (request) =>
    dms.open(appOf(request).id, request.body),
  );

  /** A user's DM channels (v10 Get User DMs), each with the bot at its other end: the console lists them. */
  api.get('/users/@me/channels', { onRequest: requireUser }, async (request) => dms.ofUser(userOf(request).id));
}
