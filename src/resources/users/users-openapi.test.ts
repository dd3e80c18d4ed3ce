/**
 * The users operations slashd serves under issue 37, checked against the public v10 OpenAPI
 * document: `PATCH /users/@me` (BotAccountPatchRequest in, UserPIIResponse out) and
 * `GET /users/@me/guilds` (a list of MyGuildResponse), each refusal an ErrorResponse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT } from '../../../test/helpers/world.js';

type Json = any;

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('users operations against the OpenAPI document', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer();
  });
  after(() => server?.close());

  async function call(method: string, template: string, path: string, body?: Json): Promise<Json> {
    if (body !== undefined) assertMatchesOperation(method, template, 'request', body);
    const response = await server.request(method, path, { auth: BOT, body });
    if (response.status >= 400) {
      assertErrorBody(response.status, response.body);
      assert.fail(`${method} ${path}: ${response.text}`);
    }
    assertMatchesOperation(method, template, response.status, response.body);
    return response;
  }

  test('PATCH /users/@me and GET /users/@me/guilds: each request and answer as the document has them', async () => {
    const edited = await call('PATCH', '/users/@me', '/users/@me', {
      username: 'Schema Bot',
      avatar: `data:image/png;base64,${PNG_1X1}`,
      banner: `data:image/png;base64,${PNG_1X1}`,
    });
    assert.equal(edited.body.username, 'Schema Bot');
    await call('PATCH', '/users/@me', '/users/@me', { username: 'Schema Bot', avatar: null, banner: null });
    const guilds = await call('GET', '/users/@me/guilds', '/users/@me/guilds');
    assert.ok(Array.isArray(guilds.body) && guilds.body.length > 0, guilds.text);
  });

  test('refusals are ErrorResponse bodies', async () => {
    for (const body of [{ username: 'x' }, { username: 'everyone' }, { avatar: 'nope' }]) {
      const refused = await server.request('PATCH', '/users/@me', { auth: BOT, body });
      assert.equal(refused.status, 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
