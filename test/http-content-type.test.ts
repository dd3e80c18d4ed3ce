/**
 * Every JSON response of every route, success or error, carries exactly `Content-Type:
 * application/json` (discord.py parses JSON only then). Each route is called as every kind of
 * caller, so both its answers and its refusals are seen; then 404, 405, 413 and invalid JSON.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { injectServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, DEMO_CC_TOKEN, TEST_GUILD_ID, exampleWorld } from './helpers/world.js';

const COMMAND = { name: 'walk', description: 'Walks every route', type: 1 };

describe('Content-Type of every JSON response', () => {
  let server: TestServer;
  let callers: (string | null)[];
  let routes: [method: string, path: string, body?: unknown][];

  before(async () => {
    server = await injectServer();
    const world = exampleWorld();
    const user = world.users.find((u) => world.guilds[0]!.members.some((m) => m.user_id === u.id))!;
    const channel = world.guilds[0]!.channels.find((c) => c.type === 0)!;
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: COMMAND,
    });
    const commandId = created.body.id as string;
    callers = [null, BOT, `Bearer ${DEMO_CC_TOKEN}`, user.token, 'Bot wrong-token'];
    const commands = `/applications/${DEMO_APP_ID}/commands`;
    const guildCommands = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    routes = [
      ['GET', commands],
      ['POST', commands, COMMAND],
      ['PUT', commands, [COMMAND]],
      ['GET', `${commands}/${commandId}`],
      ['PATCH', `${commands}/${commandId}`, { description: 'Walked' }],
      ['GET', guildCommands],
      ['PUT', guildCommands, []],
      ['DELETE', `${guildCommands}/1`],
      ['GET', `${guildCommands}/permissions`],
      ['GET', `${guildCommands}/${commandId}/permissions`],
      ['PUT', `${guildCommands}/${commandId}/permissions`, { permissions: [] }],
      ['GET', `/channels/${channel.id}/application-command-index`],
      ['GET', `/channels/${channel.id}/messages`],
      ['GET', `/channels/${channel.id}`],
      ['POST', `/channels/${channel.id}/messages`, { content: 'walked' }],
      ['GET', `/channels/${channel.id}/messages/1`],
      ['PATCH', `/channels/${channel.id}/messages/1`, { content: 'walked' }],
      ['DELETE', `/channels/${channel.id}/messages/1`],
      ['GET', `/guilds/${TEST_GUILD_ID}`],
      ['GET', `/guilds/${TEST_GUILD_ID}/channels`],
      ['GET', `/guilds/${TEST_GUILD_ID}/roles`],
      ['GET', `/guilds/${TEST_GUILD_ID}/members`],
      ['GET', `/guilds/${TEST_GUILD_ID}/members/${user.id}`],
      ['GET', `/users/${user.id}`],
      ['GET', '/users/@me/guilds'],
      [
        'POST',
        '/interactions',
        {
          type: 2,
          application_id: DEMO_APP_ID,
          guild_id: TEST_GUILD_ID,
          channel_id: channel.id,
          data: { id: commandId, name: 'walk', type: 1 },
        },
      ],
      ['GET', '/interactions/1'],
      ['POST', '/interactions/1/token/callback', { type: 4, data: { content: 'x' } }],
      ['POST', `/webhooks/${DEMO_APP_ID}/token`, { content: 'x' }],
      ['GET', `/webhooks/${DEMO_APP_ID}/token/messages/@original`],
      ['PATCH', `/webhooks/${DEMO_APP_ID}/token/messages/@original`, { content: 'y' }],
      ['DELETE', `/webhooks/${DEMO_APP_ID}/token/messages/1`],
      ['GET', '/users/@me'],
      ['GET', '/users/%40me'],
      ['GET', '/applications/@me'],
      ['GET', '/oauth2/applications/@me'],
      ['PATCH', '/applications/@me', { description: 'walked' }],
      ['POST', '/oauth2/token', {}],
      ['POST', '/oauth2/token/revoke', {}],
      ['DELETE', `${commands}/${commandId}`],
      ['GET', `${server.url}/admin/world`],
      ['GET', `${server.url}/admin/users`],
      ['GET', `${server.url}/admin/oauth2-tokens`],
      ['GET', `${server.url}/healthz`],
      ['GET', `${server.url}/readyz`],
    ];
  });
  after(() => server.close());

  test('every route, as every kind of caller', async () => {
    let seen = 0;
    for (const [method, path, body] of routes) {
      for (const auth of [...callers, path.includes('/admin/') ? `Bearer ${ADMIN_TOKEN}` : null]) {
        const response = await server.request(method, path, { auth, body });
        if (response.text === '') continue;
        seen += 1;
        assert.equal(
          response.headers.get('content-type'),
          'application/json',
          `${method} ${path} as ${auth ?? 'nobody'}: ${response.status}`,
        );
        assert.notEqual(response.body, undefined, `${method} ${path}: the body is JSON`);
      }
    }
    assert.ok(seen > 150, `only ${seen} responses with a body`);
  });

  test('404, 405, 413 and invalid JSON', async () => {
    const cases = [
      await server.request('GET', '/no/such/route'),
      await server.request('DELETE', '/users/@me', { auth: BOT }),
      await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
        auth: BOT,
        headers: { 'content-type': 'application/json' },
        rawBody: `{"name":"${'x'.repeat(5 * 1024 * 1024)}"}`,
      }),
      await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
        auth: BOT,
        headers: { 'content-type': 'application/json' },
        rawBody: '{"name":',
      }),
    ];
    assert.deepEqual(
      cases.map((c) => c.status),
      [404, 405, 413, 400],
    );
    for (const response of cases) assert.equal(response.headers.get('content-type'), 'application/json');
  });
});
