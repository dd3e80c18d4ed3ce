/**
 * Every scheduled-event operation slashd serves, checked against the public v10 OpenAPI document:
 * each request body sent is one the document allows (an external event, with a recurrence rule),
 * each answer the schema the document promises for its status (the event objects, the users
 * list, 204 with no body), and each refusal an ErrorResponse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

const HOUR = 60 * 60 * 1000;
/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('scheduled-event operations against the OpenAPI document', () => {
  let server: TestServer;
  const base = `/guilds/${TEST_GUILD_ID}/scheduled-events`;
  const list = '/guilds/{guild_id}/scheduled-events';
  const one = '/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}';

  before(async () => {
    server = await injectServer();
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      PermissionFlagsBits.CreateEvents | PermissionFlagsBits.ManageEvents | PermissionFlagsBits.ViewChannel,
    );
  });
  after(() => server?.close());

  async function call(method: string, template: string, path: string, body?: Json): Promise<Json> {
    if (body !== undefined) assertMatchesOperation(method, template, 'request', body);
    const response = await server.request(method, path, { auth: BOT, body });
    if (response.status >= 400) {
      assertErrorBody(response.status, response.body);
      assert.fail(`${method} ${path}: ${response.text}`);
    }
    if (response.status === 204) assert.equal(response.text, '', `${method} ${path}: a 204 has no body`);
    else assertMatchesOperation(method, template, response.status, response.body);
    return response;
  }

  test('create, list, read, edit, list users and delete: each request and answer as the document has them', async () => {
    const start = new Date(Date.now() + HOUR);
    const created = await call('POST', list, base, {
      name: 'Schema party',
      description: 'cake',
      privacy_level: 2,
      entity_type: 3,
      scheduled_start_time: start.toISOString(),
      scheduled_end_time: new Date(start.getTime() + HOUR).toISOString(),
      entity_metadata: { location: 'the roof' },
      image: `data:image/png;base64,${PNG_1X1}`,
      recurrence_rule: {
        start: start.toISOString(),
        frequency: 2,
        interval: 1,
        by_weekday: [start.getUTCDay() === 0 ? 6 : start.getUTCDay() - 1],
      },
    });
    const path = `${base}/${created.body.id}`;
    await call('GET', list, `${base}?with_user_count=true`);
    await call('GET', one, `${path}?with_user_count=true`);
    await call('PATCH', one, path, { name: 'Renamed party', description: null, image: null });
    await call('GET', `${one}/users`, `${path}/users?limit=10&with_member=true`);
    await call('DELETE', one, path);
  });

  test('refusals are ErrorResponse bodies', async () => {
    for (const [method, path, body] of [
      ['POST', base, { name: 'x', privacy_level: 2, entity_type: 3 }],
      ['GET', `${base}/1399999999999999999`, undefined],
      ['PATCH', `${base}/1399999999999999999`, { name: 'gone' }],
    ] as const) {
      const refused = await server.request(method, path, { auth: BOT, body });
      assert.ok(refused.status >= 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
