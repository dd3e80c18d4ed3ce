/**
 * Polls in an app's answers over signed HTTP (issue 37), each request and answer against the v10
 * OpenAPI document: a type 4 callback with `data.poll` (`?with_response=true`: the message with its
 * poll), and a follow-up `POST /webhooks/{app}/{token}?wait=true` with `poll` (MessageResponse);
 * both polls read back on the channel's messages and take a user's vote.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const CALLBACK = '/interactions/{interaction_id}/{interaction_token}/callback';
const EXECUTE = '/webhooks/{webhook_id}/{webhook_token}';

function poll(text: string): Json {
  return {
    question: { text },
    answers: [{ poll_media: { text: 'Yes' } }, { poll_media: { text: 'No' } }],
    duration: 1,
  };
}

describe('polls in interaction answers and follow-ups, against the OpenAPI document', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'ask', description: 'Asks a question' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = deployed.body[0];
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function messageOf(id: string): Promise<Json> {
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE_TOKEN });
    assert.equal(read.status, 200, read.text);
    return read.body;
  }

  test('a type 4 answer and a follow-up each carry a poll; users vote in both', async () => {
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        const answer = { type: 4, data: { poll: poll('Ship it?') } };
        assertMatchesOperation('POST', CALLBACK, 'request', answer);
        const answered = await self.callback(interaction, answer, '?with_response=true');
        assert.equal(answered.status, 200, answered.text);
        assertMatchesOperation('POST', CALLBACK, 200, answered.body);
        const followUp = { poll: poll('And the docs?') };
        assertMatchesOperation('POST', EXECUTE, 'request', followUp);
        const sent = await self.call('POST', `/webhooks/${DEMO_APP_ID}/${interaction.token}?wait=true`, followUp);
        assert.equal(sent.status, 200, sent.text);
        assertMatchesOperation('POST', EXECUTE, 200, sent.body);
        return { answer: answered.body!.resource.message, followUp: sent.body };
      },
    }));
    const accepted = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody(command),
    });
    assert.equal(accepted.status, 200, accepted.text);
    const [made] = (await app.idle()) as { answer: Json; followUp: Json }[];
    assert.ok(made, 'the app answered');
    assert.equal(made.answer.poll.question.text, 'Ship it?');
    assert.equal(made.followUp.poll.question.text, 'And the docs?');

    for (const message of [made.answer, made.followUp]) {
      const voted = await server.request('PUT', `/channels/${GENERAL}/polls/${message.id}/answers/@me`, {
        auth: BOB_TOKEN,
        body: { answer_ids: [1] },
      });
      assert.equal(voted.status, 204, voted.text);
      const read = await messageOf(message.id);
      assert.equal(read.poll.question.text, message.poll.question.text);
      assert.deepEqual(read.poll.results.answer_counts, [{ id: 1, count: 1, me_voted: false }]);
    }
  });
});
