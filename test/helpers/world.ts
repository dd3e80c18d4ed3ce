/** The reference world (a verbatim copy of the contract's example) and names for its parts. */
import { parseWorld } from '../../src/core/world/parse.js';
import type { World } from '../../src/core/world/types.js';
import { DEMO_WORLD } from '../../src/world/demo-world.js';

export function exampleWorld(): World {
  const parsed = parseWorld(structuredClone(DEMO_WORLD));
  if (!parsed.ok) throw new Error(`example world invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

export const DEMO_APP_ID = '1324165260902400001';
export const DEMO_BOT_TOKEN = 'demo-bot-token-please-change';
export const OTHER_APP_ID = '1324165260902400002';
export const OTHER_BOT_TOKEN = 'other-bot-token';
export const ACTIVITY_APP_ID = '1324165260902400003';
export const ACTIVITY_BOT_TOKEN = 'activity-bot-token';
export const TEST_GUILD_ID = '1345183757107200001';
export const SECOND_GUILD_ID = '1345183757107201001';
export const ALICE_ID = '1335036896870400001';
export const BOB_ID = '1335036896870400002';
export const DEMO_CC_TOKEN = 'demo-cc-token';
export const BOB_IDENTIFY_TOKEN = 'bob-identify-token';
export const ADMIN_TOKEN = 'test-admin-token';
