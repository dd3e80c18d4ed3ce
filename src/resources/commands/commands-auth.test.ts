/**
 * Every command endpoint, global and guild, against every kind of caller ("Must show"):
 * no token, a bad token, another app's bot, a Bearer token without the scope, and the callers
 * that may: the app's bot and a client-credentials Bearer token with
 * `applications.commands.update`. A refused call changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertErrorBody,
  assertWireCommand,
  assertWireCommands,
  withSchemaChecks,
} from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_IDENTIFY_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_CC_TOKEN,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };

interface Scope {
  label: string;
  base: string;
  guildId: string | null;
}

const SCOPES: Scope[] = [
  { label: 'global', base: `/applications/${DEMO_APP_ID}/commands`, guildId: null },
  { label: 'guild', base: `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, guildId: TEST_GUILD_ID },
];

type Endpoint = 'list' | 'create' | 'bulk' | 'get' | 'patch' | 'delete';
const ENDPOINTS: Endpoint[] = ['list', 'create', 'bulk', 'get', 'patch', 'delete'];
const WRITES = new Set<Endpoint>(['create', 'bulk', 'patch', 'delete']);

const FIXTURE = {
  name: 'fixture',
  description: 'The fixture command',
  options: [{ type: 3, name: 'secretopt', description: 'An option' }],
};

function call(endpoint: Endpoint, base: string, commandId: string): { method: string; path: string; body?: unknown } {
  switch (endpoint) {
    case 'list':
      return { method: 'GET', path: base };
    case 'create':
      return { method: 'POST', path: base, body: { name: 'intruder', description: 'Should not exist' } };
    case 'bulk':
      return { method: 'PUT', path: base, body: [{ name: 'intruder', description: 'Should not exist' }] };
    case 'get':
      return { method: 'GET', path: `${base}/${commandId}` };
    case 'patch':
      return { method: 'PATCH', path: `${base}/${commandId}`, body: { description: 'Tampered' } };
    case 'delete':
      return { method: 'DELETE', path: `${base}/${commandId}` };
  }
}

interface Refusal {
  caller: string;
  auth: string | null;
  status: number;
  /** The exact body, when v10 fixes it. */
  body?: Json;
  code?: number;
}

const REFUSALS: Refusal[] = [
  { caller: 'no token', auth: null, status: 401, body: UNAUTHORIZED },
  { caller: 'a bad bot token', auth: 'Bot not-a-real-token', status: 401, body: UNAUTHORIZED },
  { caller: 'a bad bearer token', auth: 'Bearer not-a-real-token', status: 401, body: UNAUTHORIZED },
  { caller: 'a bare "Bot" scheme', auth: 'Bot', status: 401, body: UNAUTHORIZED },
  { caller: "another app's bot token", auth: `Bot ${OTHER_BOT_TOKEN}`, status: 403 },
  {
    caller: 'a Bearer token without applications.commands.update',
    auth: `Bearer ${BOB_IDENTIFY_TOKEN}`,
    status: 403,
    code: 50026,
  },
];

