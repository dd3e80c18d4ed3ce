/**
 * The command permission endpoints over HTTP ("Must show"): the list (app-level object
 * included), GET and PUT per command and for the application id, the disabled batch PUT, who may
 * edit (bot token, missing scope, a user without MANAGE_ROLES, a user who cannot run the command,
 * another guild, another app), the validation of the body, and the APPLICATION_COMMAND_PERMISSIONS_UPDATE
 * event of every successful PUT. Every refused PUT is checked to change nothing and publish nothing.
 * Every permissions response is validated against `CommandPermissionsResponse` and every error body
 * against `ErrorResponse` of openapi.json.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody, assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { adminOk, injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_BOT_TOKEN,
  ADDED_GUILD_CHANNEL,
  ADDED_GUILD_ID,
  ADMIN_ROLE,
  ALICE_ID,
  ANNOUNCEMENTS,
  BOB_ID,
  BOB_IDENTIFY_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DAVE_ID,
  DEMO_APP_ID,
  DEMO_CC_TOKEN,
  ERIN_ID,
  GENERAL,
  MODERATOR_ROLE,
  MUTED_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  THREAD,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const ALICE = 'Bearer alice-perm-token';
const BOB = 'Bearer bob-perm-token';
const CAROL = 'Bearer carol-perm-token';

/** Roles and channels of the example's Test Guild. */
const EVERYONE = TEST_GUILD_ID;
const ALL_CHANNELS = (BigInt(TEST_GUILD_ID) - 1n).toString();

/** A third guild, added for these tests: the demo app is installed there, alice owns it, bob is a member. */
const THIRD_GUILD_ID = ADDED_GUILD_ID;
const THIRD_GENERAL = ADDED_GUILD_CHANNEL;
/** The 100 extra roles of the third guild (for the 100-overwrite boundary). */
const THIRD_ROLES = Array.from({ length: 101 }, (_, i) => (BigInt(THIRD_GUILD_ID) + 100n + BigInt(i)).toString());

const guildBase = (guildId: string) => `/applications/${DEMO_APP_ID}/guilds/${guildId}/commands`;
const BASE = guildBase(TEST_GUILD_ID);
const permissionsPath = (targetId: string, guildId = TEST_GUILD_ID) => `${guildBase(guildId)}/${targetId}/permissions`;
const LIST = `${BASE}/permissions`;

function role(id: string, permission: boolean) {
  return { id, type: 1, permission };
}
function user(id: string, permission: boolean) {
  return { id, type: 2, permission };
}
function channel(id: string, permission: boolean) {
  return { id, type: 3, permission };
}

