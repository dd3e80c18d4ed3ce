/** What every route plugin gets: the adapters and services, wired once in src/app.ts. */
import type { SnowflakeGenerator } from '../core/snowflake.js';
import type { EventBus } from '../events/bus.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ChannelMessagesService } from '../services/channel-messages-service.js';
import type { CommandIndexService } from '../services/command-index-service.js';
import type { CommandsService } from '../services/commands-service.js';
import type { EndpointService } from '../services/endpoint-service.js';
import type { InteractionsService } from '../services/interactions-service.js';
import type { MessageRenderer } from '../services/message-renderer.js';
import type { PermissionsService } from '../services/permissions-service.js';
import type { ResponsesService } from '../services/responses-service.js';
import type { WorldService } from '../services/world-service.js';
import type { Store } from '../store/store.js';

export interface HttpContext {
  store: Store;
  bus: EventBus;
  ids: SnowflakeGenerator;
  commands: CommandsService;
  world: WorldService;
  permissions: PermissionsService;
  commandIndex: CommandIndexService;
  interactions: InteractionsService;
  responses: ResponsesService;
  endpoints: EndpointService;
  renderer: MessageRenderer;
  gateway: Gateway;
  /** A bot's own channel messages (POST/PATCH/DELETE /channels/{id}/messages). */
  channelMessages: ChannelMessagesService;
  /** Secret of the /admin API; compared in constant time. */
  adminToken: string;
  now: () => number;
}