describe('command endpoints: who may call them', () => {
  let server: TestServer;
  /** Ids of the fixture command per scope. */
  const fixtureIds = new Map<string, string>();

  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  /** Resets a scope to exactly the fixture command, with the bot token; returns its id. */
  async function resetScope(scope: Scope): Promise<string> {
    const put = await server.request('PUT', scope.base, { auth: BOT, body: [FIXTURE] });
    assert.equal(put.status, 200, `reset ${scope.label}: ${put.text}`);
    const id = put.body[0].id as string;
    fixtureIds.set(scope.label, id);
    return id;
  }

  /** Both scopes' lists, with dictionaries, read with the bot token. */
  async function snapshot(): Promise<Json[][]> {
    const lists: Json[][] = [];
    for (const scope of SCOPES) {
      const response = await server.request('GET', `${scope.base}?with_localizations=true`, { auth: BOT });
      assert.equal(response.status, 200);
      lists.push(response.body);
    }
    return lists;
  }

  for (const scope of SCOPES) {
    for (const refusal of REFUSALS) {
      for (const endpoint of ENDPOINTS) {
        test(`${scope.label} ${endpoint} with ${refusal.caller}: ${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}, nothing changed`, async () => {
          const commandId = fixtureIds.get(scope.label) ?? (await resetScope(scope));
          const before = await snapshot();
          const { method, path, body } = call(endpoint, scope.base, commandId);
          const response = await server.request(method, path, { auth: refusal.auth, body });
          assert.equal(response.status, refusal.status, response.text);
          assertErrorBody(response.status, response.body);
          if (refusal.body) assert.deepEqual(response.body, refusal.body);
          if (refusal.code !== undefined) assert.equal(response.body.code, refusal.code);
          // Nothing of the demo app leaks: no command id, name, option or description.
          for (const secret of [commandId, FIXTURE.name, FIXTURE.description, 'secretopt']) {
            assert.ok(!response.text.includes(secret), `the body leaks ${secret}: ${response.text}`);
          }
          assert.deepEqual(await snapshot(), before, 'a refused call changes nothing');
          if (WRITES.has(endpoint)) {
            const listed = await server.request('GET', scope.base, { auth: BOT });
            assert.ok(!listed.text.includes('intruder') && !listed.text.includes('Tampered'));
          }
        });
      }
    }
  }

  const ALLOWED = [
    { caller: 'the app bot token', auth: BOT },
    { caller: 'a client-credentials Bearer token with applications.commands.update', auth: `Bearer ${DEMO_CC_TOKEN}` },
  ];

  for (const scope of SCOPES) {
    const expected = { applicationId: DEMO_APP_ID, guildId: scope.guildId };
    for (const allowed of ALLOWED) {
      test(`${scope.label}: every endpoint works with ${allowed.caller}`, async () => {
        const fixtureId = await resetScope(scope);
        const auth = allowed.auth;

        const list = await server.request('GET', scope.base, { auth });
        assert.equal(list.status, 200);
        assertWireCommands(list.body, { ...expected, view: 'list' });
        assert.deepEqual(
          list.body.map((c: Json) => c.id),
          [fixtureId],
        );

        const got = await server.request('GET', `${scope.base}/${fixtureId}`, { auth });
        assert.equal(got.status, 200);
        assertWireCommand(got.body, expected);
        assert.equal(got.body.name, FIXTURE.name);

        const created = await server.request('POST', scope.base, {
          auth,
          body: { name: 'made', description: 'Made here' },
        });
        assert.equal(created.status, 201);
        assertWireCommand(created.body, expected);

        const patched = await server.request('PATCH', `${scope.base}/${created.body.id}`, {
          auth,
          body: { description: 'Patched' },
        });
        assert.equal(patched.status, 200);
        assertWireCommand(patched.body, expected);
        assert.equal(patched.body.description, 'Patched');

        const deleted = await server.request('DELETE', `${scope.base}/${created.body.id}`, { auth });
        assert.equal(deleted.status, 204);

        const bulk = await server.request('PUT', scope.base, {
          auth,
          body: [FIXTURE, { name: 'second', description: 'Second' }],
        });
        assert.equal(bulk.status, 200);
        assertWireCommands(bulk.body, expected);
        assert.equal(bulk.body.find((c: Json) => c.name === FIXTURE.name)!.id, fixtureId);

        const after = await server.request('GET', scope.base, { auth: BOT });
        assert.deepEqual(after.body.map((c: Json) => c.name).sort(), ['fixture', 'second']);
      });
    }
  }

  // The demo app is not installed in the second guild (only the other app is).
  const uninstalledBase = `/applications/${DEMO_APP_ID}/guilds/${SECOND_GUILD_ID}/commands`;
  for (const allowed of ALLOWED) {
    for (const endpoint of ENDPOINTS) {
      test(`guild ${endpoint} where the app is not installed, with ${allowed.caller}: 403 50001`, async () => {
        const someId = fixtureIds.get('guild') ?? (await resetScope(SCOPES[1]!));
        const before = await snapshot();
        const { method, path, body } = call(endpoint, uninstalledBase, someId);
        const response = await server.request(method, path, { auth: allowed.auth, body });
        assert.equal(response.status, 403, response.text);
        assertErrorBody(response.status, response.body);
        assert.equal(response.body.code, 50001);
        assert.deepEqual(await snapshot(), before);
      });
    }
  }

  test('the other app cannot see the demo app commands through its own guild either', async () => {
    await resetScope(SCOPES[1]!);
    // The other app is installed in the second guild; the path names the demo app.
    const response = await server.request('GET', uninstalledBase, { auth: `Bot ${OTHER_BOT_TOKEN}` });
    assert.equal(response.status, 403);
    assert.ok(!response.text.includes(FIXTURE.name));
    // Its own list there is its own, empty.
    const own = await server.request('GET', `/applications/${OTHER_APP_ID}/guilds/${SECOND_GUILD_ID}/commands`, {
      auth: `Bot ${OTHER_BOT_TOKEN}`,
    });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, []);
  });
});