describe('command permission endpoints', () => {
  let server: TestServer;
  /** Every APPLICATION_COMMAND_PERMISSIONS_UPDATE published on the bus, in order. */
  const events: Json[] = [];
  let unsubscribe: () => void = () => {};
  /** Ids of the fixture commands. */
  const ids: Record<string, string> = {};

  /**
   * Every request of this file: a permissions response is checked against
   * CommandPermissionsResponse, and every error body against ErrorResponse (helpers/openapi.ts).
   */
  const request: TestServer['request'] = (method, path, options) =>
    withSchemaChecks(server).request(method, path, options);

  async function createCommand(key: string, base: string, body: Json, auth = BOT): Promise<void> {
    const response = await request('POST', base, { auth, body });
    assert.equal(response.status, 201, `create ${key}: ${response.text}`);
    ids[key] = response.body.id;
  }

  /** The whole state these tests can change: every permissions object of the demo app in both guilds. */
  async function snapshot(): Promise<unknown> {
    const [test, third] = await Promise.all([
      request('GET', LIST, { auth: BOT }),
      request('GET', `${guildBase(THIRD_GUILD_ID)}/permissions`, { auth: BOT }),
    ]);
    assert.equal(test.status, 200);
    assert.equal(third.status, 200);
    return { test: test.body, third: third.body };
  }

  function put(targetId: string, permissions: unknown, auth = ALICE, guildId = TEST_GUILD_ID): Promise<TestResponse> {
    return request('PUT', permissionsPath(targetId, guildId), { auth, body: { permissions } });
  }

  /** A successful PUT: 200, the schema, the overwrites as sent, and exactly one event carrying the same object. */
  async function putOk(targetId: string, permissions: Json[], auth = ALICE, guildId = TEST_GUILD_ID): Promise<Json> {
    const before = events.length;
    const response = await put(targetId, permissions, auth, guildId);
    assert.equal(response.status, 200, response.text);
    assertMatchesSchema('CommandPermissionsResponse', response.body);
    assert.deepEqual(response.body, { id: targetId, application_id: DEMO_APP_ID, guild_id: guildId, permissions });
    assert.equal(events.length, before + 1, 'one APPLICATION_COMMAND_PERMISSIONS_UPDATE per successful PUT');
    assert.deepEqual(events[before], { applicationId: DEMO_APP_ID, data: response.body });
    assertMatchesSchema('CommandPermissionsResponse', events[before].data);
    return response.body;
  }

  function assertError(response: TestResponse, status: number, code: number): void {
    assert.equal(response.status, status, response.text);
    assertErrorBody(response.status, response.body);
    assert.equal(response.body.code, code, response.text);
  }

  /** A refused request: its status and code, and no change and no event. */
  async function refused(request: () => Promise<TestResponse>, status: number, code: number): Promise<TestResponse> {
    const state = await snapshot();
    const before = events.length;
    const response = await request();
    assertError(response, status, code);
    assert.equal(events.length, before, 'a refused request publishes nothing');
    assert.deepEqual(await snapshot(), state, 'a refused request changes nothing');
    return response;
  }

  /** A 50035 refusal whose error tree has exactly these leaves (path → string codes). */
  async function invalid(targetId: string, body: unknown, leaves: Record<string, string[]>): Promise<Json> {
    const response = await refused(() => request('PUT', permissionsPath(targetId), { auth: ALICE, body }), 400, 50035);
    assert.equal(response.body.message, 'Invalid Form Body');
    assert.deepEqual(errorLeaves(response.body.errors), leaves, JSON.stringify(response.body));
    return response.body;
  }

  before(async () => {
    server = await injectServer();
    unsubscribe = server.slashd.bus.subscribe('APPLICATION_COMMAND_PERMISSIONS_UPDATE', (event) => {
      events.push(structuredClone(event));
    });
    await adminOk(withSchemaChecks(server), 'PUT', `/guilds/${THIRD_GUILD_ID}`, {
      id: THIRD_GUILD_ID,
      name: 'Third Guild',
      owner_id: ALICE_ID,
      preferred_locale: 'en-US',
      roles: [
        { id: THIRD_GUILD_ID, name: '@everyone', permissions: '2147552256' },
        ...THIRD_ROLES.map((id, i) => ({ id, name: `role-${i}`, permissions: '0' })),
      ],
      channels: [{ id: THIRD_GENERAL, type: 0, name: 'general' }],
      members: [
        { user_id: ALICE_ID, roles: [] },
        { user_id: BOB_ID, roles: [] },
      ],
      installs: [{ application_id: DEMO_APP_ID, scopes: ['applications.commands'] }],
    });
    // Bearer tokens the world file does not have: erin (no member of the Test Guild) and the other app.
    await adminOk(withSchemaChecks(server), 'POST', '/oauth2-tokens', {
      access_token: 'erin-perm-token',
      user_id: ERIN_ID,
      application_id: DEMO_APP_ID,
      scopes: ['identify', 'applications.commands.permissions.update'],
    });
    await adminOk(withSchemaChecks(server), 'POST', '/oauth2-tokens', {
      access_token: 'other-app-alice-perm-token',
      user_id: ALICE_ID,
      application_id: OTHER_APP_ID,
      scopes: ['identify', 'applications.commands.permissions.update'],
    });

    await createCommand('plain', BASE, { name: 'plain', description: 'Anyone may use it' });
    await createCommand('banOnly', BASE, {
      name: 'ban-only',
      description: 'Needs BAN_MEMBERS',
      default_member_permissions: '4',
    });
    await createCommand('denyBob', BASE, { name: 'deny-bob', description: 'Bob is denied by an overwrite' });
    await createCommand('listed', BASE, { name: 'listed', description: 'Has overwrites in the list' });
    await createCommand('replaced', BASE, { name: 'replaced', description: 'Its overwrites are replaced' });
    await createCommand('validated', BASE, { name: 'validated', description: 'Target of invalid bodies' });
    await createCommand('bare', BASE, { name: 'bare', description: 'Never has overwrites' });
    await createCommand('global', `/applications/${DEMO_APP_ID}/commands`, {
      name: 'global-one',
      description: 'A global command',
    });
    await createCommand('third', guildBase(THIRD_GUILD_ID), {
      name: 'third-only',
      description: 'A command of the third guild',
    });
    const launch = await request('GET', '/applications/1324165260902400003/commands', {
      auth: `Bot ${ACTIVITY_BOT_TOKEN}`,
    });
    assert.equal(launch.status, 200);
    ids.launch = launch.body.find((c: Json) => c.type === 4).id;

    await putOk(ids.denyBob!, [user(BOB_ID, false)]);
  });

  after(async () => {
    unsubscribe();
    await server.close();
  });

  describe('reads', () => {
    test('the list holds every permissions object of the app in the guild, the app-level one included', async () => {
      const appLevel = await putOk(DEMO_APP_ID, [role(MUTED_ROLE, false), channel(ANNOUNCEMENTS, false)]);
      const commandLevel = await putOk(ids.listed!, [
        role(MODERATOR_ROLE, true),
        user(CAROL_ID, false),
        channel(GENERAL, true),
      ]);
      const globalLevel = await putOk(ids.global!, [role(EVERYONE, false), channel(ALL_CHANNELS, true)]);
      for (const auth of [BOT, ALICE, BOB]) {
        const response = await request('GET', LIST, { auth });
        assert.equal(response.status, 200, response.text);
        assert.ok(Array.isArray(response.body));
        for (const object of response.body) assertMatchesSchema('CommandPermissionsResponse', object);
        const byId = new Map<string, Json>(response.body.map((object: Json) => [object.id, object]));
        assert.deepEqual(byId.get(DEMO_APP_ID), appLevel, 'the app-level object is in the list');
        assert.deepEqual(byId.get(ids.listed!), commandLevel);
        assert.deepEqual(byId.get(ids.global!), globalLevel, 'a global command has overwrites per guild');
        assert.deepEqual(byId.get(ids.denyBob!)?.permissions, [user(BOB_ID, false)]);
        assert.equal(byId.has(ids.bare!), false, 'a command without overwrites has no object');
        for (const object of response.body) {
          assert.equal(object.application_id, DEMO_APP_ID);
          assert.equal(object.guild_id, TEST_GUILD_ID);
        }
      }
    });

    test("the list is per guild: another guild's list holds none of these", async () => {
      const response = await request('GET', `${guildBase(THIRD_GUILD_ID)}/permissions`, { auth: BOT });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, []);
      const global = await request('GET', permissionsPath(ids.global!, THIRD_GUILD_ID), { auth: BOT });
      assertError(global, 404, 10066);
    });

    test('GET per command and for the application id, with the bot token and a Bearer token', async () => {
      const stored = await putOk(ids.replaced!, [role(MODERATOR_ROLE, false), user(DAVE_ID, true)]);
      for (const auth of [BOT, ALICE, `Bearer ${DEMO_CC_TOKEN}`]) {
        const command = await request('GET', permissionsPath(ids.replaced!), { auth });
        assert.equal(command.status, 200, command.text);
        assertMatchesSchema('CommandPermissionsResponse', command.body);
        assert.deepEqual(command.body, stored);
        const app = await request('GET', permissionsPath(DEMO_APP_ID), { auth });
        assert.equal(app.status, 200, app.text);
        assertMatchesSchema('CommandPermissionsResponse', app.body);
        assert.equal(app.body.id, DEMO_APP_ID);
        assert.equal(app.body.guild_id, TEST_GUILD_ID);
      }
    });

    test('GET of something without overwrites or unknown: 10066 or 10063', async () => {
      assertError(await request('GET', permissionsPath(ids.bare!), { auth: BOT }), 404, 10066);
      assertError(await request('GET', permissionsPath(DEMO_APP_ID, THIRD_GUILD_ID), { auth: BOT }), 404, 10066);
      assertError(await request('GET', permissionsPath('1234567890123456789'), { auth: BOT }), 404, 10063);
      // Another app's command, and a guild command of another guild, are unknown here.
      assertError(await request('GET', permissionsPath(ids.launch!), { auth: BOT }), 404, 10063);
      assertError(await request('GET', permissionsPath(ids.third!), { auth: BOT }), 404, 10063);
    });

    test('reads refused: no token, a user session that may not manage them, another app, a guild without the app', async () => {
      for (const path of [LIST, permissionsPath(ids.listed!), permissionsPath(DEMO_APP_ID)]) {
        const none = await request('GET', path);
        assertError(none, 401, 0);
        assert.deepEqual(none.body, { message: '401: Unauthorized', code: 0 });
        // A user session reads as v10's client does: only a member with MANAGE_GUILD and MANAGE_ROLES.
        assertError(await request('GET', path, { auth: CAROL_TOKEN }), 403, 50013);
        assertError(await request('GET', path, { auth: `Bot ${OTHER_BOT_TOKEN}` }), 403, 20012);
        assertError(await request('GET', path, { auth: 'Bearer other-app-alice-perm-token' }), 403, 20012);
      }
      const second = guildBase(SECOND_GUILD_ID);
      assertError(await request('GET', `${second}/permissions`, { auth: BOT }), 403, 50001);
      assertError(await request('GET', `${second}/${ids.listed}/permissions`, { auth: ALICE }), 403, 50001);
      assertError(await request('GET', `${guildBase('1345183757107209999')}/permissions`, { auth: BOT }), 403, 50001);
    });
  });

  describe('PUT', () => {
    test('PUT replaces the overwrites of the command in that guild', async () => {
      await putOk(ids.replaced!, [role(MODERATOR_ROLE, false), user(DAVE_ID, true), channel(GENERAL, false)]);
      const next = await putOk(ids.replaced!, [user(CAROL_ID, true)]);
      const read = await request('GET', permissionsPath(ids.replaced!), { auth: BOT });
      assert.deepEqual(read.body, next);
      assert.deepEqual(read.body.permissions, [user(CAROL_ID, true)], 'nothing of the earlier list is left');
    });

    test('PUT for the application id sets the app-level overwrites', async () => {
      const body = await putOk(DEMO_APP_ID, [
        role(MUTED_ROLE, false),
        channel(ANNOUNCEMENTS, false),
        user(DAVE_ID, false),
      ]);
      const read = await request('GET', permissionsPath(DEMO_APP_ID), { auth: ALICE });
      assert.deepEqual(read.body, body);
    });

    test('PUT of a global command is per guild', async () => {
      const inTestGuild = await putOk(ids.global!, [role(EVERYONE, false), channel(ALL_CHANNELS, true)]);
      const inThirdGuild = await putOk(ids.global!, [user(BOB_ID, false)], ALICE, THIRD_GUILD_ID);
      const third = await request('GET', permissionsPath(ids.global!, THIRD_GUILD_ID), { auth: BOT });
      assert.deepEqual(third.body, inThirdGuild);
      const test = await request('GET', permissionsPath(ids.global!), { auth: BOT });
      assert.deepEqual(test.body, inTestGuild, "the third guild's PUT left the Test Guild's alone");
    });

    test("PUT of an unknown command, or of another app's command: 10063, nothing changed", async () => {
      await refused(() => put('1234567890123456789', [user(BOB_ID, true)]), 404, 10063);
      await refused(() => put(ids.launch!, [user(BOB_ID, true)]), 404, 10063);
      await refused(() => put(ids.third!, [user(BOB_ID, true)]), 404, 10063);
    });

    test('the batch PUT is disabled: 405 with a v10 error body, nothing changed', async () => {
      const batch = [{ id: ids.plain, permissions: [user(BOB_ID, false)] }];
      for (const auth of [ALICE, BOT]) {
        const response = await refused(() => request('PUT', LIST, { auth, body: batch }), 405, 0);
        assert.match(response.body.message, /disabled/i);
      }
      assertError(await request('GET', permissionsPath(ids.plain!), { auth: BOT }), 404, 10066);
    });
  });

  describe('who may edit', () => {
    test('a bot token: 403, 20001, nothing changed', async () => {
      const response = await refused(() => put(ids.plain!, [user(CAROL_ID, false)], BOT), 403, 20001);
      assert.equal(response.body.message, 'Bots cannot use this endpoint');
      await refused(() => put(DEMO_APP_ID, [user(CAROL_ID, false)], BOT), 403, 20001);
    });

    test('a Bearer token without applications.commands.permissions.update: 403, 50026', async () => {
      await refused(() => put(ids.plain!, [user(CAROL_ID, false)], `Bearer ${BOB_IDENTIFY_TOKEN}`), 403, 50026);
      // The client-credentials token has applications.commands.update, which is not this scope.
      await refused(() => put(ids.plain!, [user(CAROL_ID, false)], `Bearer ${DEMO_CC_TOKEN}`), 403, 50026);
    });

    test('no token or a bad token: 401 (a user session is the editor itself: test/permissions-session.test.ts)', async () => {
      await refused(() => put(ids.plain!, [user(CAROL_ID, false)], ''), 401, 0);
      await refused(() => put(ids.plain!, [user(CAROL_ID, false)], 'Bearer not-a-token'), 401, 0);
      await refused(() => put(ids.plain!, [user(CAROL_ID, false)], 'not-a-user-token'), 401, 0);
    });

    test('a user without MANAGE_GUILD and MANAGE_ROLES (carol): 403, 50013', async () => {
      const response = await refused(() => put(ids.plain!, [user(CAROL_ID, true)], CAROL), 403, 50013);
      assert.equal(response.body.message, 'Missing Permissions');
      await refused(() => put(DEMO_APP_ID, [user(CAROL_ID, true)], CAROL), 403, 50013);
    });

    test('a user who may edit (bob, Moderator) edits a command he can run', async () => {
      await putOk(ids.plain!, [user(CAROL_ID, false), role(MUTED_ROLE, false)], BOB);
    });

    test('a user who cannot run the command: 403, 50013 (default_member_permissions he lacks)', async () => {
      await refused(() => put(ids.banOnly!, [user(CAROL_ID, false)], BOB), 403, 50013);
      // The owner can run it, so the same edit is hers to make.
      await putOk(ids.banOnly!, [user(CAROL_ID, false)], ALICE);
    });

    test('a user who cannot run the command: 403, 50013 (a command-level overwrite denies him)', async () => {
      await refused(() => put(ids.denyBob!, [user(BOB_ID, true)], BOB), 403, 50013);
      await refused(() => put(ids.denyBob!, [], BOB), 403, 50013);
    });

    test('app-level edits need no command: bob may edit them', async () => {
      await putOk(DEMO_APP_ID, [channel(ALL_CHANNELS, true), role(MUTED_ROLE, false)], BOB);
    });

    test("a role at or above the editor's highest role: 403, 50013", async () => {
      await refused(() => put(ids.plain!, [role(ADMIN_ROLE, true)], BOB), 403, 50013);
      await refused(() => put(ids.plain!, [role(MODERATOR_ROLE, true)], BOB), 403, 50013);
    });

    test('another guild (the Second Guild, without the demo app): 403, 50001', async () => {
      await refused(() => put(ids.plain!, [user(ERIN_ID, true)], ALICE, SECOND_GUILD_ID), 403, 50001);
      await refused(() => put(DEMO_APP_ID, [user(ERIN_ID, true)], ALICE, SECOND_GUILD_ID), 403, 50001);
    });

    test('a user who is not a member of the guild (erin): 403, 50001', async () => {
      await refused(() => put(DEMO_APP_ID, [user(BOB_ID, true)], 'Bearer erin-perm-token'), 403, 50001);
    });

    test("another app's token: 403, 20012", async () => {
      await refused(() => put(ids.plain!, [user(CAROL_ID, true)], `Bot ${OTHER_BOT_TOKEN}`), 403, 20012);
      await refused(() => put(ids.plain!, [user(CAROL_ID, true)], 'Bearer other-app-alice-perm-token'), 403, 20012);
      await refused(() => put(DEMO_APP_ID, [user(CAROL_ID, true)], 'Bearer other-app-alice-perm-token'), 403, 20012);
    });
  });

  describe('validation: 50035 with the path of every problem', () => {
    test('more than 100 overwrites', async () => {
      const overwrites = THIRD_ROLES.map((id) => role(id, true));
      assert.equal(overwrites.length, 101);
      const response = await refused(
        () =>
          request('PUT', permissionsPath(ids.third!, THIRD_GUILD_ID), {
            auth: ALICE,
            body: { permissions: overwrites },
          }),
        400,
        50035,
      );
      assert.deepEqual(errorLeaves(response.body.errors), { permissions: ['BASE_TYPE_MAX_LENGTH'] });
      // Exactly 100 is the limit, and accepted.
      await putOk(ids.third!, overwrites.slice(0, 100), ALICE, THIRD_GUILD_ID);
    });

    test('a bad type', async () => {
      await invalid(
        ids.validated!,
        { permissions: [{ id: CAROL_ID, type: 4, permission: true }] },
        {
          'permissions.0.type': ['BASE_TYPE_CHOICES'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [{ id: CAROL_ID, type: 0, permission: true }] },
        {
          'permissions.0.type': ['BASE_TYPE_CHOICES'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [user(BOB_ID, true), { id: CAROL_ID, type: '2', permission: true }] },
        {
          'permissions.1.type': ['NUMBER_TYPE_COERCE'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [{ id: CAROL_ID, permission: true }] },
        {
          'permissions.0.type': ['BASE_TYPE_REQUIRED'],
        },
      );
    });

    test('a bad id or permission', async () => {
      await invalid(
        ids.validated!,
        { permissions: [{ id: 'abc', type: 2, permission: true }] },
        {
          'permissions.0.id': ['NUMBER_TYPE_COERCE'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [{ id: CAROL_ID, type: 2, permission: 'yes' }] },
        {
          'permissions.0.permission': ['BOOLEAN_TYPE_COERCE'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [{ id: CAROL_ID, type: 2 }] },
        {
          'permissions.0.permission': ['BASE_TYPE_REQUIRED'],
        },
      );
    });

    test('the body itself', async () => {
      await invalid(ids.validated!, {}, { permissions: ['BASE_TYPE_REQUIRED'] });
      await invalid(ids.validated!, { permissions: null }, { permissions: ['BASE_TYPE_REQUIRED'] });
      await invalid(ids.validated!, { permissions: { id: CAROL_ID } }, { permissions: ['LIST_TYPE_CONVERT'] });
      await invalid(ids.validated!, { permissions: ['nope'] }, { 'permissions.0': ['DICT_TYPE_CONVERT'] });
      await invalid(ids.validated!, [user(CAROL_ID, true)], { '': ['DICT_TYPE_CONVERT'] });
    });

    test('unknown role, user and channel ids, and ids of the wrong type', async () => {
      await invalid(
        ids.validated!,
        { permissions: [role('1345183757107209999', true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [user(ERIN_ID, true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [channel('1345183757107209999', true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL'],
        },
      );
      // A channel of another guild is unknown here.
      await invalid(
        ids.validated!,
        { permissions: [channel(SECOND_GUILD_CHANNEL, true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL'],
        },
      );
      // A user id as a ROLE, a role id as a USER, a role id as a CHANNEL.
      await invalid(
        ids.validated!,
        { permissions: [role(CAROL_ID, true), user(MUTED_ROLE, true), channel(MODERATOR_ROLE, true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE'],
          'permissions.1.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER'],
          'permissions.2.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL'],
        },
      );
      // A thread follows its parent: an overwrite for it could never apply.
      await invalid(
        ids.validated!,
        { permissions: [channel(THREAD, false)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL'],
        },
      );
    });

    test('a duplicate id', async () => {
      await invalid(
        ids.validated!,
        { permissions: [user(CAROL_ID, true), user(CAROL_ID, false)] },
        {
          'permissions.1.id': ['APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID'],
        },
      );
      await invalid(
        ids.validated!,
        { permissions: [role(EVERYONE, true), channel(GENERAL, true), role(EVERYONE, false)] },
        {
          'permissions.2.id': ['APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID'],
        },
      );
    });

    test('every problem of a body at once', async () => {
      await invalid(
        ids.validated!,
        { permissions: [user(CAROL_ID, true), { id: 'x', type: 9, permission: 1 }, role('1345183757107209999', true)] },
        {
          'permissions.1.id': ['NUMBER_TYPE_COERCE'],
          'permissions.1.type': ['BASE_TYPE_CHOICES'],
          'permissions.1.permission': ['BOOLEAN_TYPE_COERCE'],
          'permissions.2.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE'],
        },
      );
    });

    test('the constants: guild id = @everyone (ROLE), guild id - 1 = all channels (CHANNEL) are accepted', async () => {
      await putOk(ids.validated!, [role(EVERYONE, false), channel(ALL_CHANNELS, false)]);
      const read = await request('GET', permissionsPath(ids.validated!), { auth: BOT });
      assert.deepEqual(read.body.permissions, [role(EVERYONE, false), channel(ALL_CHANNELS, false)]);
      // Each constant means something only with its own type.
      await invalid(
        ids.validated!,
        { permissions: [channel(EVERYONE, true), role(ALL_CHANNELS, true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL'],
          'permissions.1.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE'],
        },
      );
      // The Third Guild's constants are not the Test Guild's.
      const thirdAllChannels = (BigInt(THIRD_GUILD_ID) - 1n).toString();
      await invalid(
        ids.validated!,
        { permissions: [role(THIRD_GUILD_ID, true), channel(thirdAllChannels, true)] },
        {
          'permissions.0.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE'],
          'permissions.1.id': ['APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL'],
        },
      );
    });

    test('unknown fields of an overwrite are ignored, and not stored', async () => {
      const response = await put(ids.validated!, [{ ...user(CAROL_ID, true), extra: 'ignored' }]);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body.permissions, [user(CAROL_ID, true)]);
    });
  });

  test('the event carries exactly the stored object, one per successful PUT and in order', async () => {
    const before = events.length;
    const first = await putOk(ids.replaced!, [user(BOB_ID, true)]);
    const second = await putOk(DEMO_APP_ID, [role(MUTED_ROLE, false)]);
    await refused(() => put(ids.replaced!, [user(BOB_ID, true)], BOT), 403, 20001);
    await refused(() => put(ids.replaced!, [user(ERIN_ID, true)]), 400, 50035);
    assert.deepEqual(
      events.slice(before).map((event) => event.data),
      [first, second],
    );
    for (const event of events) assert.equal(event.applicationId, DEMO_APP_ID);
  });
});

/** A 50035 error tree flattened to `path → string codes` (the root is ''). */
function errorLeaves(tree: Json, prefix: string[] = []): Record<string, string[]> {
  const leaves: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors') {
      leaves[prefix.join('.')] = (value as Json[]).map((entry) => entry.code);
    } else {
      Object.assign(leaves, errorLeaves(value as Json, [...prefix, key]));
    }
  }
  return leaves;
}
