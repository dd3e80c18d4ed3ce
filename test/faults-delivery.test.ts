/**
 * Injected delivery faults (`/admin/faults`): an interaction's delivery to the app's endpoint
 * dropped, duplicated or late, and the user's client giving up (the 3 s deadline treated as
 * passed: the app still gets the interaction, and its answer is refused with 10062). A fault of
 * one app never touches another's deliveries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from './helpers/app-server.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_APP_ID,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

describe('injected delivery faults', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  before(async () => {
    server = await startServer();
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'hi' } },
    }));
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    assert.equal(created.status, 201, created.text);
    command = created.body;
  });
  after(async () => {
    await app.close();
    await server.close();
  });

  async function addFault(body: Record<string, unknown>): Promise<void> {
    const created = await server.request('POST', `${server.url}/admin/faults`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: { application_id: DEMO_APP_ID, count: 1, ...body },
    });
    assert.equal(created.status, 201, created.text);
  }

  async function invoke(): Promise<Json> {
    const response = await server.request('POST', '/interactions', {
      auth: BOB_TOKEN,
      body: invocationBody(command),
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  const deliveriesOf = (id: string): number => app.interactions().filter((i) => i.id === id).length;

  test('a dropped delivery never reaches the app; the next one does', async () => {
    await addFault({ kind: 'drop' });
    const dropped = await invoke();
    assert.equal(dropped.state, 'pending');
    assert.equal(deliveriesOf(dropped.id), 0);
    const next = await invoke();
    assert.equal(next.state, 'responded');
    assert.equal(deliveriesOf(next.id), 1);
  });

  test('a duplicated delivery reaches the app twice; the first answer counts', async () => {
    await addFault({ kind: 'duplicate' });
    const twice = await invoke();
    assert.equal(twice.state, 'responded');
    assert.equal(deliveriesOf(twice.id), 2);
  });

  test('a late delivery arrives at least that much later', async () => {
    await addFault({ kind: 'late', latency_ms: 200 });
    const started = performance.now();
    const late = await invoke();
    assert.ok(performance.now() - started >= 190);
    assert.equal(late.state, 'responded');
  });

  test('the client gave up: the app gets the interaction, its answer is refused with 10062', async () => {
    const answers: { status: number; body: Json | undefined }[] = [];
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        answers.push(await self.callback(interaction, { type: 4, data: { content: 'too late' } }));
      },
    }));
    await addFault({ kind: 'client_gave_up' });
    const gaveUp = await invoke();
    await app.idle();
    assert.equal(gaveUp.state, 'failed');
    assert.equal(deliveriesOf(gaveUp.id), 1);
    assert.equal(answers.length, 1);
    assert.equal(answers[0]!.status, 404);
    assert.equal(answers[0]!.body?.code, 10062);
    const status = await server.request('GET', `/interactions/${gaveUp.id}`, { auth: BOB_TOKEN });
    assert.equal(status.body.failure_reason, 'timeout');
    assert.match(status.body.failure_detail, /client gave up/);
    const transcript = await transcriptOf(gaveUp.id);
    assert.deepEqual(
      transcript.steps.map((step: Json) => step.kind),
      ['fault', 'delivery', 'answer_refused'],
    );
    assert.equal(transcript.steps[0].detail.kind, 'client_gave_up');
    assert.equal(transcript.steps[2].detail.code, 10062);
    app.handle(() => ({ inline: { type: 4, data: { content: 'hi' } } }));
  });

  async function transcriptOf(id: string): Promise<Json> {
    const answer = await server.request('GET', `${server.url}/admin/interactions/${id}/transcript`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  }

  test('the transcript: the invocation, each delivery with timing and outcome, faults, answers, messages', async () => {
    await addFault({ kind: 'duplicate' });
    const invoked = await invoke();
    const transcript = await transcriptOf(invoked.id);
    assert.equal(transcript.invocation.command_name, 'ping');
    assert.equal(transcript.invocation.payload.token, undefined, 'never the token');
    assert.equal(transcript.state, 'responded');
    assert.deepEqual(
      transcript.steps.map((step: Json) => step.kind),
      ['fault', 'delivery', 'answer'],
    );
    const delivery = transcript.steps[1];
    assert.equal(delivery.detail.transport, 'http');
    assert.equal(delivery.detail.outcome, 'ok');
    assert.equal(delivery.detail.answer, 'inline');
    assert.equal(delivery.detail.copies, 2);
    assert.equal(typeof delivery.detail.duration_ms, 'number');
    assert.equal(transcript.steps[2].detail.via, 'inline');
    assert.deepEqual(
      transcript.messages.map((m: Json) => m.content),
      ['hi'],
    );
    const unknown = await server.request('GET', `${server.url}/admin/interactions/1/transcript`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
    });
    assert.equal(unknown.status, 404);
    const noToken = await server.request('GET', `${server.url}/admin/interactions/${invoked.id}/transcript`);
    assert.equal(noToken.status, 401);
  });

  test('another app’s fault never touches these deliveries', async () => {
    const created = await server.request('POST', `${server.url}/admin/faults`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: { application_id: OTHER_APP_ID, kind: 'drop', count: 5 },
    });
    assert.equal(created.status, 201);
    const delivered = await invoke();
    assert.equal(deliveriesOf(delivered.id), 1);
    assert.equal(delivered.state, 'responded');
  });
});
