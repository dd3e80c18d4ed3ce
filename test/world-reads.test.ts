/**
 * The REST reads bots make while handling interactions, through the routes (injected): each
 * endpoint's success (validated against the OpenAPI document), each refusal (unknown guild, member,
 * user, channel; another app's guild; an app installed without the bot scope; missing
 * VIEW_CHANNEL), bounded query parameters as 50035 bodies naming the parameter, and pagination.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL } from '../src/core/permissions/bits.js';
import type { World } from '../src/core/world/types.js';
import { assertMatchesSchema, withSchemaChecks } from './helpers/openapi.js';
import { injectServer, type TestServer } from './helpers/server.js';
import {
  ACTIVITY_BOT_TOKEN,
  ADDED_GUILD_ID,
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  ANNOUNCEMENTS,
  ANOTHER_ADDED_GUILD_ID,
  BOB_ID,
  BOB_IDENTIFY_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  CATEGORY,
  DAVE_ID,
  DEMO_APP_ID,
  ERIN_TOKEN as ERIN,
  GENERAL,
  HIDDEN,
  MODERATOR_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  THREAD,
  exampleWorld,
} from './helpers/world.js';
import type { Json } from './helpers/json.js';

const OTHER = `Bot ${OTHER_BOT_TOKEN}`;
const ACTIVITY = `Bot ${ACTIVITY_BOT_TOKEN}`;
const THIRD_GUILD_ID = ADDED_GUILD_ID;
const FOURTH_GUILD_ID = ANOTHER_ADDED_GUILD_ID;
/** Application flag GATEWAY_GUILD_MEMBERS: the privileged intent the member list needs. */
const GATEWAY_GUILD_MEMBERS = 1 << 14;
const VIEW_CHANNEL = 1 << 10;

/** The example world, plus a channel nobody but admins sees and two more guilds with the demo bot. */
function readsWorld(): World {
  const world = exampleWorld();
  world.applications.find((a) => a.id === DEMO_APP_ID)!.flags |= GATEWAY_GUILD_MEMBERS;
  world.guilds[0]!.channels.push({
    id: HIDDEN,
    type: 0,
    name: 'hidden',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: String(VIEW_CHANNEL) }],
  });
  for (const [id, name] of [
    [THIRD_GUILD_ID, 'Third'],
    [FOURTH_GUILD_ID, 'Fourth'],
  ] as const) {
    world.guilds.push({
      id,
      name,
      owner_id: ALICE_ID,
      preferred_locale: 'en-US',
      roles: [{ id, name: '@everyone', permissions: '1024' }],
      channels: [],
      members: [{ user_id: ALICE_ID, roles: [], nick: null, joined_at: '2025-03-01T00:00:00.000Z' }],
      installs: [{ application_id: DEMO_APP_ID, scopes: ['bot'], permissions: '8' }],
      messages: [],
    });
  }
  return world;
}

