/**
 * Command permissions follow their command ("Lifecycle"; v10 API: "Deleting or renaming a
 * command permanently deletes its permissions"): DELETE, a rename by PATCH, and a removal or a rename
 * in a bulk overwrite delete the command's overwrites, in every guild, in the same transaction; an
 * edit that keeps the name keeps them. POST is an upsert by name, so it can never rename: a POST
 * with the same name keeps the overwrites, one with a new name makes a new command and leaves the
 * old one and its overwrites alone. App-level overwrites belong to no command and stay.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { assertErrorBody, assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_ID,
  BOB_ID,
  BOT,
  CAROL_ID,
  DEMO_APP_ID,
  GENERAL,
  GLOBAL_BASE,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
  ANOTHER_ADDED_GUILD_ID,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const ALICE = 'Bearer alice-perm-token';

/** A second guild with the demo app, so that global commands have overwrites in two guilds. */
const OTHER_GUILD_ID = ANOTHER_ADDED_GUILD_ID;

const guildBase = (guildId: string) => `/applications/${DEMO_APP_ID}/guilds/${guildId}/commands`;
const GUILD_BASE = guildBase(TEST_GUILD_ID);
const permissionsPath = (guildId: string, targetId: string) => `${guildBase(guildId)}/${targetId}/permissions`;

const OVERWRITES = [
  { id: MODERATOR_ROLE, type: 1, permission: true },
  { id: CAROL_ID, type: 2, permission: false },
  { id: GENERAL, type: 3, permission: true },
];

