/**
 * Issue 35, item 6: one role hierarchy for every member action, through real HTTP. A bot below
 * another bot cannot ban it (alone or in a bulk ban), kick it, or edit, time out, mute, move or
 * give roles to a member above it; the owner is never a target. A bot still acts on whoever is
 * below it: users with lower roles, a user who is no member, and a lower bot.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { World } from '../src/core/world/types.js';
import { installBot } from './helpers/guild-admin.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_ID,
  BOB_ID,
  BOT,
  CAROL_ID,
  DAVE_ID,
  DEMO_APP_ID,
  ERIN_ID,
  GENERAL,
  MODERATOR_ROLE,
  MUTED_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';

const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;
/** The other app's role (v10's managed bot role), just below Moderator: above the demo bot's. */
const OTHER_BOT_ROLE = '1345183757107200008';
/** The demo bot's role, below the other bot's and above Muted. */
const DEMO_BOT_ROLE = '1345183757107200009';

const F = PermissionFlagsBits;
const MODERATION =
  F.ViewChannel |
  F.SendMessages |
  F.ReadMessageHistory |
  F.BanMembers |
  F.KickMembers |
  F.ManageGuild |
  F.ManageRoles |
  F.ManageNicknames |
  F.ModerateMembers |
  F.MuteMembers |
  F.DeafenMembers |
  F.MoveMembers;

function world(): World {
  const w = exampleWorld();
  const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const muted = guild.roles.findIndex((role) => role.id === MUTED_ROLE);
  guild.roles.splice(
    muted,
    0,
    { id: OTHER_BOT_ROLE, name: 'Other App', permissions: '0', bot_id: OTHER_APP_ID },
    { id: DEMO_BOT_ROLE, name: 'Demo Bot', permissions: '0', bot_id: DEMO_APP_ID },
  );
  return w;
}

describe('every member action follows one role hierarchy', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ world: world() });
    await installBot(server, TEST_GUILD_ID, DEMO_APP_ID, MODERATION);
    await installBot(server, TEST_GUILD_ID, OTHER_APP_ID, MODERATION);
  });
  after(() => server.close());

  const as = (auth: string, method: string, path: string, body?: unknown) =>
    server.request(method, `/guilds/${TEST_GUILD_ID}${path}`, { auth, body });
  const refused = (response: { status: number; text: string; body: { code?: number } }, what: string) => {
    assert.equal(response.status, 403, `${what}: ${response.text}`);
    assert.equal(response.body.code, 50013, what);
  };

  test('a lower bot cannot ban, bulk-ban or kick a higher bot, which keeps posting', async () => {
    refused(await as(BOT, 'PUT', `/bans/${OTHER_APP_ID}`, {}), 'ban');
    refused(await as(BOT, 'DELETE', `/members/${OTHER_APP_ID}`), 'kick');
    const none = await as(BOT, 'POST', '/bulk-ban', { user_ids: [OTHER_APP_ID, ALICE_ID] });
    assert.equal(none.status, 400, none.text);
    assert.equal(none.body.code, 500000);
    const some = await as(BOT, 'POST', '/bulk-ban', { user_ids: [OTHER_APP_ID, ERIN_ID] });
    assert.equal(some.status, 200, some.text);
    assert.deepEqual(some.body, { banned_users: [ERIN_ID], failed_users: [OTHER_APP_ID] });
    assert.equal((await as(BOT, 'GET', `/bans/${OTHER_APP_ID}`)).status, 404);
    const posted = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: OTHER_BOT,
      body: { content: 'still here' },
    });
    assert.equal(posted.status, 200, posted.text);
  });

  test('the owner is never a target', async () => {
    refused(await as(BOT, 'PUT', `/bans/${ALICE_ID}`, {}), 'ban the owner');
    refused(await as(BOT, 'DELETE', `/members/${ALICE_ID}`), 'kick the owner');
    refused(await as(OTHER_BOT, 'PATCH', `/members/${ALICE_ID}`, { nick: 'x' }), 'rename the owner');
  });

  test('a bot cannot edit, time out, mute, move or give roles to a member above it', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    for (const body of [
      { nick: 'demoted' },
      { communication_disabled_until: soon },
      { mute: true },
      { deaf: true },
      { channel_id: GENERAL },
      { roles: [MODERATOR_ROLE, MUTED_ROLE] },
    ]) {
      refused(await as(BOT, 'PATCH', `/members/${BOB_ID}`, body), JSON.stringify(body));
    }
    refused(await as(BOT, 'PUT', `/members/${BOB_ID}/roles/${MUTED_ROLE}`), 'role add');
    refused(await as(BOT, 'DELETE', `/members/${BOB_ID}/roles/${MODERATOR_ROLE}`), 'role remove');
    refused(await as(BOT, 'PUT', `/bans/${BOB_ID}`, {}), 'ban');
    refused(await as(BOT, 'DELETE', `/members/${BOB_ID}`), 'kick');
    const bob = await as(BOT, 'GET', `/members/${BOB_ID}`);
    assert.equal(bob.status, 200, bob.text);
    assert.equal(bob.body.nick, 'Bobby');
    assert.deepEqual(bob.body.roles, [MODERATOR_ROLE]);
    assert.equal(bob.body.communication_disabled_until ?? null, null);
  });

  test('a bot still acts on whoever is below it', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const timedOut = await as(BOT, 'PATCH', `/members/${CAROL_ID}`, { communication_disabled_until: soon });
    assert.equal(timedOut.status, 200, timedOut.text);
    const renamed = await as(OTHER_BOT, 'PATCH', `/members/${CAROL_ID}`, { nick: 'Caz' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await as(BOT, 'PUT', `/members/${DAVE_ID}/roles/${MUTED_ROLE}`)).status, 204);
    assert.equal((await as(BOT, 'DELETE', `/members/${DAVE_ID}`)).status, 204);
    assert.equal((await as(BOT, 'PUT', `/bans/${CAROL_ID}`, {})).status, 204);
    // The higher bot bans the lower one.
    assert.equal((await as(OTHER_BOT, 'PUT', `/bans/${DEMO_APP_ID}`, {})).status, 204);
    assert.equal((await as(OTHER_BOT, 'GET', `/bans/${DEMO_APP_ID}`)).status, 200);
  });
});
