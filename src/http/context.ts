/** What every route plugin gets: the adapters and services, wired once in src/app.ts. */
import type { SnowflakeGenerator } from '../core/snowflake.js';
import type { EventBus } from '../events/bus.js';
import type { CommandsService } from '../services/commands-service.js';
import type { WorldService } from '../services/world-service.js';
import type { Store } from '../store/store.js';

export interface HttpContext {
  store: Store;
  bus: EventBus;
  ids: SnowflakeGenerator;
  commands: CommandsService;
  world: WorldService;
  /** Secret of the /admin API; compared in constant time. */
  adminToken: string;
  now: () => number;
}
