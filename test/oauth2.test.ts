/**
 * The OAuth2 token endpoint, client credentials (docs/v10-behaviour.md#oauth2): form-encoded, HTTP Basic
 * client authentication; the token then deploys commands like a bot token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { SlashCommandBuilder } from '@discordjs/builders';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { assertErrorBody, assertWireCommands, withSchemaChecks } from './helpers/openapi.js';
import { startServer, type TestResponse, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, ALICE_ID, BOT, DEMO_APP_ID, OTHER_APP_ID, TEST_GUILD_ID } from './helpers/world.js';
import type { Json } from './helpers/json.js';

const DEMO_SECRET = 'demo-client-secret';
const SCOPE = 'applications.commands.update';

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

describe('POST /oauth2/token (client credentials)', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await startServer());
  });
  after(async () => {
    await server.close();
  });

  function token(
    form: Record<string, string>,
    auth: string | null = basic(DEMO_APP_ID, DEMO_SECRET),
  ): Promise<TestResponse> {
    return server.request('POST', '/oauth2/token', {
      auth,
      rawBody: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  function expectOAuthError(response: TestResponse, status: number, error: string): void {
    assert.equal(response.status, status, response.text);
    assert.equal(response.body.error, error, response.text);
    assert.equal(typeof response.body.error_description, 'string');
    assert.equal(response.body.access_token, undefined);
  }

  test('issues a Bearer token: {access_token, token_type, expires_in: 604800, scope}', async () => {
    const response = await token({ grant_type: 'client_credentials', scope: SCOPE });
    assert.equal(response.status, 200, response.text);
    const body = response.body as Json;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(typeof body.access_token, 'string');
    assert.ok(body.access_token.length >= 16);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 604800);
    assert.equal(body.scope, SCOPE);
    assert.equal(body.refresh_token, undefined, 'client credentials: no refresh token');

    const second = await token({ grant_type: 'client_credentials', scope: SCOPE });
    assert.notEqual(second.body.access_token, body.access_token, 'a fresh token each time');
  });

  test('the issued token deploys commands, with raw HTTP and with @discordjs/rest', async () => {
    const issued = (await token({ grant_type: 'client_credentials', scope: SCOPE })).body.access_token as string;
    const bearer = `Bearer ${issued}`;
    const put = await server.request('PUT', `/applications/${DEMO_APP_ID}/commands`, {
      auth: bearer,
      body: [{ name: 'deployed', description: 'By a bearer token' }],
    });
    assert.equal(put.status, 200, put.text);
    assertWireCommands(put.body, { applicationId: DEMO_APP_ID, guildId: null });

    const rest = new REST({ version: '10', api: `${server.url}/api`, authPrefix: 'Bearer' }).setToken(issued);
    try {
      const guild = (await rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), {
        body: [new SlashCommandBuilder().setName('guildwide').setDescription('Via REST with a Bearer token').toJSON()],
      })) as Json[];
      assertWireCommands(guild, { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID });
    } finally {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    }

    // The bot sees what the token deployed.
    const seen = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
    });
    assert.deepEqual(
      seen.body.map((c: Json) => c.name),
      ['deployed'],
    );

    // The token acts for the owner.
    const me = await server.request('GET', '/users/@me', { auth: bearer });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, ALICE_ID);

    // It is this app's token only.
    const other = await server.request('GET', `/applications/${OTHER_APP_ID}/commands`, { auth: bearer });
    assert.equal(other.status, 403);
    assertErrorBody(other.status, other.body);
  });

  test('a token without applications.commands.update cannot deploy (403, 50026)', async () => {
    const issued = await token({ grant_type: 'client_credentials', scope: 'identify' });
    assert.equal(issued.status, 200, issued.text);
    assert.equal(issued.body.scope, 'identify');
    const response = await server.request('PUT', `/applications/${DEMO_APP_ID}/commands`, {
      auth: `Bearer ${issued.body.access_token}`,
      body: [{ name: 'nope', description: 'Refused' }],
    });
    assert.equal(response.status, 403);
    assertErrorBody(response.status, response.body);
    assert.equal(response.body.code, 50026);
  });

  test('the client secret may also come in the form (client_secret_post)', async () => {
    const response = await token(
      { grant_type: 'client_credentials', scope: SCOPE, client_id: DEMO_APP_ID, client_secret: DEMO_SECRET },
      null,
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.token_type, 'Bearer');
  });

  test('client authentication failures: 401 invalid_client, and no token', async () => {
    expectOAuthError(
      await token({ grant_type: 'client_credentials', scope: SCOPE }, basic(DEMO_APP_ID, 'wrong-secret')),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await token({ grant_type: 'client_credentials', scope: SCOPE }, basic(DEMO_APP_ID, 'other-client-secret')),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await token({ grant_type: 'client_credentials', scope: SCOPE }, basic('999999999999999999', DEMO_SECRET)),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await token({ grant_type: 'client_credentials', scope: SCOPE }, basic('not-an-id', DEMO_SECRET)),
      401,
      'invalid_client',
    );
    expectOAuthError(await token({ grant_type: 'client_credentials', scope: SCOPE }, null), 401, 'invalid_client');
    expectOAuthError(
      await token({ grant_type: 'client_credentials', scope: SCOPE }, 'Basic !!!not-base64'),
      401,
      'invalid_client',
    );
  });

  test('malformed client credentials are a client error, never a 5xx', async () => {
    // Basic credentials are form-urlencoded before base64 (RFC 6749, 2.3.1): a broken escape
    // is a failed authentication.
    for (const credentials of ['%E0%A4%A:secret', `${DEMO_APP_ID}:%zz`, '%:%', ':', '', 'no-colon']) {
      const auth = `Basic ${Buffer.from(credentials).toString('base64')}`;
      expectOAuthError(await token({ grant_type: 'client_credentials', scope: SCOPE }, auth), 401, 'invalid_client');
      const revoke = await server.request('POST', '/oauth2/token/revoke', {
        auth,
        rawBody: 'token=whatever',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(revoke.status, 401, `revoke with ${credentials}: ${revoke.text}`);
    }
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.string({ maxLength: 80 }), async (id, secret, form) => {
        const auth = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
        const response = await server.request('POST', '/oauth2/token', {
          auth,
          rawBody: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.ok(
          response.status >= 400 && response.status < 500,
          `${JSON.stringify([id, secret, form])}: ${response.status} ${response.text}`,
        );
      }),
      { numRuns: 100 },
    );
  });

  test('an unsupported grant type: 400', async () => {
    // Names of Object.prototype too: the grants are keyed by what the client sends.
    for (const grant of ['password', 'implicit', '', 'CLIENT_CREDENTIALS', '__proto__', 'constructor', 'toString']) {
      const response = await token({ grant_type: grant, scope: SCOPE });
      expectOAuthError(response, 400, 'unsupported_grant_type');
    }
    const missing = await token({ scope: SCOPE });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.access_token, undefined);
  });

  test('a bad scope: 400 invalid_scope', async () => {
    for (const scope of ['not.a.scope', `${SCOPE} bogus`, '']) {
      expectOAuthError(await token({ grant_type: 'client_credentials', scope }), 400, 'invalid_scope');
    }
  });

  test('a user-granted scope (applications.commands.permissions.update) is never issued for the client secret alone', async () => {
    for (const scope of [
      'applications.commands.permissions.update',
      `${SCOPE} applications.commands.permissions.update`,
    ]) {
      const response = await token({ grant_type: 'client_credentials', scope });
      expectOAuthError(response, 400, 'invalid_scope');
      assert.match(response.body.error_description, /applications\.commands\.permissions\.update/);
    }
  });

  test('a stored token without a user cannot edit command permissions, even with the scope', async () => {
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'guarded', description: 'Its permissions stay as they are' },
    });
    assert.ok(created.status < 300, created.text);
    const stored = await server.request('POST', `${server.url}/admin/oauth2-tokens`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: {
        access_token: 'legacy-cc-perm-token',
        user_id: null,
        application_id: DEMO_APP_ID,
        scopes: ['applications.commands.permissions.update'],
      },
    });
    assert.ok(stored.status < 300, stored.text);
    const path = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${created.body.id}/permissions`;
    const put = await server.request('PUT', path, {
      auth: 'Bearer legacy-cc-perm-token',
      body: { permissions: [{ id: TEST_GUILD_ID, type: 1, permission: false }] },
    });
    assert.equal(put.status, 403, put.text);
    assert.equal(put.body.code, 50026);
    const after = await server.request('GET', path, { auth: BOT });
    assert.equal(after.status, 404, 'no permissions were written');
  });

  test('form-encoded bodies only: a JSON body is refused and issues nothing', async () => {
    const response = await server.request('POST', '/oauth2/token', {
      auth: basic(DEMO_APP_ID, DEMO_SECRET),
      body: { grant_type: 'client_credentials', scope: SCOPE },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.access_token, undefined);
    assert.equal(typeof response.body.error, 'string');
  });

  test('revoke: the token stops working', async () => {
    const issued = (await token({ grant_type: 'client_credentials', scope: SCOPE })).body.access_token as string;
    const list = () => server.request('GET', `/applications/${DEMO_APP_ID}/commands`, { auth: `Bearer ${issued}` });
    assert.equal((await list()).status, 200);
    const revoked = await server.request('POST', '/oauth2/token/revoke', {
      auth: basic(DEMO_APP_ID, DEMO_SECRET),
      rawBody: new URLSearchParams({ token: issued }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(revoked.status, 200);
    const after = await list();
    assert.equal(after.status, 401);
    assert.deepEqual(after.body, { message: '401: Unauthorized', code: 0 });
  });
});
