/**
 * The guild operations slashd serves under issue 37, checked against the public v10 OpenAPI
 * document: the guild edited (`PATCH /guilds/{id}`: GuildPatchRequestPartial in, GuildResponse
 * out), read (`GET /guilds/{id}`, with counts) and previewed (`GET /guilds/{id}/preview`), each
 * refusal an ErrorResponse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, GENERAL, NSFW_LOUNGE, SECOND_GUILD_ID, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('guild operations against the OpenAPI document', () => {
  let server: TestServer;
  const template = '/guilds/{guild_id}';
  const path = `/guilds/${TEST_GUILD_ID}`;

  before(async () => {
    server = await injectServer({ world: gatewayWorld() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageGuild);
  });
  after(() => server?.close());

  async function call(method: string, operation: string, target: string, body?: Json): Promise<Json> {
    if (body !== undefined) assertMatchesOperation(method, operation, 'request', body);
    const response = await server.request(method, target, { auth: BOT, body });
    if (response.status >= 400) {
      assertErrorBody(response.status, response.body);
      assert.fail(`${method} ${target}: ${response.text}`);
    }
    assertMatchesOperation(method, operation, response.status, response.body);
    return response;
  }

  test('edit, read and preview: each request and answer as the document has them', async () => {
    const edited = await call('PATCH', template, path, {
      name: 'Schema Guild',
      icon: `data:image/png;base64,${PNG_1X1}`,
      description: 'checked',
      system_channel_id: GENERAL,
      rules_channel_id: NSFW_LOUNGE,
      verification_level: 1,
      default_message_notifications: 1,
      explicit_content_filter: 1,
      afk_timeout: 300,
    });
    assert.equal(edited.body.name, 'Schema Guild');
    await call('PATCH', template, path, { icon: null, description: null, system_channel_id: null });
    await call('GET', template, `${path}?with_counts=true`);
    await call('GET', '/guilds/{guild_id}/preview', `${path}/preview`);
  });

  test('refusals are ErrorResponse bodies', async () => {
    for (const [method, target, body] of [
      ['PATCH', path, { name: 'x', verification_level: 9 }],
      ['PATCH', `/guilds/${SECOND_GUILD_ID}`, { name: 'Not mine' }],
      ['GET', '/guilds/1399999999999999999/preview', undefined],
    ] as const) {
      const refused = await server.request(method, target, { auth: BOT, body });
      assert.ok(refused.status >= 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
