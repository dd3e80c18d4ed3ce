/** The example bot of docs/testing.md (examples/testing/ping-bot.js), loaded from the repository for the kit's tests. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PingBot from '../../examples/testing/ping-bot.js';
import { repoRoot } from './openapi.js';

export type { PingBot };

export function loadPingBot(): Promise<typeof PingBot> {
  return import(pathToFileURL(join(repoRoot(), 'examples/testing/ping-bot.js')).href) as Promise<typeof PingBot>;
}