describe('command permissions follow their command', () => {
  let server: TestServer;

  /**
   * Every request of this file: a permissions response is checked against
   * CommandPermissionsResponse, and every error body against ErrorResponse (helpers/openapi.ts).
   */
  const request: TestServer['request'] = (method, path, options) =>
    withSchemaChecks(server).request(method, path, options);

  function assertError(response: TestResponse, status: number, code: number): void {
    assert.equal(response.status, status, response.text);
    assertErrorBody(response.status, response.body);
    assert.equal(response.body.code, code, response.text);
  }

  async function call(method: string, path: string, body?: unknown): Promise<TestResponse> {
    return request(method, path, { auth: BOT, body });
  }

  async function create(base: string, name: string, extra: Json = {}): Promise<Json> {
    const response = await call('POST', base, { name, description: `The ${name} command`, ...extra });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  async function setOverwrites(guildId: string, targetId: string, permissions: Json[] = OVERWRITES): Promise<void> {
    const response = await request('PUT', permissionsPath(guildId, targetId), { auth: ALICE, body: { permissions } });
    assert.equal(response.status, 200, response.text);
    assertMatchesSchema('CommandPermissionsResponse', response.body);
  }

  async function listedIds(guildId: string): Promise<string[]> {
    const response = await call('GET', `${guildBase(guildId)}/permissions`);
    assert.equal(response.status, 200, response.text);
    for (const object of response.body) assertMatchesSchema('CommandPermissionsResponse', object);
    return response.body.map((object: Json) => object.id);
  }

  /** The command's overwrites are there: GET returns them and the list has the object. */
  async function assertKept(guildId: string, targetId: string, permissions: Json[] = OVERWRITES): Promise<void> {
    const response = await call('GET', permissionsPath(guildId, targetId));
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { id: targetId, application_id: DEMO_APP_ID, guild_id: guildId, permissions });
    assert.ok((await listedIds(guildId)).includes(targetId), 'the list has the object');
  }

  /** The overwrites are gone, the command still there: 10066, and the list lacks the object. */
  async function assertDroppedCommandKept(guildId: string, targetId: string): Promise<void> {
    assertError(await call('GET', permissionsPath(guildId, targetId)), 404, 10066);
    assert.ok(!(await listedIds(guildId)).includes(targetId), 'the list no longer has the object');
  }

  /** The command is gone and its overwrites with it: 10063, and the list lacks the object. */
  async function assertDroppedCommandGone(guildId: string, targetId: string): Promise<void> {
    assertError(await call('GET', permissionsPath(guildId, targetId)), 404, 10063);
    assert.ok(!(await listedIds(guildId)).includes(targetId), 'the list no longer has the object');
  }

  before(async () => {
    server = await injectServer();
    const admin = await request('PUT', `${server.url}/admin/guilds/${OTHER_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: {
        id: OTHER_GUILD_ID,
        name: 'Other Guild',
        owner_id: ALICE_ID,
        preferred_locale: 'en-US',
        roles: [{ id: OTHER_GUILD_ID, name: '@everyone', permissions: '2147552256' }],
        channels: [{ id: '1345183757107203011', type: 0, name: 'general' }],
        members: [
          { user_id: ALICE_ID, roles: [] },
          { user_id: BOB_ID, roles: [] },
        ],
        installs: [{ application_id: DEMO_APP_ID, scopes: ['applications.commands'] }],
      },
    });
    assert.equal(admin.status, 200, admin.text);
  });

  after(async () => {
    await server.close();
  });

  beforeEach(async () => {
    // Each test starts from empty command lists in both scopes (the bulk overwrite empties them).
    for (const base of [GLOBAL_BASE, GUILD_BASE, guildBase(OTHER_GUILD_ID)]) {
      const response = await call('PUT', base, []);
      assert.equal(response.status, 200, response.text);
    }
    // App-level overwrites, which no command change may touch.
    await setOverwrites(TEST_GUILD_ID, DEMO_APP_ID, [{ id: CAROL_ID, type: 2, permission: true }]);
  });

  /** The app-level object is never dropped by a command change. */
  async function assertAppLevelKept(): Promise<void> {
    await assertKept(TEST_GUILD_ID, DEMO_APP_ID, [{ id: CAROL_ID, type: 2, permission: true }]);
  }

  describe('DELETE', () => {
    test('deleting a guild command deletes its overwrites; its neighbour keeps its own', async () => {
      const doomed = await create(GUILD_BASE, 'doomed');
      const neighbour = await create(GUILD_BASE, 'neighbour');
      await setOverwrites(TEST_GUILD_ID, doomed.id);
      await setOverwrites(TEST_GUILD_ID, neighbour.id);
      assert.equal((await call('DELETE', `${GUILD_BASE}/${doomed.id}`)).status, 204);
      await assertDroppedCommandGone(TEST_GUILD_ID, doomed.id);
      await assertKept(TEST_GUILD_ID, neighbour.id);
      await assertAppLevelKept();
      // A new command of the same name is a new command: no overwrites.
      const again = await create(GUILD_BASE, 'doomed');
      assert.notEqual(again.id, doomed.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, again.id);
    });

    test('deleting a global command deletes its overwrites in every guild', async () => {
      const doomed = await create(GLOBAL_BASE, 'doomed-global');
      await setOverwrites(TEST_GUILD_ID, doomed.id);
      await setOverwrites(OTHER_GUILD_ID, doomed.id, [{ id: BOB_ID, type: 2, permission: false }]);
      assert.equal((await call('DELETE', `${GLOBAL_BASE}/${doomed.id}`)).status, 204);
      await assertDroppedCommandGone(TEST_GUILD_ID, doomed.id);
      await assertDroppedCommandGone(OTHER_GUILD_ID, doomed.id);
      await assertAppLevelKept();
    });
  });

  describe('PATCH', () => {
    test('a rename deletes the overwrites (same id, the command stays)', async () => {
      const command = await create(GUILD_BASE, 'before');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const patched = await call('PATCH', `${GUILD_BASE}/${command.id}`, { name: 'after' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.id, command.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, command.id);
      await assertAppLevelKept();
      // Renaming back does not bring them back.
      assert.equal((await call('PATCH', `${GUILD_BASE}/${command.id}`, { name: 'before' })).status, 200);
      await assertDroppedCommandKept(TEST_GUILD_ID, command.id);
    });

    test('a rename of a global command deletes its overwrites in every guild', async () => {
      const command = await create(GLOBAL_BASE, 'global-before');
      await setOverwrites(TEST_GUILD_ID, command.id);
      await setOverwrites(OTHER_GUILD_ID, command.id, [{ id: BOB_ID, type: 2, permission: false }]);
      assert.equal((await call('PATCH', `${GLOBAL_BASE}/${command.id}`, { name: 'global-after' })).status, 200);
      await assertDroppedCommandKept(TEST_GUILD_ID, command.id);
      await assertDroppedCommandKept(OTHER_GUILD_ID, command.id);
    });

    test('an edit that keeps the name keeps the overwrites', async () => {
      const command = await create(GUILD_BASE, 'steady');
      await setOverwrites(TEST_GUILD_ID, command.id);
      for (const patch of [
        { description: 'A new description' },
        { name: 'steady', description: 'The same name, given again' },
        { name_localizations: { fr: 'stable' } },
        { default_member_permissions: '32' },
      ]) {
        const response = await call('PATCH', `${GUILD_BASE}/${command.id}`, patch);
        assert.equal(response.status, 200, response.text);
        await assertKept(TEST_GUILD_ID, command.id);
      }
    });

    test('a refused rename (the name is taken) keeps the overwrites', async () => {
      const command = await create(GUILD_BASE, 'holder');
      await create(GUILD_BASE, 'taken');
      await setOverwrites(TEST_GUILD_ID, command.id);
      assertError(await call('PATCH', `${GUILD_BASE}/${command.id}`, { name: 'taken' }), 400, 40041);
      await assertKept(TEST_GUILD_ID, command.id);
    });
  });

  describe('POST (upsert by name)', () => {
    test('an upsert keeps the name, so it keeps the overwrites', async () => {
      const command = await create(GUILD_BASE, 'upserted');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const again = await call('POST', GUILD_BASE, { name: 'upserted', description: 'Overwritten by an upsert' });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.id, command.id);
      assert.notEqual(again.body.version, command.version);
      await assertKept(TEST_GUILD_ID, command.id);
    });

    test('a POST with a new name makes a new command: the old one keeps its overwrites, the new one has none', async () => {
      const command = await create(GLOBAL_BASE, 'original');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const renamed = await call('POST', GLOBAL_BASE, { name: 'original-renamed', description: 'A "rename" by POST' });
      assert.equal(renamed.status, 201, renamed.text);
      assert.notEqual(renamed.body.id, command.id);
      await assertKept(TEST_GUILD_ID, command.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, renamed.body.id);
    });
  });

  describe('bulk overwrite', () => {
    test('a command left out of the list is deleted with its overwrites', async () => {
      const gone = await create(GUILD_BASE, 'left-out');
      const kept = await create(GUILD_BASE, 'kept');
      await setOverwrites(TEST_GUILD_ID, gone.id);
      await setOverwrites(TEST_GUILD_ID, kept.id);
      const response = await call('PUT', GUILD_BASE, [{ name: 'kept', description: 'The kept command' }]);
      assert.equal(response.status, 200, response.text);
      await assertDroppedCommandGone(TEST_GUILD_ID, gone.id);
      await assertKept(TEST_GUILD_ID, kept.id);
      await assertAppLevelKept();
    });

    test('a rename by id keeps the id and deletes the overwrites', async () => {
      const command = await create(GUILD_BASE, 'bulk-before');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const response = await call('PUT', GUILD_BASE, [
        { id: command.id, name: 'bulk-after', description: 'Renamed in bulk' },
      ]);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body[0].id, command.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, command.id);
    });

    test('a rename without id is a new command: the old one is deleted with its overwrites', async () => {
      const command = await create(GUILD_BASE, 'no-id-before');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const response = await call('PUT', GUILD_BASE, [{ name: 'no-id-after', description: 'Renamed without id' }]);
      assert.equal(response.status, 200, response.text);
      assert.notEqual(response.body[0].id, command.id);
      await assertDroppedCommandGone(TEST_GUILD_ID, command.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, response.body[0].id);
    });

    test('two commands swapping names by id both lose their overwrites', async () => {
      const a = await create(GUILD_BASE, 'swap-a');
      const b = await create(GUILD_BASE, 'swap-b');
      await setOverwrites(TEST_GUILD_ID, a.id);
      await setOverwrites(TEST_GUILD_ID, b.id);
      const response = await call('PUT', GUILD_BASE, [
        { id: a.id, name: 'swap-b', description: 'Was a' },
        { id: b.id, name: 'swap-a', description: 'Was b' },
      ]);
      assert.equal(response.status, 200, response.text);
      await assertDroppedCommandKept(TEST_GUILD_ID, a.id);
      await assertDroppedCommandKept(TEST_GUILD_ID, b.id);
    });

    test('a bulk overwrite that keeps the name keeps the overwrites (with id, without id, with changes)', async () => {
      const byName = await create(GUILD_BASE, 'by-name');
      const byId = await create(GUILD_BASE, 'by-id');
      await setOverwrites(TEST_GUILD_ID, byName.id);
      await setOverwrites(TEST_GUILD_ID, byId.id);
      for (const description of ['Unchanged?', 'Changed in bulk']) {
        const response = await call('PUT', GUILD_BASE, [
          { name: 'by-name', description },
          { id: byId.id, name: 'by-id', description, default_member_permissions: '32' },
        ]);
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(
          response.body.map((c: Json) => c.id),
          [byName.id, byId.id],
        );
        await assertKept(TEST_GUILD_ID, byName.id);
        await assertKept(TEST_GUILD_ID, byId.id);
      }
    });

    test('a global bulk rename deletes the overwrites in every guild; a kept name keeps them', async () => {
      const renamed = await create(GLOBAL_BASE, 'global-bulk-before');
      const kept = await create(GLOBAL_BASE, 'global-bulk-kept');
      for (const guildId of [TEST_GUILD_ID, OTHER_GUILD_ID]) {
        await setOverwrites(guildId, renamed.id, [{ id: BOB_ID, type: 2, permission: false }]);
        await setOverwrites(guildId, kept.id, [{ id: BOB_ID, type: 2, permission: true }]);
      }
      const response = await call('PUT', GLOBAL_BASE, [
        { id: renamed.id, name: 'global-bulk-after', description: 'Renamed' },
        { name: 'global-bulk-kept', description: 'Kept' },
      ]);
      assert.equal(response.status, 200, response.text);
      for (const guildId of [TEST_GUILD_ID, OTHER_GUILD_ID]) {
        await assertDroppedCommandKept(guildId, renamed.id);
        await assertKept(guildId, kept.id, [{ id: BOB_ID, type: 2, permission: true }]);
      }
    });

    test('a refused bulk overwrite changes nothing: the rename in it deletes no overwrite', async () => {
      const command = await create(GUILD_BASE, 'atomic');
      await setOverwrites(TEST_GUILD_ID, command.id);
      const response = await call('PUT', GUILD_BASE, [
        { id: command.id, name: 'atomic-renamed', description: 'Renamed' },
        { name: 'Invalid Name', description: 'Upper case and a space are not allowed in a slash command' },
      ]);
      assertError(response, 400, 50035);
      const read = await call('GET', `${GUILD_BASE}/${command.id}`);
      assert.equal(read.body.name, 'atomic');
      await assertKept(TEST_GUILD_ID, command.id);
    });
  });
});
