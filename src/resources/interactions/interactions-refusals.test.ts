/**
 * Refused invocations ("Must show"): before anything reaches the app slashd checks the
 * user's right to use the command in the channel, the command's version (read-repair: the error
 * carries the current version), that a command with subcommands is invoked through one, and every
 * option against the definition; a USER command needs SEND_MESSAGES in the channel. Each refusal
 * is a v10 error body (ErrorResponse) with the right status and code, and each is checked to have
 * reached nothing: the app received no request, no interaction was published on the bus, no
 * message was posted.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { assertErrorBody } from '../../../test/helpers/openapi.js';
import { startServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  ANNOUNCEMENTS,
  BOB_ID,
  BOB_TOKEN as BOB,
  BOT,
  CAROL_ID,
  CAROL_TOKEN as CAROL,
  DAVE_TOKEN as DAVE,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  NOBODY,
  NSFW_LOUNGE as NSFW,
  OTHER_APP_ID,
  TEST_GUILD_ID,
  THREAD,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const MANAGE_MESSAGES = String(1 << 13);

const BASE = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;

const DEFINITIONS: Json[] = [
  {
    name: 'echo',
    description: 'Echo a text',
    name_localizations: { fr: 'repeter' },
    options: [
      {
        type: 3,
        name: 'text',
        description: 'What to say',
        required: true,
        min_length: 2,
        max_length: 10,
        name_localizations: { fr: 'texte' },
      },
      { type: 4, name: 'count', description: 'How often', min_value: 1, max_value: 10 },
      { type: 10, name: 'ratio', description: 'A ratio', min_value: 0, max_value: 1 },
      {
        type: 3,
        name: 'colour',
        description: 'A colour',
        choices: [
          { name: 'Red', value: 'red' },
          { name: 'Blue', value: 'blue' },
        ],
      },
      { type: 7, name: 'where', description: 'A text channel', channel_types: [0] },
      { type: 6, name: 'who', description: 'A user' },
    ],
  },
  {
    name: 'config',
    description: 'Configure',
    options: [
      {
        type: 2,
        name: 'set',
        description: 'Set',
        options: [
          {
            type: 1,
            name: 'name',
            description: 'Set the name',
            options: [{ type: 3, name: 'value', description: 'v', required: true }],
          },
        ],
      },
      { type: 1, name: 'show', description: 'Show' },
    ],
  },
  { name: 'purge', description: 'Moderators only', default_member_permissions: MANAGE_MESSAGES },
  { name: 'greet', description: 'Everyone but carol (an overwrite)' },
  { name: 'spicy', description: 'Age-restricted', nsfw: true },
  { type: 2, name: 'Profile' },
  { type: 3, name: 'Quote' },
  {
    name: 'search',
    description: 'Search',
    options: [
      { type: 3, name: 'query', description: 'What', required: true, autocomplete: true },
      { type: 4, name: 'page', description: 'Which page', autocomplete: true },
      { type: 3, name: 'plain', description: 'No autocomplete' },
    ],
  },
];

describe('refused invocations never reach the app', () => {
  let server: TestServer;
  let app: AppServer;
  const commands: Record<string, Json> = {};
  /** INTERACTION_CREATE events published on the bus (apps without an endpoint get them there). */
  const published: Json[] = [];
  let unsubscribe: () => void = () => {};
  let receivedBefore = 0;

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', BASE, { auth: BOT, body: DEFINITIONS });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;
    const overwrite = await server.request('PUT', `${BASE}/${commands.greet!.id}/permissions`, {
      auth: 'Bearer alice-perm-token',
      body: { permissions: [{ id: CAROL_ID, type: 2, permission: false }] },
    });
    assert.equal(overwrite.status, 200, overwrite.text);
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'accepted' } },
    }));
    unsubscribe = server.slashd.bus.subscribe('INTERACTION_CREATE', (event) => published.push(event));
  });

  after(async () => {
    unsubscribe();
    await app?.close();
    await server?.close();
  });

  beforeEach(() => {
    receivedBefore = app.received.length;
  });

  function invocation(name: string, data: Json = {}, options: { type?: number; channelId?: string } = {}): Json {
    return invocationBody(commands[name]!, { type: options.type, channelId: options.channelId, data });
  }

  async function messageCount(auth: string, channelId = GENERAL): Promise<number> {
    const response = await server.request('GET', `/channels/${channelId}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).length;
  }

  /** Invokes, expects the refusal, and checks that nothing reached the app or the channel. */
  async function refused(auth: string, body: Json, status: number, code: number): Promise<TestResponse> {
    const channelId = body.channel_id as string;
    const messagesBefore = await messageCount(ALICE, channelId);
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, status, response.text);
    assertErrorBody(status, response.body);
    assert.equal(response.body.code, code);
    assert.equal(typeof response.body.message, 'string');
    assert.equal(app.received.length, receivedBefore, 'the app received nothing');
    assert.equal(published.length, 0, 'nothing was published for the gateway');
    assert.equal(await messageCount(ALICE, channelId), messagesBefore, 'no message was posted');
    return response;
  }

  /** The `_errors` codes at a path of a 50035 tree. */
  function errorCodes(body: Json, path: (string | number)[]): string[] {
    let node: Json | undefined = body.errors;
    for (const key of path) node = node?.[String(key)];
    assert.ok(node?._errors, `an error at ${path.join('.')}: ${JSON.stringify(body.errors)}`);
    return (node._errors as Json[]).map((e) => e.code as string);
  }

  test('control: a correct invocation is delivered (so the refusals below are the checks, not the setup)', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation('echo', {
        options: [
          { name: 'text', type: 3, value: 'hello' },
          { name: 'count', type: 4, value: 10 },
        ],
      }),
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'responded');
    assert.equal(app.received.length, receivedBefore + 1);
    receivedBefore = app.received.length;
  });

  test('a stale version: refused, and the error carries the current version (read-repair)', async () => {
    const stale = invocation('echo', { options: [{ name: 'text', type: 3, value: 'hello' }] });
    const edit = await server.request('PATCH', `${BASE}/${commands.echo!.id}`, {
      auth: BOT,
      body: { description: 'Echo a text, v2' },
    });
    assert.equal(edit.status, 200, edit.text);
    const current = edit.body.version as string;
    assert.notEqual(current, commands.echo!.version, 'the edit made a new version');
    commands.echo = edit.body;

    const response = await refused(BOB, stale, 400, 50035);
    assert.equal(response.body.current_version, current, 'the error names the current version');
    assert.deepEqual(errorCodes(response.body, ['data', 'version']), ['APPLICATION_COMMAND_OUTDATED']);
    assert.equal(response.body.application_command?.id, commands.echo!.id, 'and carries the current command to reload');
    assert.equal(response.body.application_command?.description, 'Echo a text, v2');

    // With the current version the same invocation goes through.
    const retried = await server.request('POST', '/interactions', {
      auth: BOB,
      body: { ...stale, data: { ...stale.data, version: current } },
    });
    assert.equal(retried.status, 200, retried.text);
    receivedBefore = app.received.length;
  });

  test('a user without the default_member_permissions of the command', async () => {
    await refused(CAROL, invocation('purge'), 403, 50013);
    await refused(BOB, invocation('purge'), 403, 50013);
  });

  test('a user denied by a command-level overwrite', async () => {
    await refused(CAROL, invocation('greet'), 403, 50013);
    // The overwrite names carol only: bob may.
    const allowed = await server.request('POST', '/interactions', { auth: BOB, body: invocation('greet') });
    assert.equal(allowed.status, 200, allowed.text);
    receivedBefore = app.received.length;
  });

  test('an age-restricted command for a user who is not age verified, and outside an age-restricted channel', async () => {
    await refused(DAVE, invocation('spicy', {}, { channelId: NSFW }), 403, 50013);
    await refused(ALICE, invocation('spicy', {}, { channelId: GENERAL }), 403, 50013);
  });

  test('an INTEGER above max_value, a NUMBER below min_value, a string too short or too long', async () => {
    const text = { name: 'text', type: 3, value: 'hello' };
    let response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'count', type: 4, value: 11 }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 1, 'value']), ['NUMBER_TYPE_MAX']);
    response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'ratio', type: 10, value: -0.5 }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 1, 'value']), ['NUMBER_TYPE_MIN']);
    response = await refused(BOB, invocation('echo', { options: [{ name: 'text', type: 3, value: 'h' }] }), 400, 50035);
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 0, 'value']), ['BASE_TYPE_BAD_LENGTH']);
    response = await refused(
      BOB,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'x'.repeat(11) }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 0, 'value']), ['BASE_TYPE_BAD_LENGTH']);
  });

  test('a mistyped option: a string for an INTEGER, a fraction for an INTEGER, a declared type that is not the option type', async () => {
    const text = { name: 'text', type: 3, value: 'hello' };
    let response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'count', type: 4, value: 'three' }] }),
      400,
      50035,
    );
    assert.equal(errorCodes(response.body, ['data', 'options', 1, 'value']).length, 1);
    response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'count', type: 4, value: 2.5 }] }),
      400,
      50035,
    );
    assert.equal(errorCodes(response.body, ['data', 'options', 1, 'value']).length, 1);
    response = await refused(BOB, invocation('echo', { options: [{ name: 'text', type: 4, value: 5 }] }), 400, 50035);
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 0, 'type']), ['INTERACTION_OPTION_TYPE_MISMATCH']);
  });

  test('a missing required option, at the top level and in a subcommand', async () => {
    let response = await refused(
      BOB,
      invocation('echo', { options: [{ name: 'count', type: 4, value: 2 }] }),
      400,
      50035,
    );
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_REQUIRED'),
      JSON.stringify(response.body.errors),
    );
    response = await refused(BOB, invocation('echo'), 400, 50035);
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_REQUIRED'));
    response = await refused(
      BOB,
      invocation('config', { options: [{ name: 'set', type: 2, options: [{ name: 'name', type: 1, options: [] }] }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_REQUIRED'));
  });

  test('a base command that has subcommands, and a group without its subcommand', async () => {
    let response = await refused(BOB, invocation('config'), 400, 50035);
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_SUBCOMMAND_REQUIRED'),
      JSON.stringify(response.body.errors),
    );
    response = await refused(BOB, invocation('config', { options: [{ name: 'set', type: 2 }] }), 400, 50035);
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_SUBCOMMAND_REQUIRED'),
      JSON.stringify(response.body.errors),
    );
  });

  test('a value that is not a choice, an unknown option, a channel of a type the option excludes, an id that names nobody', async () => {
    const text = { name: 'text', type: 3, value: 'hello' };
    let response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'colour', type: 3, value: 'green' }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'options', 1, 'value']), ['INTERACTION_OPTION_INVALID_CHOICE']);
    response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'volume', type: 4, value: 1 }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_UNKNOWN'));
    response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'where', type: 7, value: THREAD }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_CHANNEL_TYPE_INVALID'));
    response = await refused(
      BOB,
      invocation('echo', { options: [text, { name: 'who', type: 6, value: NOBODY }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_UNKNOWN_USER'));
    // A localized option name is not the option's name: clients always send the default names.
    response = await refused(
      BOB,
      invocation('echo', { options: [{ name: 'texte', type: 3, value: 'hello' }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_UNKNOWN'));
  });

  test('a USER command without SEND_MESSAGES in the channel: permission denied', async () => {
    // @everyone is denied SEND_MESSAGES in #announcements and carol has no role that allows it.
    await refused(CAROL, invocation('Profile', { target_id: BOB_ID }, { channelId: ANNOUNCEMENTS }), 403, 50013);
    await refused(BOB, invocation('Profile', { target_id: CAROL_ID }, { channelId: ANNOUNCEMENTS }), 403, 50013);
    // The same command in #general, and in #announcements for the Admin: delivered.
    for (const [auth, channelId] of [
      [CAROL, GENERAL],
      [ALICE, ANNOUNCEMENTS],
    ] as const) {
      const ok = await server.request('POST', '/interactions', {
        auth,
        body: invocation('Profile', { target_id: BOB_ID }, { channelId }),
      });
      assert.equal(ok.status, 200, ok.text);
    }
    receivedBefore = app.received.length;
  });

  test('USER and MESSAGE commands: a target that does not resolve, options where none are taken', async () => {
    let response = await refused(BOB, invocation('Profile', { target_id: NOBODY }), 400, 50035);
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_UNKNOWN_USER'),
      JSON.stringify(response.body.errors),
    );
    response = await refused(BOB, invocation('Quote', { target_id: NOBODY }), 400, 50035);
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_UNKNOWN_MESSAGE'),
      JSON.stringify(response.body.errors),
    );
    response = await refused(
      BOB,
      invocation('Quote', { target_id: HELLO_MESSAGE, options: [{ name: 'x', type: 3, value: 'y' }] }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_OPTIONS_NOT_ALLOWED'));
  });

  test("a MESSAGE command on another user's ephemeral message: it does not resolve for this user", async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'for bob only', flags: 64 } } }));
    const invoked = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation('echo', { options: [{ name: 'text', type: 3, value: 'hush' }] }),
    });
    assert.equal(invoked.status, 200, invoked.text);
    receivedBefore = app.received.length;
    const bobSees = await server.request('GET', `/channels/${GENERAL}/messages?limit=1`, { auth: BOB });
    const ephemeral = (bobSees.body as Json[])[0]!;
    assert.equal(ephemeral.content, 'for bob only');
    const response = await refused(CAROL, invocation('Quote', { target_id: ephemeral.id }), 400, 50035);
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_UNKNOWN_MESSAGE'),
      JSON.stringify(response.body.errors),
    );
    // bob himself may quote it.
    app.handle(() => ({ inline: { type: 4, data: { content: 'accepted' } } }));
    const own = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation('Quote', { target_id: ephemeral.id }),
    });
    assert.equal(own.status, 200, own.text);
    assert.equal(app.interactions().at(-1)?.data.resolved.messages[ephemeral.id]?.content, 'for bob only');
    receivedBefore = app.received.length;
  });

  test('autocomplete: no focused option, two focused options, an invalid number, an option without autocomplete, a USER command', async () => {
    const type = 4;
    let response = await refused(
      BOB,
      invocation('search', { options: [{ name: 'query', type: 3, value: 'ca' }] }, { type }),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED'));
    response = await refused(
      BOB,
      invocation(
        'search',
        {
          options: [
            { name: 'query', type: 3, value: 'ca', focused: true },
            { name: 'page', type: 4, value: '1', focused: true },
          ],
        },
        { type },
      ),
      400,
      50035,
    );
    assert.ok(JSON.stringify(response.body.errors).includes('INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE'));
    response = await refused(
      BOB,
      invocation('search', { options: [{ name: 'page', type: 4, value: '1x', focused: true }] }, { type }),
      400,
      50035,
    );
    assert.equal(
      errorCodes(response.body, ['data', 'options', 0, 'value']).length,
      1,
      'an invalid number does not pass',
    );
    response = await refused(
      BOB,
      invocation('search', { options: [{ name: 'plain', type: 3, value: 'a', focused: true }] }, { type }),
      400,
      50035,
    );
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_AUTOCOMPLETE_NOT_ENABLED'),
      JSON.stringify(response.body.errors),
    );
    await refused(BOB, invocation('Profile', { target_id: CAROL_ID }, { type }), 400, 50035);
    // focused outside autocomplete is not allowed either.
    response = await refused(
      BOB,
      invocation('search', { options: [{ name: 'query', type: 3, value: 'ca', focused: true }] }),
      400,
      50035,
    );
    assert.ok(
      JSON.stringify(response.body.errors).includes('INTERACTION_OPTION_FIELD_NOT_ALLOWED'),
      JSON.stringify(response.body.errors),
    );
  });

  test("a name or type that is not the command's", async () => {
    let response = await refused(
      BOB,
      invocation('echo', { name: 'repeter', options: [{ name: 'text', type: 3, value: 'hello' }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'name']), ['INTERACTION_COMMAND_NAME_MISMATCH']);
    response = await refused(
      BOB,
      invocation('echo', { type: 2, options: [{ name: 'text', type: 3, value: 'hello' }] }),
      400,
      50035,
    );
    assert.deepEqual(errorCodes(response.body, ['data', 'type']), ['INTERACTION_COMMAND_TYPE_MISMATCH']);
  });

  test('no user token, an unknown command, a command of another guild or app', async () => {
    const body = invocation('echo', { options: [{ name: 'text', type: 3, value: 'hello' }] });
    const before = app.received.length;
    const anonymous = await server.request('POST', '/interactions', { body });
    assert.equal(anonymous.status, 401);
    assertErrorBody(401, anonymous.body);
    const bot = await server.request('POST', '/interactions', { auth: BOT, body });
    assert.equal(bot.status, 401, 'a bot token does not invoke commands');
    await refused(BOB, { ...body, data: { ...body.data, id: NOBODY } }, 404, 10063);
    await refused(BOB, { ...body, application_id: OTHER_APP_ID }, 404, 10063);
    assert.equal(app.received.length, before);
  });

  test('across all refusals the app received only the verification requests and the controls', () => {
    const interactions = app.interactions();
    assert.ok(
      interactions.every((i) => i.data.name !== 'purge' && i.data.name !== 'spicy'),
      'no refused command ever arrived',
    );
    assert.ok(!interactions.some((i) => i.member.user.id === CAROL_ID && i.data.name === 'greet'));
    assert.ok(interactions.every((i) => i.member.user.id !== ALICE_ID || i.data.name === 'Profile'));
  });
});
