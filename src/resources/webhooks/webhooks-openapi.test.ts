/**
 * Every webhook operation slashd serves, checked against the public v10 OpenAPI document: each
 * request body sent is one the document allows, each answer is the schema the document promises for
 * its status (GuildIncomingWebhookResponse, MessageResponse, 204 with no body), and each refusal an
 * ErrorResponse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('webhook operations against the OpenAPI document', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
  });
  after(() => server?.close());

  /** Sends `body` (checked as the operation's request first) and checks the answer against its status's schema. */
  async function call(
    method: string,
    template: string,
    path: string,
    options: { auth?: string | null; body?: Json } = {},
  ): Promise<Json> {
    if (options.body !== undefined) assertMatchesOperation(method, template, 'request', options.body);
    const response = await server.request(method, path, { auth: options.auth ?? null, body: options.body });
    if (response.status >= 400) {
      assertErrorBody(response.status, response.body);
      assert.fail(`${method} ${path}: ${response.text}`);
    }
    if (response.status === 204) assert.equal(response.text, '', `${method} ${path}: a 204 has no body`);
    else assertMatchesOperation(method, template, response.status, response.body);
    return response;
  }

  test('create, list, read and edit a webhook: each request and answer as the document has them', async () => {
    const created = await call('POST', '/channels/{channel_id}/webhooks', `/channels/${GENERAL}/webhooks`, {
      auth: BOT,
      body: { name: 'Schema hook', avatar: `data:image/png;base64,${PNG_1X1}` },
    });
    const { id, token } = created.body;
    await call('GET', '/channels/{channel_id}/webhooks', `/channels/${GENERAL}/webhooks`, { auth: BOT });
    await call('GET', '/guilds/{guild_id}/webhooks', `/guilds/${TEST_GUILD_ID}/webhooks`, { auth: BOT });
    await call('GET', '/webhooks/{webhook_id}', `/webhooks/${id}`, { auth: BOT });
    await call('PATCH', '/webhooks/{webhook_id}', `/webhooks/${id}`, {
      auth: BOT,
      body: { name: 'Renamed', avatar: null },
    });
    await call('GET', '/webhooks/{webhook_id}/{webhook_token}', `/webhooks/${id}/${token}`);
    await call('PATCH', '/webhooks/{webhook_id}/{webhook_token}', `/webhooks/${id}/${token}`, {
      body: { name: 'Again' },
    });

    const execute = '/webhooks/{webhook_id}/{webhook_token}';
    await call('POST', execute, `/webhooks/${id}/${token}`, { body: { content: 'no wait' } });
    const sent = await call('POST', execute, `/webhooks/${id}/${token}?wait=true`, {
      body: { content: 'with wait', username: 'Schema', embeds: [{ title: 'e' }], allowed_mentions: { parse: [] } },
    });
    const message = '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}';
    const messagePath = `/webhooks/${id}/${token}/messages/${sent.body.id}`;
    await call('GET', message, messagePath);
    await call('PATCH', message, messagePath, { body: { content: 'edited', embeds: [] } });
    await call('DELETE', message, messagePath);
    await call('DELETE', '/webhooks/{webhook_id}/{webhook_token}', `/webhooks/${id}/${token}`);

    const another = await call('POST', '/channels/{channel_id}/webhooks', `/channels/${GENERAL}/webhooks`, {
      auth: BOT,
      body: { name: 'Second' },
    });
    await call('DELETE', '/webhooks/{webhook_id}', `/webhooks/${another.body.id}`, { auth: BOT });
  });

  test('refusals are ErrorResponse bodies', async () => {
    for (const [method, path, body] of [
      ['POST', `/channels/${GENERAL}/webhooks`, { name: 'clyde' }],
      ['GET', '/webhooks/1399999999999999999', undefined],
      ['POST', `/webhooks/1399999999999999999/${'t'.repeat(68)}`, { content: 'x' }],
    ] as const) {
      const refused = await server.request(method, path, { auth: BOT, body });
      assert.ok(refused.status >= 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
