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
export const CAROL_ID = '1335036896870400003';
export const DAVE_ID = '1335036896870400004';
/** A user of the world who is not a member of the test guild. */
export const ERIN_ID = '1335036896870400005';
/** A snowflake that names nothing in the world. */
export const NOBODY = '1399999999999999999';

// The test guild's roles (its @everyone role has the guild's id).
export const ADMIN_ROLE = '1345183757107200002';
export const MODERATOR_ROLE = '1345183757107200003';
export const MUTED_ROLE = '1345183757107200004';

// The test guild's channels.
export const CATEGORY = '1345183757107200010';
export const GENERAL = '1345183757107200011';
export const NSFW_LOUNGE = '1345183757107200012';
export const ANNOUNCEMENTS = '1345183757107200013';
/** A thread of #general. */
export const THREAD = '1345183757107200014';
/** The second guild's one channel (#allgemein). */
export const SECOND_GUILD_CHANNEL = '1345183757107201011';

// Ids free in the example world, for what a test adds to its own world.
/** A secret channel a test adds to the test guild: hidden from @everyone, or from someone. */
export const SECRET = '1345183757107200015';
/** A channel a test adds to the test guild, hidden from someone. */
export const HIDDEN = '1345183757107200020';
/** A guild a test adds (its @everyone role has the same id), and its text channel. */
export const ADDED_GUILD_ID = '1345183757107202001';
export const ADDED_GUILD_CHANNEL = '1345183757107202011';
/** Another guild a test adds. */
export const ANOTHER_ADDED_GUILD_ID = '1345183757107203001';
/** A DM or group DM channel: in no guild, so never in the world's guilds. */
export const DM_CHANNEL = '1399999999999999990';

/** The world's one message, in #general, written by carol. */
export const HELLO_MESSAGE = '1345183757107200100';
/** The demo bot's Authorization header. */
export const BOT = `Bot ${DEMO_BOT_TOKEN}`;
/** User tokens of the world (the Authorization header of a user session, as is). */
export const ALICE_TOKEN = 'alice-user-token';
export const BOB_TOKEN = 'bob-user-token';
export const CAROL_TOKEN = 'carol-user-token';
export const DAVE_TOKEN = 'dave-user-token';
export const ERIN_TOKEN = 'erin-user-token';
/** The demo app's command routes, under /api/v10. */
export const GLOBAL_BASE = `/applications/${DEMO_APP_ID}/commands`;
export const GUILD_BASE = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
export const DEMO_CC_TOKEN = 'demo-cc-token';
export const BOB_IDENTIFY_TOKEN = 'bob-identify-token';
export const ADMIN_TOKEN = 'test-admin-token';
/** The admin API's Authorization header. */
export const ADMIN_AUTH = `Bearer ${ADMIN_TOKEN}`;
