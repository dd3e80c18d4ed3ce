/**
 * The poll operations slashd serves, checked against the public v10 OpenAPI document: a message
 * with a poll sent (MessageCreateRequest in, MessageResponse out), its answer's voters
 * (PollAnswerDetailsResponse) and its expiry (MessageResponse), each refusal an ErrorResponse. A
 * user's own vote (`PUT`/`DELETE .../answers/@me`) is not in the document (bots cannot vote), so
 * only its refusal body is checked here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOB_TOKEN, BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

describe('poll operations against the OpenAPI document', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.SendPolls);
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

  test('send a poll, read an answer’s voters, expire it: each request and answer as the document has them', async () => {
    const sent = await call('POST', '/channels/{channel_id}/messages', `/channels/${GENERAL}/messages`, {
      poll: {
        question: { text: 'Lunch?' },
        answers: [{ poll_media: { text: 'Pizza', emoji: { name: '🍕' } } }, { poll_media: { text: 'Soup' } }],
        duration: 1,
        allow_multiselect: false,
      },
    });
    const poll = `/channels/${GENERAL}/polls/${sent.body.id}`;
    const voted = await server.request('PUT', `${poll}/answers/@me`, { auth: BOB_TOKEN, body: { answer_ids: ['1'] } });
    assert.equal(voted.status, 204, voted.text);
    const voters = await call(
      'GET',
      '/channels/{channel_id}/polls/{message_id}/answers/{answer_id}',
      `${poll}/answers/1?limit=10`,
    );
    assert.equal(voters.body.users.length, 1);
    await call('POST', '/channels/{channel_id}/polls/{message_id}/expire', `${poll}/expire`);
  });

  test('refusals are ErrorResponse bodies', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'no poll' },
    });
    for (const [method, path, auth, body] of [
      ['GET', `/channels/${GENERAL}/polls/${sent.body.id}/answers/1`, BOT, undefined],
      ['POST', `/channels/${GENERAL}/polls/${sent.body.id}/expire`, BOT, undefined],
      ['PUT', `/channels/${GENERAL}/polls/${sent.body.id}/answers/@me`, BOB_TOKEN, { answer_ids: ['1'] }],
    ] as const) {
      const refused = await server.request(method, path, { auth, body });
      assert.ok(refused.status >= 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
