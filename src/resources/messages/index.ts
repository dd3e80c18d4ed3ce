/** Channel messages: a bot's own, their rendering for every reader, and bulk deletes. */
import type { ServiceParts } from '../../app/services.js';
import { defineResource, type NodeServices } from '../resource.js';
import { channelMessageCounters } from './migrations/2026-12-02-channel-message-counters.js';
import { MessageModerationService } from './moderation-service.js';
import { MessageRenderer } from './renderer.js';
import { channelMessageRoutes } from './routes.js';
import { ChannelMessagesService } from './service.js';
import { Slowmode } from './slowmode.js';

declare module '../resource.js' {
  interface NodeServices {
    renderer: MessageRenderer;
    channelMessages: ChannelMessagesService;
    messageModeration: MessageModerationService;
    slowmode: Slowmode;
  }
}

/** What a message's sender needs, in a guild channel and in a DM alike. */
export function messaging({ store, ids, now, worldEvents }: ServiceParts, { renderer, attachments }: NodeServices) {
  return {
    world: store.world,
    members: store.members,
    dmChannels: store.dms,
    messages: store.interactions,
    polls: store.polls,
    skus: store.entitlements,
    renderer,
    ids,
    now,
    events: worldEvents,
    attachments,
  };
}

export const messagesResource = defineResource({
  name: 'messages',
  channelOwnedTables: ['channel_message_counters'],
  services: {
    renderer: ({ store, attachmentUrls }) => new MessageRenderer(store, attachmentUrls),
    slowmode: ({ now }) => new Slowmode(now),
    channelMessages: (parts, services) =>
      new ChannelMessagesService({
        ...messaging(parts, services),
        dms: services.dms,
        slowmode: services.slowmode,
        autoModeration: services.autoModeration,
      }),
    messageModeration: ({ store, now, worldEvents }) =>
      new MessageModerationService({
        world: store.world,
        members: store.members,
        messages: store.interactions,
        now,
        events: worldEvents,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(channelMessageRoutes, {
      channelMessages: services.channelMessages,
      moderation: services.messageModeration,
    });
  },
  migrations: [channelMessageCounters],
});
