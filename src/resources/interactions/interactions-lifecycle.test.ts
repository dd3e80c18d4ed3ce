/**
 * The life of an interaction ("Answering"), on an injected clock, never on wall-clock
 * waits: one acknowledgement (a second gets 40060); the first answer within 3 seconds, else the
 * interaction fails for the user (timeout) and its token is dead (10062); a wrong token or id gets
 * 10062; follow-ups for 15 minutes, then 401 50027; an app without an endpoint gets the interaction
 * on the event bus (INTERACTION_CREATE) and fails the same way unanswered; an endpoint that fails
 * fails the interaction (delivery_failure). And which callback types answer what: 8 only
 * autocomplete, 12 only for apps with Activities, 6 and 7 never a command.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { assertErrorBody, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  ALICE_TOKEN as ALICE,
  BOB_TOKEN as BOB,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const DEADLINE_MS = 3_000;
const TOKEN_LIFETIME_MS = 15 * 60_000;

const DEFINITIONS: Json[] = [
  { name: 'ping', description: 'Ping' },
  {
    name: 'pick',
    description: 'Pick',
    options: [
      { type: 3, name: 'fruit', description: 'A fruit', autocomplete: true },
      { type: 4, name: 'size', description: 'A size', autocomplete: true, min_value: 1, max_value: 9 },
    ],
  },
];

describe('interaction lifecycle on an injected clock', () => {
  let server: TestServer;
  let app: AppServer;
  let clock = Date.UTC(2025, 5, 1, 12, 0, 0);
  const commands: Record<string, Json> = {};
  const activityCommands: Record<string, Json> = {};
  const published: { applicationId: string; data: Json }[] = [];
  let unsubscribe: () => void = () => {};

  before(async () => {
    server = await startServer({ now: () => clock });
    const base = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    const deployed = await server.request('PUT', base, { auth: BOT, body: DEFINITIONS });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;
    // The Activity app has no interactions endpoint: it gets its interactions on the bus.
    const activityBase = `/applications/${ACTIVITY_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    const created = await server.request('POST', activityBase, {
      auth: `Bot ${ACTIVITY_BOT_TOKEN}`,
      body: { name: 'status', description: 'Status' },
    });
    assert.equal(created.status, 201, created.text);
    activityCommands.status = created.body;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
    unsubscribe = server.slashd.bus.subscribe('INTERACTION_CREATE', (event) => published.push(event));
  });

  after(async () => {
    unsubscribe();
    await app?.close();
    await server?.close();
  });

  beforeEach(() => {
    // Every test starts well away from the previous one's interactions.
    clock += TOKEN_LIFETIME_MS * 2;
    app.handle(() => ({ accepted: true }));
  });

  function invocation(command: Json, applicationId = DEMO_APP_ID, type = 2, options?: Json[]): Json {
    return invocationBody(command, { type, applicationId, data: options ? { options } : {} });
  }

  /** Invokes `ping` (or the given body); the app answers 202 unless the test set another handler. */
  async function invoke(
    body: Json = invocation(commands.ping!),
    auth = BOB,
  ): Promise<{ id: string; state: string; interaction: Json | undefined }> {
    const before = app.interactions().length;
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, 200, response.text);
    const received = app.interactions();
    const interaction = received.length > before ? received[received.length - 1] : undefined;
    return { id: response.body.id, state: response.body.state, interaction };
  }

  function callback(interaction: Json, body: Json, query = ''): Promise<TestResponse> {
    return server.request('POST', `/interactions/${interaction.id}/${interaction.token}/callback${query}`, { body });
  }

  async function state(id: string, auth = BOB): Promise<Json> {
    const response = await server.request('GET', `/interactions/${id}`, { auth });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  function assertError(response: TestResponse, status: number, code: number): void {
    assert.equal(response.status, status, response.text);
    assertErrorBody(status, response.body);
    assert.equal(response.body.code, code);
  }

  async function channelContents(auth = BOB): Promise<string[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).map((m) => m.content as string);
  }

  describe('one acknowledgement', () => {
    test('a second acknowledgement gets 40060 and changes nothing', async () => {
      const { id, state: accepted, interaction } = await invoke();
      assert.equal(accepted, 'pending', 'the app answered 202: nothing yet');
      assert.ok(interaction);
      assert.equal((await callback(interaction, { type: 4, data: { content: 'first' } })).status, 204);
      assertError(await callback(interaction, { type: 4, data: { content: 'second' } }), 400, 40060);
      assertError(await callback(interaction, { type: 5 }), 400, 40060);
      const after = await state(id);
      assert.equal(after.state, 'responded');
      assert.equal(after.response.data.content, 'first');
      const contents = await channelContents();
      assert.ok(contents.includes('first'));
      assert.ok(!contents.includes('second'), 'the refused second answer posted nothing');
    });

    test('an inline answer is the acknowledgement: a callback after it gets 40060', async () => {
      app.handle(() => ({ inline: { type: 4, data: { content: 'inline' } } }));
      const { state: accepted, interaction } = await invoke();
      assert.equal(accepted, 'responded');
      assertError(await callback(interaction!, { type: 4, data: { content: 'again' } }), 400, 40060);
    });

    test('a deferred acknowledgement is one too: 40060, but the original can be edited', async () => {
      const { id, interaction } = await invoke();
      assert.equal((await callback(interaction!, { type: 5 })).status, 204);
      assert.equal((await state(id)).state, 'acknowledged');
      assertError(await callback(interaction!, { type: 4, data: { content: 'late' } }), 400, 40060);
      const edit = await server.request('PATCH', `/webhooks/${DEMO_APP_ID}/${interaction!.token}/messages/@original`, {
        body: { content: 'done' },
      });
      assert.equal(edit.status, 200, edit.text);
      assert.equal((await state(id)).state, 'responded');
    });

    test('two concurrent acknowledgements: exactly one wins', async () => {
      const { id, interaction } = await invoke();
      const answers = await Promise.all(
        [1, 2, 3, 4].map((n) => callback(interaction!, { type: 4, data: { content: `race ${n}` } })),
      );
      const won = answers.filter((r) => r.status === 204);
      assert.equal(won.length, 1, answers.map((r) => r.status).join(','));
      for (const lost of answers.filter((r) => r.status !== 204)) assertError(lost, 400, 40060);
      const contents = (await channelContents()).filter((c) => c.startsWith('race '));
      assert.equal(contents.length, 1, 'one message');
      assert.equal((await state(id)).response.data.content, contents[0]);
    });
  });

  describe('the 3 second deadline', () => {
    test('just before the deadline the answer is accepted', async () => {
      const { id, interaction } = await invoke();
      clock += DEADLINE_MS - 1;
      assert.equal((await state(id)).state, 'pending');
      assert.equal((await callback(interaction!, { type: 4, data: { content: 'in time' } })).status, 204);
      assert.equal((await state(id)).state, 'responded');
    });

    test('a late answer (after 3 s) gets 10062; the interaction failed with timeout; the token is dead', async () => {
      const { id, interaction } = await invoke();
      clock += DEADLINE_MS;
      const shown = await state(id);
      assert.equal(shown.state, 'failed');
      assert.equal(shown.failure_reason, 'timeout');
      assertError(await callback(interaction!, { type: 4, data: { content: 'too late' } }), 404, 10062);
      assertError(await callback(interaction!, { type: 5 }), 404, 10062);
      const after = await state(id);
      assert.equal(after.state, 'failed');
      assert.equal(after.failure_reason, 'timeout');
      assert.equal(after.response, null);
      // The token serves nothing any more.
      assertError(
        await server.request('POST', `/webhooks/${DEMO_APP_ID}/${interaction!.token}`, { body: { content: 'x' } }),
        401,
        50027,
      );
      assert.ok(!(await channelContents()).includes('too late'));
    });
  });

  describe('tokens', () => {
    test("a wrong token, an unknown id, or another interaction's token: 10062", async () => {
      const first = await invoke();
      const second = await invoke();
      const a = first.interaction!;
      const b = second.interaction!;
      const [prefix, secret] = (a.token as string).split('.') as [string, string];
      const flipped = `${prefix}.${secret[0] === 'A' ? 'B' : 'A'}${secret.slice(1)}`;
      assertError(
        await server.request('POST', `/interactions/${a.id}/${flipped}/callback`, {
          body: { type: 4, data: { content: 'x' } },
        }),
        404,
        10062,
      );
      assertError(
        await server.request('POST', `/interactions/${a.id}/not-a-token/callback`, {
          body: { type: 4, data: { content: 'x' } },
        }),
        404,
        10062,
      );
      assertError(
        await server.request('POST', `/interactions/${a.id}/${b.token}/callback`, {
          body: { type: 4, data: { content: 'x' } },
        }),
        404,
        10062,
      );
      assertError(
        await server.request('POST', `/interactions/1399999999999999999/${a.token}/callback`, {
          body: { type: 4, data: { content: 'x' } },
        }),
        404,
        10062,
      );
      // None of these acknowledged anything: the real tokens still work.
      assert.equal((await state(first.id)).state, 'pending');
      assert.equal((await callback(a, { type: 4, data: { content: 'a' } })).status, 204);
      assert.equal((await callback(b, { type: 4, data: { content: 'b' } })).status, 204);
    });

    test('a wrong token on the webhook: follow-ups and @original refuse it', async () => {
      app.handle(() => ({ inline: { type: 4, data: { content: 'original' } } }));
      const { interaction } = await invoke();
      const wrong = `${(interaction!.token as string).split('.')[0]}.wrong`;
      const post = await server.request('POST', `/webhooks/${DEMO_APP_ID}/${wrong}`, { body: { content: 'x' } });
      assert.equal(post.status, 404, post.text);
      assertErrorBody(404, post.body);
      assert.equal(post.body.code, 10015);
      // The right token under another application's id.
      const otherApp = await server.request(
        'GET',
        `/webhooks/${ACTIVITY_APP_ID}/${interaction!.token}/messages/@original`,
      );
      assert.equal(otherApp.status, 404);
      assert.equal(otherApp.body.code, 10015);
    });

    test('an expired token (15 minutes): follow-ups and @original get 401 50027', async () => {
      app.handle(() => ({ inline: { type: 4, data: { content: 'answer' } } }));
      const { interaction } = await invoke();
      const hook = `/webhooks/${DEMO_APP_ID}/${interaction!.token}`;
      clock += TOKEN_LIFETIME_MS - 1;
      const inTime = await server.request('POST', hook, { body: { content: 'follow-up in time' } });
      assert.equal(inTime.status, 200, inTime.text);
      assertMatchesSchema('MessageResponse', inTime.body);
      clock += 1;
      assertError(await server.request('POST', hook, { body: { content: 'follow-up too late' } }), 401, 50027);
      assertError(await server.request('GET', `${hook}/messages/@original`), 401, 50027);
      assertError(
        await server.request('PATCH', `${hook}/messages/@original`, { body: { content: 'edit' } }),
        401,
        50027,
      );
      assertError(await server.request('DELETE', `${hook}/messages/${inTime.body.id}`), 401, 50027);
      const contents = await channelContents();
      assert.ok(contents.includes('answer') && contents.includes('follow-up in time'), 'nothing was deleted');
      assert.ok(!contents.includes('follow-up too late'));
    });

    test('a follow-up before the first answer is refused', async () => {
      const { interaction } = await invoke();
      // v10 answers a follow-up to an unacknowledged interaction with Unknown Webhook.
      assertError(
        await server.request('POST', `/webhooks/${DEMO_APP_ID}/${interaction!.token}`, { body: { content: 'early' } }),
        404,
        10015,
      );
      assert.equal((await callback(interaction!, { type: 4, data: { content: 'now' } })).status, 204);
    });
  });

  describe('apps without an interactions endpoint: the event bus', () => {
    test('the interaction is published as INTERACTION_CREATE, and answered through the callback', async () => {
      const before = published.length;
      const { id, state: accepted } = await invoke(invocation(activityCommands.status!, ACTIVITY_APP_ID));
      assert.equal(accepted, 'pending');
      assert.equal(published.length, before + 1, 'published once');
      const event = published[published.length - 1]!;
      assert.equal(event.applicationId, ACTIVITY_APP_ID);
      assert.equal(event.data.id, id);
      assert.equal(event.data.type, 2);
      assert.equal(event.data.version, 1);
      assert.equal(event.data.data.name, 'status');
      assert.equal(typeof event.data.token, 'string');
      const answered = await callback(
        event.data,
        { type: 4, data: { content: 'from the gateway app' } },
        '?with_response=true',
      );
      assert.equal(answered.status, 200, answered.text);
      assertMatchesSchema('InteractionCallbackResponse', answered.body);
      assert.equal((await state(id)).state, 'responded');
    });

    test('an app that never answers: failed with timeout once the clock passes the deadline', async () => {
      const before = published.length;
      const { id } = await invoke(invocation(activityCommands.status!, ACTIVITY_APP_ID));
      assert.equal(published.length, before + 1);
      const event = published[published.length - 1]!;
      assert.equal((await state(id)).state, 'pending');
      clock += DEADLINE_MS + 1;
      const shown = await state(id);
      assert.equal(shown.state, 'failed');
      assert.equal(shown.failure_reason, 'timeout');
      assertError(await callback(event.data, { type: 4, data: { content: 'too late' } }), 404, 10062);
    });

    test('an app with an endpoint is never also sent the interaction on the bus', async () => {
      const before = published.length;
      const { interaction } = await invoke();
      assert.ok(interaction, 'delivered over HTTP');
      assert.equal(published.length, before, 'and not on the bus');
    });
  });

  describe('delivery failures', () => {
    test('an endpoint answering 500: failed, delivery_failure; its token answers nothing', async () => {
      app.handle(() => ({ status: 500, body: 'boom' }));
      const { id, state: accepted, interaction } = await invoke();
      assert.equal(accepted, 'failed');
      const shown = await state(id);
      assert.equal(shown.state, 'failed');
      assert.equal(shown.failure_reason, 'delivery_failure');
      assertError(await callback(interaction!, { type: 4, data: { content: 'after all' } }), 404, 10062);
    });

    test('an endpoint answering 401 to a good signature: delivery_failure', async () => {
      app.handle(() => ({ status: 401, body: 'no' }));
      const { id } = await invoke();
      const shown = await state(id);
      assert.equal(shown.state, 'failed');
      assert.equal(shown.failure_reason, 'delivery_failure');
    });

    test('an inline answer that is not JSON: delivery_failure', async () => {
      app.handle(() => ({ status: 200, body: 'not json' }));
      const { id } = await invoke();
      assert.equal((await state(id)).failure_reason, 'delivery_failure');
    });

    test('an endpoint that answers only after the deadline: timeout, not delivery_failure; the late inline answer is dropped', async () => {
      app.handle(() => {
        clock += DEADLINE_MS;
        return { inline: { type: 4, data: { content: 'too slow' } } };
      });
      const { id, state: accepted } = await invoke();
      assert.equal(accepted, 'failed');
      const shown = await state(id);
      assert.equal(shown.failure_reason, 'timeout');
      assert.equal(shown.response, null);
      assert.ok(!(await channelContents()).includes('too slow'));

      app.handle(() => {
        clock += DEADLINE_MS;
        return { status: 500, body: 'slow and broken' };
      });
      const failed = await invoke();
      assert.equal((await state(failed.id)).failure_reason, 'timeout');
    });

    test('an invalid inline answer (type 8 to a command) fails the interaction: invalid_response', async () => {
      app.handle(() => ({ inline: { type: 8, data: { choices: [{ name: 'a', value: 'a' }] } } }));
      const { id } = await invoke();
      const shown = await state(id);
      assert.equal(shown.state, 'failed');
      assert.equal(shown.failure_reason, 'invalid_response');
      assert.equal(shown.response, null);
    });
  });

  describe('which callback types answer what', () => {
    async function refusedCallback(interaction: Json, body: Json, code: string): Promise<void> {
      const response = await callback(interaction, body);
      assertError(response, 400, 50035);
      assert.ok(JSON.stringify(response.body.errors).includes(code), JSON.stringify(response.body.errors));
    }

    test('a command: 8 (autocomplete result), 6, 7 (components only), 1 (PONG) and 10 are refused; the interaction stays pending', async () => {
      const { id, interaction } = await invoke();
      for (const type of [8, 6, 7, 1, 10]) {
        const body =
          type === 8
            ? { type, data: { choices: [{ name: 'a', value: 'a' }] } }
            : type === 7
              ? { type, data: { content: 'x' } }
              : { type };
        await refusedCallback(interaction!, body, 'INTERACTION_CALLBACK_TYPE_INVALID');
      }
      assertError(await callback(interaction!, { type: 11 }), 400, 50035);
      assert.equal((await state(id)).state, 'pending', 'a refused answer is no acknowledgement');
      assert.equal((await callback(interaction!, { type: 4, data: { content: 'right type' } })).status, 204);
    });

    test('type 12 (LAUNCH_ACTIVITY) only for apps with Activities', async () => {
      const { id, interaction } = await invoke();
      await refusedCallback(interaction!, { type: 12 }, 'INTERACTION_CALLBACK_ACTIVITIES_REQUIRED');
      assert.equal((await state(id)).state, 'pending');
    });

    test("an autocomplete request: only type 8, with at most 25 choices of the option's type", async () => {
      const body = invocation(commands.pick!, DEMO_APP_ID, 4, [{ name: 'size', type: 4, value: '', focused: true }]);
      const { id, interaction } = await invoke(body);
      assert.ok(interaction);
      assert.equal(interaction.type, 4);
      for (const type of [4, 5, 9, 12]) {
        const response = await callback(interaction, { type, data: { content: 'x' } });
        assertError(response, 400, 50035);
      }
      const tooMany = Array.from({ length: 26 }, (_, i) => ({ name: `size ${i + 1}`, value: i + 1 }));
      assertError(await callback(interaction, { type: 8, data: { choices: tooMany } }), 400, 50035);
      assertError(
        await callback(interaction, { type: 8, data: { choices: [{ name: 'big', value: 'big' }] } }),
        400,
        50035,
      );
      assertError(
        await callback(interaction, { type: 8, data: { choices: [{ name: 'half', value: 1.5 }] } }),
        400,
        50035,
      );
      assert.equal((await state(id)).state, 'pending');
      const good = tooMany.slice(0, 25);
      const answered = await callback(interaction, { type: 8, data: { choices: good } }, '?with_response=true');
      assert.equal(answered.status, 200, answered.text);
      assertMatchesSchema('InteractionCallbackResponse', answered.body);
      assert.equal(answered.body.interaction.id, interaction.id);
      assert.equal(answered.body.interaction.type, 4);
      assert.equal(answered.body.resource, undefined, 'an autocomplete result creates no resource');
      const shown = await state(id);
      assert.equal(shown.state, 'responded');
      assert.equal(shown.response.data.choices.length, 25);
    });

    test('a string autocomplete result: values of at most 100 characters', async () => {
      const body = invocation(commands.pick!, DEMO_APP_ID, 4, [{ name: 'fruit', type: 3, value: 'ap', focused: true }]);
      const { interaction } = await invoke(body);
      assertError(
        await callback(interaction!, { type: 8, data: { choices: [{ name: 'long', value: 'x'.repeat(101) }] } }),
        400,
        50035,
      );
      assertError(
        await callback(interaction!, { type: 8, data: { choices: [{ name: 'number', value: 3 }] } }),
        400,
        50035,
      );
      assert.equal(
        (await callback(interaction!, { type: 8, data: { choices: [{ name: 'apple', value: 'apple' }] } })).status,
        204,
      );
    });

    test('a modal (type 9) answers a command', async () => {
      const { id, interaction } = await invoke();
      const modal = {
        type: 9,
        data: {
          custom_id: 'feedback',
          title: 'Feedback',
          components: [{ type: 1, components: [{ type: 4, custom_id: 'text', label: 'Your feedback', style: 1 }] }],
        },
      };
      const answered = await callback(interaction!, modal);
      assert.equal(answered.status, 204, answered.text);
      assert.equal((await state(id)).state, 'responded');
    });

    test('a message answer with nothing in it is refused', async () => {
      const { id, interaction } = await invoke();
      assertError(await callback(interaction!, { type: 4, data: {} }), 400, 50006);
      assertError(await callback(interaction!, { type: 4 }), 400, 50006);
      assert.equal((await state(id)).state, 'pending');
    });
  });

  test("unanswered interactions fail for the user: alice cannot see bob's, bob sees his own as failed", async () => {
    const { id } = await invoke();
    clock += DEADLINE_MS;
    assertError(await server.request('GET', `/interactions/${id}`, { auth: ALICE }), 404, 10062);
    assert.equal((await state(id)).state, 'failed');
  });
});
