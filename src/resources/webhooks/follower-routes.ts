/**
 * Channel following and crossposting (bot token): `POST /channels/{c}/followers` makes a channel
 * follower webhook, `POST /channels/{c}/messages/{m}/crosspost` publishes a message to every
 * follower. discord.py sends `webhook_channel_id` as a JSON integer: ids are read exactly.
 */
import type { FastifyInstance } from 'fastify';
import { appOf, requireBot } from '../../http/guards.js';
import { reasonOf } from '../../http/audit-reason.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import type { CrosspostService } from './crosspost-service.js';
import type { WebhooksService } from './service.js';

export interface FollowerRoutesOptions {
  webhooks: WebhooksService;
  crossposts: CrosspostService;
}

/** A follow body holds one id. */
const FOLLOW_BODY_LIMIT_BYTES = 1024;

interface ChannelParams {
  channelId: string;
}
interface MessageParams extends ChannelParams {
  messageId: string;
}

export async function followerRoutes(
  api: FastifyInstance,
  { webhooks, crossposts }: FollowerRoutesOptions,
): Promise<void> {
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);

  api.post<{ Params: ChannelParams }>(
    '/channels/:channelId/followers',
    { onRequest: requireBot, bodyLimit: FOLLOW_BODY_LIMIT_BYTES },
    async (request) => webhooks.follow(appOf(request).id, request.params.channelId, request.body, reasonOf(request)),
  );
  api.post<{ Params: MessageParams }>(
    '/channels/:channelId/messages/:messageId/crosspost',
    { onRequest: requireBot },
    async (request) => crossposts.crosspost(appOf(request).id, request.params.channelId, request.params.messageId),
  );
}
