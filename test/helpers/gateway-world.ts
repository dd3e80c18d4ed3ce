/**
 * The example world with what gateway tests need: Other App allowed MESSAGE_CONTENT and
 * GUILD_MEMBERS and installed in the test guild too, a channel no bot can view, and a third guild
 * (the demo bot's) on shard 1 of 2.
 */
import type { World } from '../../src/core/world/types.js';
import { ALICE_ID, DEMO_APP_ID, OTHER_APP_ID, SECRET, TEST_GUILD_ID, exampleWorld } from './world.js';

export const GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;
export const GATEWAY_MESSAGE_CONTENT = 1 << 18;

/** On shard 1 of 2: (id >> 22) is odd, while the demo guilds' are even. */
export const THIRD_GUILD_ID = (BigInt(TEST_GUILD_ID) + (1n << 22n)).toString();
export const THIRD_CHANNEL = (BigInt(THIRD_GUILD_ID) + 10n).toString();

/** The example world plus the above, and SECRET (world.ts), which @everyone (so the bots) cannot view. */
export function gatewayWorld(): World {
  const w = exampleWorld();
  const other = w.applications.find((a) => a.id === OTHER_APP_ID)!;
  other.flags = GATEWAY_MESSAGE_CONTENT | GATEWAY_GUILD_MEMBERS_LIMITED;
  const test = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  test.installs.push({ application_id: OTHER_APP_ID, scopes: ['bot'], permissions: null });
  test.channels.push({
    id: SECRET,
    type: 0,
    name: 'secret',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: '1024' }],
  });
  w.guilds.push({
    id: THIRD_GUILD_ID,
    name: 'Third Guild',
    owner_id: ALICE_ID,
    preferred_locale: 'en-US',
    roles: [{ id: THIRD_GUILD_ID, name: '@everyone', permissions: '2147552256' }],
    channels: [{ id: THIRD_CHANNEL, type: 0, name: 'third', nsfw: false, parent_id: null, permission_overwrites: [] }],
    members: [{ user_id: ALICE_ID, roles: [], nick: null, joined_at: '2025-03-01T00:00:00.000Z' }],
    installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: '0' }],
    messages: [],
  });
  return w;
}
