/** World-wide rules: unique ids and secrets, references that resolve, and what a reload removes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseWorld } from '../src/core/world/parse.js';
import { assertErrorBody } from './helpers/openapi.js';
import { injectServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, OTHER_APP_ID, exampleWorld } from './helpers/world.js';

function issuesOf(world: unknown): string[] {
  const parsed = parseWorld(world);
  assert.equal(parsed.ok, false, 'the world is refused');
  return parsed.ok ? [] : parsed.issues.map((i) => `${i.path.join('.')} ${i.code}`);
}

describe('world consistency', () => {
  it('the example world is consistent', () => {
    assert.ok(parseWorld(exampleWorld()).ok);
  });

  it('refuses two applications with one bot token, and duplicate ids', () => {
    const world = exampleWorld();
    world.applications[1]!.bot_token = world.applications[0]!.bot_token;
    world.users.push({ ...world.users[0]!, token: 'fresh' });
    assert.deepEqual(issuesOf(world), ['applications.1.bot_token WORLD_DUPLICATE', 'users.5.id WORLD_DUPLICATE']);
  });

  it('refuses references to applications and users it does not declare', () => {
    const world = exampleWorld();
    world.guilds[0]!.installs.push({ application_id: '1324165260902409999', scopes: ['bot'], permissions: null });
    world.oauth2_tokens.push({
      access_token: 'x',
      user_id: '1335036896870409999',
      application_id: DEMO_APP_ID,
      scopes: [],
    });
    assert.deepEqual(issuesOf(world), [
      'guilds.0.installs.2.application_id WORLD_UNKNOWN_REFERENCE',
      'oauth2_tokens.5.user_id WORLD_UNKNOWN_REFERENCE',
    ]);
  });
});

describe('the admin API keeps secrets unique', () => {
  let server: TestServer;
  const admin = `Bearer ${ADMIN_TOKEN}`;
  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  it('refuses an application that takes another app’s bot token, and changes nothing', async () => {
    const other = exampleWorld().applications.find((a) => a.id === OTHER_APP_ID)!;
    const response = await server.request('PUT', `${server.url}/admin/applications/${OTHER_APP_ID}`, {
      auth: null,
      headers: { authorization: admin },
      body: { ...other, bot_token: DEMO_BOT_TOKEN },
    });
    assert.equal(response.status, 400);
    assertErrorBody(response.status, response.body);
    assert.equal(response.body.code, 50035);
    assert.equal(response.body.errors.bot_token._errors[0].code, 'WORLD_DUPLICATE');
    const me = await server.request('GET', '/users/@me', { auth: BOT });
    assert.equal(me.body.id, DEMO_APP_ID, 'the demo token still logs in as the demo app');
  });

  it('a merge that would give a second application the same bot token is refused whole', async () => {
    const intruder = { ...exampleWorld().applications[0]!, id: '1324165260902409999', name: 'Intruder' };
    const merge = await server.request('POST', `${server.url}/admin/world`, {
      auth: null,
      headers: { authorization: admin },
      body: { applications: [intruder], users: [], guilds: [], oauth2_tokens: [] },
    });
    assert.equal(merge.status, 400, merge.text);
    assertErrorBody(merge.status, merge.body);
    assert.equal(merge.body.errors.applications['3'].bot_token._errors[0].code, 'WORLD_DUPLICATE', merge.text);
    const apps = await server.request('GET', `${server.url}/admin/applications`, {
      auth: null,
      headers: { authorization: admin },
    });
    assert.ok(!apps.body.some((a: { id: string }) => a.id === intruder.id), 'nothing of the merge was written');
  });

  it('a merge may refer to what is stored already', async () => {
    const newcomer = {
      ...exampleWorld().applications[1]!,
      id: '1324165260902409998',
      name: 'Newcomer',
      bot_token: 'newcomer-token',
    };
    const merge = await server.request('POST', `${server.url}/admin/world`, {
      auth: null,
      headers: { authorization: admin },
      body: { applications: [newcomer] },
    });
    assert.equal(merge.status, 200, merge.text);
    const me = await server.request('GET', '/users/@me', { auth: 'Bot newcomer-token' });
    assert.equal(me.body.id, newcomer.id);
  });

  it('a world reload that drops an application drops its commands too', async () => {
    const created = await server.request('POST', `/applications/${OTHER_APP_ID}/commands`, {
      auth: 'Bot other-bot-token',
      body: { name: 'orphan', description: 'Left behind?' },
    });
    assert.equal(created.status, 201);
    const world = exampleWorld();
    const without = { ...world, applications: world.applications.filter((a) => a.id !== OTHER_APP_ID) };
    without.guilds = without.guilds.map((g) => ({
      ...g,
      installs: g.installs.filter((i) => i.application_id !== OTHER_APP_ID),
    }));
    const reload = await server.request('PUT', `${server.url}/admin/world`, {
      auth: null,
      headers: { authorization: admin },
      body: without,
    });
    assert.equal(reload.status, 200, reload.text);
    const back = await server.request('PUT', `${server.url}/admin/world`, {
      auth: null,
      headers: { authorization: admin },
      body: world,
    });
    assert.equal(back.status, 200, back.text);
    const list = await server.request('GET', `/applications/${OTHER_APP_ID}/commands`, { auth: 'Bot other-bot-token' });
    assert.deepEqual(list.body, [], 'the returning application starts with no commands');
  });
});
