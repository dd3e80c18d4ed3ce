/**
 * The admin API (/admin/..., world-file shapes, guarded by the admin token) and what a change to
 * the world does: a new app can deploy, an install opens a guild, and the EMBEDDED flag brings
 * the "Launch" entry point command.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseWorld } from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import { assertErrorBody, assertWireCommands, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { adminRequest, injectServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_ID,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };
const NEW_APP_ID = '1324165260902400009';
const NEW_USER_ID = '1335036896870400009';
const NEW_GUILD_ID = '1345183757107209001';

function sortWorld(world: World): World {
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
  return {
    applications: byId(world.applications),
    users: byId(world.users),
    guilds: byId(world.guilds),
    oauth2_tokens: [...world.oauth2_tokens].sort((a, b) => a.access_token.localeCompare(b.access_token)),
  };
}

function newApp(overrides: Json = {}): Json {
  return {
    id: NEW_APP_ID,
    name: 'New App',
    owner_id: ALICE_ID,
    bot_token: 'new-bot-token',
    client_secret: 'new-client-secret',
    public_client: false,
    redirect_uris: [],
    flags: 0,
    integration_types: [0],
    discoverable: false,
    interactions_endpoint_url: null,
    ...overrides,
  };
}

describe('admin API', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  async function world(): Promise<World> {
    const response = await adminRequest(server, 'GET', '/world');
    assert.equal(response.status, 200, response.text);
    const parsed = parseWorld(response.body);
    assert.ok(parsed.ok, `GET /admin/world is a valid world file: ${JSON.stringify(!parsed.ok && parsed.issues)}`);
    return sortWorld(parsed.value);
  }

  test('GET /admin/world: the world in world-file shapes', async () => {
    const response = await adminRequest(server, 'GET', '/world');
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['applications', 'guilds', 'oauth2_tokens', 'users']);
    const demo = response.body.applications.find((a: Json) => a.id === DEMO_APP_ID);
    assert.equal(demo.bot_token, DEMO_BOT_TOKEN, 'the world file shape, secrets included');
    assert.equal(demo.keys, undefined, 'no internal fields');
    // It round-trips: what the admin API returns equals the example world it was started with.
    assert.deepEqual(await world(), sortWorld(exampleWorld()));
  });

  test('401 without the admin token, and nothing changes', async () => {
    const before = await world();
    for (const auth of [null, 'Bearer wrong-token', BOT, ADMIN_TOKEN.slice(0, -1), 'Bearer ']) {
      for (const [method, path, body] of [
        ['GET', '/world', undefined],
        ['PUT', '/world', exampleWorld()],
        ['PUT', `/applications/${NEW_APP_ID}`, newApp()],
        ['DELETE', `/users/${ALICE_ID}`, undefined],
        ['GET', '/applications', undefined],
      ] as const) {
        const response = await adminRequest(server, method, path, body, auth);
        assert.equal(response.status, 401, `${method} ${path} with ${auth}: ${response.text}`);
        assert.deepEqual(response.body, UNAUTHORIZED);
      }
    }
    assert.deepEqual(await world(), before);
  });

  test('PUT an application: it exists, its bot token works, and it may deploy', async () => {
    const put = await adminRequest(server, 'PUT', `/applications/${NEW_APP_ID}`, newApp());
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.id, NEW_APP_ID);

    const got = await adminRequest(server, 'GET', `/applications/${NEW_APP_ID}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.name, 'New App');
    assert.equal(got.body.keys, undefined);

    const me = await server.request('GET', '/users/@me', { auth: 'Bot new-bot-token' });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, NEW_APP_ID);
    assert.equal(me.body.bot, true);

    const created = await server.request('POST', `/applications/${NEW_APP_ID}/commands`, {
      auth: 'Bot new-bot-token',
      body: { name: 'hello', description: 'Hello' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.integration_types, [0], "defaults to the app's integration types");

    // Replacing the app (a new bot token) keeps its commands; the old token stops working.
    const replaced = await adminRequest(
      server,
      'PUT',
      `/applications/${NEW_APP_ID}`,
      newApp({ bot_token: 'rotated-bot-token' }),
    );
    assert.equal(replaced.status, 200);
    assert.equal((await server.request('GET', '/users/@me', { auth: 'Bot new-bot-token' })).status, 401);
    const list = await server.request('GET', `/applications/${NEW_APP_ID}/commands`, { auth: 'Bot rotated-bot-token' });
    assert.deepEqual(
      list.body.map((c: Json) => c.name),
      ['hello'],
    );

    assert.ok((await world()).applications.some((a) => a.id === NEW_APP_ID));
  });

  test('PUT a user: the user token works', async () => {
    const user = { id: NEW_USER_ID, username: 'frank', token: 'frank-user-token', locale: 'de', age_verified: false };
    const put = await adminRequest(server, 'PUT', `/users/${NEW_USER_ID}`, user);
    assert.equal(put.status, 200, put.text);
    const got = await adminRequest(server, 'GET', `/users/${NEW_USER_ID}`);
    assert.deepEqual(got.body, user);
    const me = await server.request('GET', '/users/@me', { auth: 'frank-user-token' });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, NEW_USER_ID);
    assert.equal(me.body.locale, 'de');
    assert.ok((await world()).users.some((u) => u.id === NEW_USER_ID));

    const removed = await adminRequest(server, 'DELETE', `/users/${NEW_USER_ID}`);
    assert.equal(removed.status, 204);
    assert.equal((await server.request('GET', '/users/@me', { auth: 'frank-user-token' })).status, 401);
    assert.equal((await adminRequest(server, 'GET', `/users/${NEW_USER_ID}`)).status, 404);
  });

  test('PUT a guild: an install opens it for guild commands', async () => {
    await adminRequest(server, 'PUT', `/applications/${NEW_APP_ID}`, newApp({ bot_token: 'guild-test-token' }));
    const path = `/applications/${NEW_APP_ID}/guilds/${NEW_GUILD_ID}/commands`;
    const auth = 'Bot guild-test-token';
    const guild = {
      id: NEW_GUILD_ID,
      name: 'New Guild',
      owner_id: ALICE_ID,
      preferred_locale: 'en-US',
      roles: [{ id: NEW_GUILD_ID, name: '@everyone', permissions: '0' }],
      channels: [{ id: '1345183757107209011', type: 0, name: 'general' }],
      members: [{ user_id: ALICE_ID, roles: [] }],
      installs: [],
    };
    assert.equal((await adminRequest(server, 'PUT', `/guilds/${NEW_GUILD_ID}`, guild)).status, 200);
    const refused = await server.request('GET', path, { auth });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 50001);

    const installed = await adminRequest(server, 'PUT', `/guilds/${NEW_GUILD_ID}`, {
      ...guild,
      installs: [{ application_id: NEW_APP_ID, scopes: ['applications.commands'] }],
    });
    assert.equal(installed.status, 200, installed.text);
    const created = await server.request('POST', path, { auth, body: { name: 'local', description: 'Local' } });
    assert.equal(created.status, 201, created.text);
    assertWireCommands([created.body], { applicationId: NEW_APP_ID, guildId: NEW_GUILD_ID });

    const stored = (await world()).guilds.find((g) => g.id === NEW_GUILD_ID);
    assert.ok(stored);
    assert.deepEqual(stored.installs[0]!.scopes, ['applications.commands']);
  });

  test('a world with errors: 400 50035 with paths, and nothing changed', async () => {
    const before = await world();
    const bad = {
      applications: [{ id: 'not-a-snowflake', name: 5, owner_id: ALICE_ID, bot_token: 't' }],
      users: [{ id: NEW_USER_ID, username: 'x', token: 'x' }],
      guilds: 'not a list',
    };
    const response = await adminRequest(server, 'PUT', '/world', bad);
    assert.equal(response.status, 400, response.text);
    assertErrorBody(response.status, response.body);
    assert.equal(response.body.code, 50035);
    const errors = response.body.errors;
    assert.ok(errors.applications['0'].id._errors[0].code, 'applications.0.id');
    assert.ok(errors.applications['0'].name._errors[0].code, 'applications.0.name');
    assert.ok(errors.guilds._errors[0].code, 'guilds');
    assert.equal(errors.users, undefined, 'the valid user is not in the tree');
    assert.deepEqual(await world(), before);

    const guild = await adminRequest(server, 'PUT', `/guilds/${NEW_GUILD_ID}`, {
      id: NEW_GUILD_ID,
      name: 'G',
      owner_id: ALICE_ID,
      roles: [{ id: 'x' }],
    });
    assert.equal(guild.status, 400);
    assert.equal(guild.body.code, 50035);
    assert.ok(guild.body.errors.roles['0'].id, 'roles.0.id');
    assert.ok(guild.body.errors.roles['0'].name, 'roles.0.name');

    const mismatch = await adminRequest(
      server,
      'PUT',
      `/applications/${NEW_APP_ID}`,
      newApp({ id: '1324165260902400008' }),
    );
    assert.equal(mismatch.status, 400);
    assertErrorBody(mismatch.status, mismatch.body);
    assert.deepEqual(await world(), before);
  });

  test('adding the EMBEDDED flag creates the "Launch" entry point (handler 2), once', async () => {
    const bot = BOT;
    const base = `/applications/${DEMO_APP_ID}/commands`;
    const before = await server.request('GET', base, { auth: bot });
    assert.ok(!before.body.some((c: Json) => c.type === 4), 'no entry point yet');

    const demo = (await world()).applications.find((a) => a.id === DEMO_APP_ID)!;
    const put = await adminRequest(server, 'PUT', `/applications/${DEMO_APP_ID}`, {
      ...demo,
      flags: demo.flags | 131072,
    });
    assert.equal(put.status, 200, put.text);
    const after = await server.request('GET', `${base}?with_localizations=true`, { auth: bot });
    assertWireCommands(after.body, { applicationId: DEMO_APP_ID, guildId: null });
    const launch = after.body.filter((c: Json) => c.type === 4);
    assert.equal(launch.length, 1);
    assert.equal(launch[0]!.name, 'Launch');
    assert.equal(launch[0]!.handler, 2);

    // Putting the app again does not make a second one.
    await adminRequest(server, 'PUT', `/applications/${DEMO_APP_ID}`, { ...demo, flags: demo.flags | 131072 });
    const again = await server.request('GET', base, { auth: bot });
    assert.equal(again.body.filter((c: Json) => c.type === 4).length, 1);
    assert.equal(again.body.find((c: Json) => c.type === 4).id, launch[0]!.id);

    // And a bulk overwrite now has to keep it.
    const refused = await server.request('PUT', base, { auth: bot, body: [{ name: 'solo', description: 'Solo' }] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50240);
  });

  test('PUT /admin/world replaces the world and keeps the commands', async () => {
    const bot = BOT;
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: bot,
      body: { name: 'survivor', description: 'Survives a world reload' },
    });
    assert.ok([200, 201].includes(created.status));
    const replaced = await adminRequest(server, 'PUT', '/world', exampleWorld());
    assert.equal(replaced.status, 200, replaced.text);
    assert.ok(!(await world()).applications.some((a) => a.id === NEW_APP_ID), 'the added app is gone');
    const list = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: bot,
    });
    assert.ok(list.body.some((c: Json) => c.id === created.body.id));
  });
});

describe('admin API: bounded fuzz', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  async function world(): Promise<unknown> {
    const response = await adminRequest(server, 'GET', '/world');
    assert.equal(response.status, 200);
    return response.body;
  }

  test('random bodies to the admin writes: never a 5xx, and a refused write changes nothing', async () => {
    const paths = [
      '/world',
      `/applications/${NEW_APP_ID}`,
      `/users/${NEW_USER_ID}`,
      `/guilds/${NEW_GUILD_ID}`,
      '/oauth2-tokens',
    ];
    let before = await world();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 4 }), async (path, body) => {
        const method = path === '/oauth2-tokens' ? 'POST' : 'PUT';
        const response = await adminRequest(server, method, path, body);
        assert.ok(
          response.status < 500,
          `${method} ${path} ${JSON.stringify(body)}: ${response.status} ${response.text}`,
        );
        if (response.status >= 400) {
          assertErrorBody(response.status, response.body);
          assert.deepEqual(await world(), before, `${method} ${path} refused, yet the world changed`);
        } else {
          before = await world();
        }
      }),
      { numRuns: 150 },
    );
  });
});