describe('REST reads of the world', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer({ world: readsWorld() }));
  });
  after(async () => {
    await server.close();
  });

  async function ok(path: string, auth: string = BOT): Promise<any> {
    const response = await server.request('GET', path, { auth });
    assert.equal(response.status, 200, `${path}: ${response.text}`);
    return response.body;
  }

  async function refused(path: string, auth: string, status: number, code: number): Promise<void> {
    const response = await server.request('GET', path, { auth });
    assert.equal(response.status, status, `${path}: ${response.text}`);
    assert.equal(response.body.code, code, `${path}: ${response.text}`);
  }

  test('GET /guilds/{id}: the guild with its roles; with_counts adds the member count', async () => {
    const guild = await ok(`/guilds/${TEST_GUILD_ID}`);
    assertMatchesSchema('GuildWithCountsResponse', guild);
    assert.equal(guild.name, 'Test Guild');
    assert.equal(guild.roles.length, 4);
    assert.equal(guild.approximate_member_count, undefined);
    const counted = await ok(`/guilds/${TEST_GUILD_ID}?with_counts=true`);
    assertMatchesSchema('GuildWithCountsResponse', counted);
    // Four users and the demo bot.
    assert.equal(counted.approximate_member_count, 5);
    // A member of the guild reads it with a user token too.
    assert.equal((await ok(`/guilds/${TEST_GUILD_ID}`, ALICE)).id, TEST_GUILD_ID);
  });

  test('GET /guilds/{id}: 10004 for an unknown guild, 50001 where the bot is not', async () => {
    await refused('/guilds/1', BOT, 404, 10004);
    await refused(`/guilds/${SECOND_GUILD_ID}`, BOT, 403, 50001);
    await refused(`/guilds/${TEST_GUILD_ID}`, OTHER, 403, 50001);
    // Installed with applications.commands only: no bot in the guild.
    await refused(`/guilds/${TEST_GUILD_ID}`, ACTIVITY, 403, 50001);
    await refused(`/guilds/${TEST_GUILD_ID}`, ERIN, 403, 50001);
    await refused(`/guilds/${TEST_GUILD_ID}/channels`, OTHER, 403, 50001);
    await refused(`/guilds/${TEST_GUILD_ID}/roles`, OTHER, 403, 50001);
    await refused(`/guilds/${TEST_GUILD_ID}/members/${ALICE_ID}`, OTHER, 403, 50001);
    const bearer = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: `Bearer ${BOB_IDENTIFY_TOKEN}` });
    assert.equal(bearer.status, 401);
    assert.equal((await server.request('GET', `/guilds/${TEST_GUILD_ID}`)).status, 401);
  });

  test('GET /guilds/{id}/channels: every channel but threads, each a v10 guild channel', async () => {
    const channels: Json[] = await ok(`/guilds/${TEST_GUILD_ID}/channels`);
    assert.deepEqual(
      channels.map((c) => c.id),
      exampleWorld()
        .guilds[0]!.channels.filter((c) => c.type !== 11)
        .map((c) => c.id)
        .concat(HIDDEN),
    );
    for (const channel of channels) assertMatchesSchema('GuildChannelResponse', channel);
    const announcements = channels.find((c) => c.id === ANNOUNCEMENTS)!;
    assert.deepEqual(announcements.permission_overwrites, [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: '2048' }]);
    assert.equal(channels.find((c) => c.id === GENERAL)!.parent_id, CATEGORY);
  });

  test('GET /guilds/{id}/roles: every role, @everyone at position 0', async () => {
    const roles: Json[] = await ok(`/guilds/${TEST_GUILD_ID}/roles`);
    for (const role of roles) assertMatchesSchema('GuildRoleResponse', role);
    assert.deepEqual(
      roles.map((r) => [r.name, r.position]),
      [
        ['@everyone', 0],
        ['Admin', 3],
        ['Moderator', 2],
        ['Muted', 1],
      ],
    );
  });

  test('GET /guilds/{id}/members/{user}: a user, the bot itself; 10007 for anyone else', async () => {
    const bob = await ok(`/guilds/${TEST_GUILD_ID}/members/${BOB_ID}`);
    assertMatchesSchema('GuildMemberResponse', bob);
    assert.equal(bob.user.id, BOB_ID);
    assert.equal(bob.nick, 'Bobby');
    assert.deepEqual(bob.roles, [MODERATOR_ROLE]);
    const me = await ok(`/guilds/${TEST_GUILD_ID}/members/${DEMO_APP_ID}`);
    assertMatchesSchema('GuildMemberResponse', me);
    assert.equal(me.user.bot, true);
    assert.deepEqual(me.roles, []);
    await refused(`/guilds/${TEST_GUILD_ID}/members/1335036896870400005`, BOT, 404, 10007);
    await refused(`/guilds/${TEST_GUILD_ID}/members/${OTHER_APP_ID}`, BOT, 404, 10007);
    await refused(`/guilds/${TEST_GUILD_ID}/members/not-an-id`, BOT, 404, 10007);
  });

  test('GET /guilds/{id}/members: ascending by id after `after`, at most `limit`', async () => {
    const first: Json[] = await ok(`/guilds/${TEST_GUILD_ID}/members`);
    assert.deepEqual(
      first.map((m) => m.user.id),
      [DEMO_APP_ID],
      'the default limit is 1',
    );
    const all: Json[] = await ok(`/guilds/${TEST_GUILD_ID}/members?limit=1000`);
    for (const member of all) assertMatchesSchema('GuildMemberResponse', member);
    assert.deepEqual(
      all.map((m) => m.user.id),
      [DEMO_APP_ID, ALICE_ID, BOB_ID, CAROL_ID, DAVE_ID],
    );
    const page: Json[] = await ok(`/guilds/${TEST_GUILD_ID}/members?limit=2&after=${ALICE_ID}`);
    assert.deepEqual(
      page.map((m) => m.user.id),
      [BOB_ID, CAROL_ID],
    );
    assert.deepEqual(await ok(`/guilds/${TEST_GUILD_ID}/members?after=${DAVE_ID}`), []);
  });

  test('GET /guilds/{id}/members: bounded parameters, and the GUILD_MEMBERS intent required', async () => {
    for (const [query, code] of [
      ['limit=0', 'NUMBER_TYPE_MIN'],
      ['limit=1001', 'NUMBER_TYPE_MAX'],
      ['limit=ten', 'NUMBER_TYPE_COERCE'],
      ['limit=1&limit=2', 'NUMBER_TYPE_COERCE'],
      ['after=-1', 'NUMBER_TYPE_COERCE'],
      ['after=99999999999999999999999', 'NUMBER_TYPE_COERCE'],
    ] as const) {
      const response = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members?${query}`, { auth: BOT });
      assert.equal(response.status, 400, query);
      assert.equal(response.body.code, 50035);
      const field = query.split('=')[0]!;
      assert.equal(response.body.errors[field]._errors[0].code, code, query);
    }
    // The other app lacks the intent: Missing Access even in its own guild.
    await refused(`/guilds/${SECOND_GUILD_ID}/members`, OTHER, 403, 50001);
    // A user cannot list members.
    assert.equal((await server.request('GET', `/guilds/${TEST_GUILD_ID}/members`, { auth: ALICE })).status, 401);
  });

  test('GET /users/{id}: any user, or a bot by its application id; 10013 otherwise', async () => {
    const bob = await ok(`/users/${BOB_ID}`);
    assertMatchesSchema('UserResponse', bob);
    assert.equal(bob.username, 'bob');
    assert.equal(bob.token, undefined);
    assert.equal(bob.locale, undefined);
    const bot = await ok(`/users/${OTHER_APP_ID}`, ALICE);
    assertMatchesSchema('UserResponse', bot);
    assert.equal(bot.bot, true);
    await refused('/users/1', BOT, 404, 10013);
    await refused('/users/nobody', BOT, 404, 10013);
  });

  test("GET /users/@me/guilds: the bot's guilds ascending, with limit, before and after", async () => {
    const guilds: Json[] = await ok('/users/@me/guilds');
    for (const guild of guilds) assertMatchesSchema('MyGuildResponse', guild);
    assert.deepEqual(
      guilds.map((g) => g.id),
      [TEST_GUILD_ID, THIRD_GUILD_ID, FOURTH_GUILD_ID],
    );
    assert.equal(guilds[0]!.owner, false);
    assert.equal(guilds[0]!.permissions, '2147552256');
    // ADMINISTRATOR in the install: every permission.
    assert.equal(guilds[1]!.permissions, ALL.toString());
    const limited: Json[] = await ok('/users/@me/guilds?limit=2');
    assert.deepEqual(
      limited.map((g) => g.id),
      [TEST_GUILD_ID, THIRD_GUILD_ID],
    );
    const afterFirst: Json[] = await ok(`/users/@me/guilds?after=${TEST_GUILD_ID}&limit=1`);
    assert.deepEqual(
      afterFirst.map((g) => g.id),
      [THIRD_GUILD_ID],
    );
    const beforeLast: Json[] = await ok(`/users/@me/guilds?before=${FOURTH_GUILD_ID}`);
    assert.deepEqual(
      beforeLast.map((g) => g.id),
      [TEST_GUILD_ID, THIRD_GUILD_ID],
    );
    const counted: Json[] = await ok('/users/@me/guilds?with_counts=true&limit=1');
    assertMatchesSchema('MyGuildResponse', counted[0]);
    assert.equal(counted[0]!.approximate_member_count, 5);
    const tooMany = await server.request('GET', '/users/@me/guilds?limit=201', { auth: BOT });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors.limit._errors[0].code, 'NUMBER_TYPE_MAX');
    // A user's guilds are those they are a member of; the owner has every permission.
    const alice: Json[] = await ok('/users/@me/guilds', ALICE);
    assert.deepEqual(
      alice.map((g) => [g.id, g.owner]),
      [
        [TEST_GUILD_ID, true],
        [THIRD_GUILD_ID, true],
        [FOURTH_GUILD_ID, true],
      ],
    );
    // A Bearer token needs the `guilds` scope.
    const bearer = await server.request('GET', '/users/@me/guilds', { auth: `Bearer ${BOB_IDENTIFY_TOKEN}` });
    assert.equal(bearer.status, 403);
    assert.equal(bearer.body.code, 50026);
  });

  test('GET /channels/{id}: a channel or a thread the caller can view; 10003, 50001 otherwise', async () => {
    const general = await ok(`/channels/${GENERAL}`);
    assertMatchesSchema('GuildChannelResponse', general);
    assert.equal(general.guild_id, TEST_GUILD_ID);
    const thread = await ok(`/channels/${THREAD}`);
    assertMatchesSchema('ThreadResponse', thread);
    assert.equal(thread.parent_id, GENERAL);
    const category = await ok(`/channels/${CATEGORY}`, ALICE);
    assertMatchesSchema('GuildChannelResponse', category);
    await refused('/channels/1', BOT, 404, 10003);
    await refused(`/channels/${HIDDEN}`, BOT, 403, 50001);
    await refused(`/channels/${HIDDEN}`, CAROL_TOKEN, 403, 50001);
    // The guild owner sees every channel.
    assert.equal((await ok(`/channels/${HIDDEN}`, ALICE)).id, HIDDEN);
    await refused(`/channels/${GENERAL}`, OTHER, 403, 50001);
    await refused(`/channels/${GENERAL}`, ACTIVITY, 403, 50001);
  });
});
