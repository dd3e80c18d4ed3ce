/**
 * Invoking commands end to end ("Must show"): a real app built on discord-interactions
 * (its `verifyKey`, unmodified) receives a slash command with options, a subcommand, a USER and a
 * MESSAGE command and an autocomplete request over signed HTTP; it answers inline and through the
 * callback (with and without `with_response`), defers and edits `@original`, sends follow-ups and
 * an ephemeral reply; the user sees every result in the channel (with `interaction_metadata`) and
 * another user does not see the ephemeral one. Every interaction is checked for every field of the
 * docs/v10-behaviour.md#interactions; every message against the OpenAPI `MessageResponse` schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InteractionResponseFlags, InteractionResponseType, InteractionType } from 'discord-interactions';
import {
  assertOnlySignedTraffic,
  startRegisteredApp,
  type AppServer,
  type Json,
} from '../../../test/helpers/app-server.js';
import { assertErrorBody, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOB_ID,
  BOB_TOKEN as BOB,
  BOT,
  CAROL_ID,
  CAROL_TOKEN as CAROL,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const EPHEMERAL = InteractionResponseFlags.EPHEMERAL;
const LOADING = 1 << 7;
const SNOWFLAKE = /^[1-9][0-9]{0,19}$/;

/** Every top-level field of an interaction in a guild (docs/v10-behaviour.md#interactions). */
const GUILD_INTERACTION_FIELDS = [
  'id',
  'application_id',
  'type',
  'token',
  'version',
  'guild_id',
  'guild',
  'channel_id',
  'channel',
  'member',
  'app_permissions',
  'locale',
  'guild_locale',
  'context',
  'authorizing_integration_owners',
  'entitlements',
  'data',
];
/** Every field of the member object of an interaction (v10 API, "Interactions received by the app"). */
const MEMBER_FIELDS = [
  'user',
  'roles',
  'permissions',
  'joined_at',
  'nick',
  'avatar',
  'premium_since',
  'pending',
  'mute',
  'deaf',
];

const BASE = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;

/** The definitions this file deploys in the test guild; localized names must never reach the app. */
const DEFINITIONS: Json[] = [
  {
    name: 'echo',
    description: 'Echo a text',
    name_localizations: { fr: 'repeter', 'es-419': 'repetir' },
    description_localizations: { fr: 'Répète un texte' },
    options: [
      {
        type: 3,
        name: 'text',
        description: 'What to say',
        required: true,
        name_localizations: { fr: 'texte' },
        min_length: 1,
        max_length: 50,
      },
      {
        type: 4,
        name: 'count',
        description: 'How often',
        min_value: 1,
        max_value: 10,
        name_localizations: { fr: 'fois' },
      },
      { type: 10, name: 'ratio', description: 'A ratio', min_value: 0, max_value: 1 },
      { type: 5, name: 'loud', description: 'Shout' },
      { type: 6, name: 'who', description: 'A user' },
      { type: 8, name: 'role', description: 'A role' },
      { type: 7, name: 'where', description: 'A channel', channel_types: [0, 4] },
      { type: 9, name: 'anything', description: 'A user or a role' },
      {
        type: 3,
        name: 'colour',
        description: 'A colour',
        choices: [
          { name: 'Red', value: 'red', name_localizations: { fr: 'Rouge' } },
          { name: 'Blue', value: 'blue' },
        ],
      },
    ],
  },
  {
    name: 'config',
    description: 'Configure',
    name_localizations: { fr: 'configurer' },
    options: [
      {
        type: 2,
        name: 'set',
        description: 'Set a value',
        name_localizations: { fr: 'definir' },
        options: [
          {
            type: 1,
            name: 'name',
            description: 'Set the name',
            options: [{ type: 3, name: 'value', description: 'The name', required: true }],
          },
        ],
      },
      { type: 1, name: 'show', description: 'Show the configuration' },
    ],
  },
  { type: 2, name: 'Profile', name_localizations: { fr: 'Profil' } },
  { type: 3, name: 'Quote', name_localizations: { fr: 'Citer' } },
  {
    name: 'search',
    description: 'Search',
    options: [
      {
        type: 3,
        name: 'query',
        description: 'What',
        required: true,
        autocomplete: true,
        name_localizations: { fr: 'requete' },
      },
      { type: 4, name: 'page', description: 'Which page', autocomplete: true, min_value: 1, max_value: 100 },
    ],
  },
];

describe('interactions over signed HTTP, answered by a discord-interactions app', () => {
  let server: TestServer;
  let app: AppServer;
  const commands: Record<string, Json> = {};

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', BASE, { auth: BOT, body: DEFINITIONS });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  /** The client's invocation body for a deployed command, in #general of the test guild. */
  function invocation(
    name: string,
    data: Json = {},
    type = InteractionType.APPLICATION_COMMAND,
    channelId = GENERAL,
  ): Json {
    return invocationBody(commands[name]!, { type, channelId, nonce: `n-${name}`, data });
  }

  /** Invokes, expects acceptance, and returns the accepted body and the interaction the app received. */
  async function invoke(
    auth: string,
    body: Json,
    expectedState?: string,
  ): Promise<{ accepted: Json; interaction: Json }> {
    const before = app.interactions().length;
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, 200, response.text);
    assert.match(response.body.id, SNOWFLAKE);
    assert.equal(response.body.nonce, body.nonce);
    if (expectedState) assert.equal(response.body.state, expectedState);
    const received = app.interactions();
    assert.equal(received.length, before + 1, 'the app received exactly one interaction');
    const interaction = received[received.length - 1]!;
    assert.equal(interaction.id, response.body.id, 'the app received this interaction');
    return { accepted: response.body, interaction };
  }

  async function status(auth: string, id: string): Promise<Json> {
    const response = await server.request('GET', `/interactions/${id}`, { auth });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** The channel as `auth`'s user sees it, every message checked against MessageResponse. */
  async function channelMessages(auth: string, channelId = GENERAL): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${channelId}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    assert.ok(Array.isArray(response.body));
    for (const message of response.body as Json[]) assertMatchesSchema('MessageResponse', message);
    return response.body;
  }

  async function seenBy(auth: string, messageId: string): Promise<Json | undefined> {
    return (await channelMessages(auth)).find((m) => m.id === messageId);
  }

  /** The message of an interaction as its user sees it, with the interaction's metadata. */
  async function assertUserSees(
    auth: string,
    userId: string,
    interaction: Json,
    messageId: string,
    content: string,
  ): Promise<Json> {
    const message = await seenBy(auth, messageId);
    assert.ok(message, `the user sees message ${messageId}`);
    assert.equal(message.content, content);
    assert.equal(message.channel_id, interaction.channel_id);
    assert.equal(message.author.id, DEMO_APP_ID, 'the app wrote it');
    assert.equal(message.application_id, DEMO_APP_ID);
    assert.equal(message.interaction_metadata?.id, interaction.id, 'interaction_metadata names the interaction');
    assert.equal(message.interaction_metadata.type, interaction.type);
    assert.equal(message.interaction_metadata.user.id, userId, 'interaction_metadata names the invoking user');
    assert.deepEqual(message.interaction_metadata.authorizing_integration_owners, { '0': TEST_GUILD_ID });
    return message;
  }

  function assertGuildInteraction(
    interaction: Json,
    expected: { userId: string; locale: string; type: number; command: Json },
  ): void {
    for (const field of GUILD_INTERACTION_FIELDS) assert.ok(field in interaction, `interaction field ${field} present`);
    assert.match(interaction.id, SNOWFLAKE);
    assert.equal(interaction.application_id, DEMO_APP_ID);
    assert.equal(interaction.type, expected.type);
    assert.equal(typeof interaction.token, 'string');
    assert.ok(interaction.token.length > 20, 'an unguessable token');
    assert.equal(interaction.version, 1);
    assert.equal(interaction.guild_id, TEST_GUILD_ID);
    assert.equal(interaction.guild.id, TEST_GUILD_ID, 'a partial guild');
    assert.equal(interaction.channel_id, GENERAL);
    assert.equal(interaction.channel.id, GENERAL, 'a partial channel');
    assert.equal(interaction.channel.type, 0);
    assert.equal(interaction.locale, expected.locale, "the invoking user's locale");
    assert.equal(interaction.guild_locale, 'en-US');
    assert.equal(interaction.context, 0, 'a guild context');
    assert.deepEqual(interaction.authorizing_integration_owners, { '0': TEST_GUILD_ID });
    assert.deepEqual(interaction.entitlements, []);
    assert.match(interaction.app_permissions, /^[0-9]+$/, 'app_permissions is a decimal string');
    assert.equal(interaction.user, undefined, 'in a guild the invoker is a member, not a bare user');
    const member = interaction.member;
    for (const field of MEMBER_FIELDS) assert.ok(field in member, `member field ${field} present`);
    assert.equal(member.user.id, expected.userId);
    assert.ok(Array.isArray(member.roles));
    assert.equal(typeof member.permissions, 'string');
    assert.match(member.permissions, /^[0-9]+$/, 'member.permissions is a decimal string');
    assert.ok(!Number.isNaN(Date.parse(member.joined_at)), 'joined_at is an ISO 8601 timestamp');
    assert.equal(typeof member.pending, 'boolean');
    assert.equal(typeof member.mute, 'boolean');
    assert.equal(typeof member.deaf, 'boolean');
    const data = interaction.data;
    assert.equal(data.id, expected.command.id);
    assert.equal(data.name, expected.command.name, 'the default name, never a localized one');
    assert.equal(data.type, expected.command.type);
    assert.equal(data.guild_id, TEST_GUILD_ID, 'a guild command names its guild');
  }

  test('a slash command with options of every kind reaches the app, which answers inline', async () => {
    app.handle((interaction) => ({
      inline: {
        type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
        data: { content: `echo: ${interaction.data.options[0].value}` },
      },
    }));
    // bob's client is in French: the command and options carry French localizations.
    const options = [
      { name: 'text', type: 3, value: 'bonjour' },
      { name: 'count', type: 4, value: 3 },
      { name: 'ratio', type: 10, value: 0.5 },
      { name: 'loud', type: 5, value: true },
      { name: 'who', type: 6, value: CAROL_ID },
      { name: 'role', type: 8, value: MODERATOR_ROLE },
      { name: 'where', type: 7, value: CATEGORY },
      { name: 'anything', type: 9, value: ALICE_ID },
      { name: 'colour', type: 3, value: 'red' },
    ];
    const { accepted, interaction } = await invoke(BOB, invocation('echo', { options }), 'responded');
    assertGuildInteraction(interaction, {
      userId: BOB_ID,
      locale: 'fr',
      type: InteractionType.APPLICATION_COMMAND,
      command: commands.echo!,
    });

    // Options: default names, the declared types, the values as given.
    assert.deepEqual(interaction.data.options, options);
    assert.equal(interaction.data.target_id, undefined);
    // Resolved: every referenced user (with its member), role and channel.
    const resolved = interaction.data.resolved;
    assert.deepEqual(Object.keys(resolved.users).sort(), [ALICE_ID, CAROL_ID].sort());
    assert.equal(resolved.users[CAROL_ID].username, 'carol');
    assert.deepEqual(
      Object.keys(resolved.members).sort(),
      [ALICE_ID, CAROL_ID].sort(),
      'members of the referenced users',
    );
    for (const member of Object.values<Json>(resolved.members)) {
      assert.equal(member.user, undefined, 'resolved members carry no user');
      assert.ok(!('deaf' in member) && !('mute' in member), 'resolved members carry neither deaf nor mute');
    }
    assert.deepEqual(Object.keys(resolved.roles), [MODERATOR_ROLE]);
    assert.equal(resolved.roles[MODERATOR_ROLE].name, 'Moderator');
    assert.deepEqual(Object.keys(resolved.channels), [CATEGORY]);
    assert.equal(resolved.channels[CATEGORY].type, 4);
    assert.equal(resolved.channels[CATEGORY].name, 'Text');

    const state = await status(BOB, accepted.id);
    assert.equal(state.state, 'responded');
    assert.deepEqual(state.response, { type: 4, data: { content: 'echo: bonjour' } });
    const messages = await channelMessages(BOB);
    const message = messages[0]!;
    assert.equal(message.content, 'echo: bonjour', 'the newest message in the channel is the answer');
    await assertUserSees(BOB, BOB_ID, interaction, message.id, 'echo: bonjour');
    assert.equal(message.interaction_metadata.name, 'echo');
    // Not ephemeral: another member of the channel sees it too.
    assert.ok(await seenBy(CAROL, message.id), 'another user sees a public answer');
  });

  test('a subcommand in a group arrives nested; the app answers through the callback with with_response', async () => {
    app.handle(() => ({
      accepted: true,
      after: (interaction, self) =>
        self.callback(
          interaction,
          { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'name set' } },
          '?with_response=true',
        ),
    }));
    const options = [
      {
        name: 'set',
        type: 2,
        options: [{ name: 'name', type: 1, options: [{ name: 'value', type: 3, value: 'slashd' }] }],
      },
    ];
    const { accepted, interaction } = await invoke(BOB, invocation('config', { options }));
    assert.deepEqual(interaction.data.options, options, 'group → subcommand → option, default names');
    assert.equal(interaction.data.name, 'config');
    assert.equal(interaction.data.resolved, undefined, 'nothing to resolve');

    const [callback] = (await app.idle()).slice(-1) as [{ status: number; body: Json }];
    assert.equal(callback.status, 200, 'with_response: 200 with the callback response');
    assertMatchesSchema('InteractionCallbackResponse', callback.body);
    assert.equal(callback.body.interaction.id, interaction.id);
    assert.equal(callback.body.interaction.type, 2);
    assert.equal(callback.body.interaction.response_message_ephemeral, false);
    assert.equal(callback.body.interaction.response_message_loading, false);
    assert.equal(callback.body.resource.type, 4);
    assertMatchesSchema('MessageResponse', callback.body.resource.message);
    assert.equal(callback.body.resource.message.content, 'name set');
    assert.equal(callback.body.interaction.response_message_id, callback.body.resource.message.id);

    assert.equal((await status(BOB, accepted.id)).state, 'responded');
    await assertUserSees(BOB, BOB_ID, interaction, callback.body.resource.message.id, 'name set');
  });

  test('a subcommand without options, answered through the callback without with_response (204)', async () => {
    app.handle(() => ({
      accepted: true,
      after: (interaction, self) => self.callback(interaction, { type: 4, data: { content: 'config: default' } }),
    }));
    const { accepted, interaction } = await invoke(
      ALICE,
      invocation('config', { options: [{ name: 'show', type: 1 }] }),
    );
    assert.equal(interaction.data.options.length, 1);
    const [show] = interaction.data.options;
    assert.equal(show.name, 'show');
    assert.equal(show.type, 1);
    assert.equal(show.value, undefined, 'a subcommand carries no value');
    assert.ok(
      show.options === undefined || (Array.isArray(show.options) && show.options.length === 0),
      'and no options',
    );
    const [callback] = (await app.idle()).slice(-1) as [{ status: number; text: string }];
    assert.equal(callback.status, 204);
    assert.equal(callback.text, '');
    const state = await status(ALICE, accepted.id);
    assert.equal(state.state, 'responded');
    assert.equal(state.response.data.content, 'config: default');
    assert.equal((await channelMessages(ALICE))[0]!.content, 'config: default');
  });

  test('a USER command carries target_id and the target as resolved user and member', async () => {
    app.handle((interaction) => ({
      inline: {
        type: 4,
        data: { content: `profile of ${interaction.data.resolved.users[interaction.data.target_id].username}` },
      },
    }));
    const { interaction } = await invoke(ALICE, invocation('Profile', { target_id: BOB_ID }), 'responded');
    assertGuildInteraction(interaction, { userId: ALICE_ID, locale: 'en-US', type: 2, command: commands.Profile! });
    assert.equal(interaction.data.type, 2);
    assert.equal(interaction.data.name, 'Profile');
    assert.equal(interaction.data.target_id, BOB_ID);
    assert.equal(interaction.data.options, undefined, 'USER commands take no options');
    const { users, members } = interaction.data.resolved;
    assert.deepEqual(Object.keys(users), [BOB_ID]);
    assert.equal(users[BOB_ID].username, 'bob');
    assert.deepEqual(Object.keys(members), [BOB_ID]);
    assert.equal(members[BOB_ID].nick, 'Bobby');
    assert.deepEqual(members[BOB_ID].roles, [MODERATOR_ROLE]);
    const message = (await channelMessages(ALICE))[0]!;
    await assertUserSees(ALICE, ALICE_ID, interaction, message.id, 'profile of bob');
    assert.equal(message.interaction_metadata.command_type, 2);
  });

  test('a MESSAGE command carries target_id and the message as resolved', async () => {
    app.handle((interaction) => ({
      inline: {
        type: 4,
        data: { content: `> ${interaction.data.resolved.messages[interaction.data.target_id].content}` },
      },
    }));
    const { interaction } = await invoke(CAROL, invocation('Quote', { target_id: HELLO_MESSAGE }), 'responded');
    assertGuildInteraction(interaction, { userId: CAROL_ID, locale: 'es-419', type: 2, command: commands.Quote! });
    assert.equal(interaction.data.type, 3);
    assert.equal(interaction.data.target_id, HELLO_MESSAGE);
    const { messages } = interaction.data.resolved;
    assert.deepEqual(Object.keys(messages), [HELLO_MESSAGE]);
    assert.equal(messages[HELLO_MESSAGE].content, 'hello world');
    assert.equal(messages[HELLO_MESSAGE].channel_id, GENERAL);
    assert.equal(messages[HELLO_MESSAGE].author.id, CAROL_ID);
    const message = (await channelMessages(CAROL))[0]!;
    await assertUserSees(CAROL, CAROL_ID, interaction, message.id, '> hello world');
  });

  test('an autocomplete request: type 4, the focused partial input, answered with type 8 choices', async () => {
    app.handle((interaction) => {
      const focused = interaction.data.options.find((o: Json) => o.focused);
      return {
        inline: {
          type: InteractionResponseType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
          data: {
            choices: [
              { name: `${focused.value}cat`, value: `${focused.value}cat` },
              { name: `${focused.value}dog`, value: `${focused.value}dog` },
            ],
          },
        },
      };
    });
    const messagesBefore = (await channelMessages(BOB)).length;
    // The required option is being typed; the optional one is not filled yet.
    const options = [{ name: 'query', type: 3, value: 'ho', focused: true }];
    const { accepted, interaction } = await invoke(
      BOB,
      invocation('search', { options }, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE),
      'responded',
    );
    assertGuildInteraction(interaction, { userId: BOB_ID, locale: 'fr', type: 4, command: commands.search! });
    assert.deepEqual(interaction.data.options, [{ name: 'query', type: 3, value: 'ho', focused: true }]);

    const state = await status(BOB, accepted.id);
    assert.equal(state.state, 'responded');
    assert.equal(state.response.type, 8);
    assert.deepEqual(
      state.response.data.choices.map((c: Json) => ({ name: c.name, value: c.value })),
      [
        { name: 'hocat', value: 'hocat' },
        { name: 'hodog', value: 'hodog' },
      ],
    );
    assert.equal((await channelMessages(BOB)).length, messagesBefore, 'autocomplete posts no message');
  });

  test('autocomplete of an INTEGER option with a filled option beside it', async () => {
    app.handle(() => ({
      inline: {
        type: 8,
        data: {
          choices: [
            { name: 'page 1', value: 1 },
            { name: 'page 12', value: 12 },
          ],
        },
      },
    }));
    // The client sends the digits typed so far; v10 delivers a focused number as that text.
    const options = [
      { name: 'query', type: 3, value: 'cats' },
      { name: 'page', type: 4, value: '1', focused: true },
    ];
    const { accepted, interaction } = await invoke(ALICE, invocation('search', { options }, 4), 'responded');
    assert.deepEqual(interaction.data.options, options, 'only the option being typed is focused');
    const choices = (await status(ALICE, accepted.id)).response.data.choices as Json[];
    assert.deepEqual(
      choices.map((c) => c.value),
      [1, 12],
      'INTEGER choices keep their numbers',
    );
  });

  test('the app defers (type 5), the user sees it loading, then the app edits @original', async () => {
    app.handle(() => ({ inline: { type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE } }));
    const { accepted, interaction } = await invoke(
      BOB,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'later' }] }),
      'acknowledged',
    );
    assert.equal((await status(BOB, accepted.id)).state, 'acknowledged');
    const loading = (await channelMessages(BOB))[0]!;
    assert.equal(loading.interaction_metadata.id, interaction.id);
    assert.equal(loading.flags & LOADING, LOADING, 'the deferred message is loading');

    const original = await app.call('GET', `/webhooks/${DEMO_APP_ID}/${interaction.token}/messages/@original`);
    assert.equal(original.status, 200, original.text);
    assert.equal(original.body?.id, loading.id, '@original is the deferred message');

    const edited = await app.call('PATCH', `/webhooks/${DEMO_APP_ID}/${interaction.token}/messages/@original`, {
      content: 'done: later',
    });
    assert.equal(edited.status, 200, edited.text);
    assertMatchesSchema('MessageResponse', edited.body);
    assert.equal(edited.body!.id, loading.id);
    assert.equal(edited.body!.content, 'done: later');
    assert.equal(edited.body!.flags & LOADING, 0, 'no longer loading');

    const seen = await assertUserSees(BOB, BOB_ID, interaction, loading.id, 'done: later');
    assert.equal(seen.flags & LOADING, 0);
    assert.equal((await status(BOB, accepted.id)).state, 'responded');
  });

  test('follow-ups: posted, read back, edited and deleted through the interaction webhook', async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'first' } } }));
    const { interaction } = await invoke(
      ALICE,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'x' }] }),
      'responded',
    );
    const hook = `/webhooks/${DEMO_APP_ID}/${interaction.token}`;

    const followUp = await app.call('POST', hook, { content: 'second' });
    assert.equal(followUp.status, 200, followUp.text);
    assertMatchesSchema('MessageResponse', followUp.body);
    assert.equal(followUp.body!.content, 'second');
    assert.equal(followUp.body!.interaction_metadata.id, interaction.id);
    const id = followUp.body!.id as string;

    const read = await app.call('GET', `${hook}/messages/${id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body!.content, 'second');

    const messages = await channelMessages(ALICE);
    assert.deepEqual(
      messages.slice(0, 2).map((m) => m.content),
      ['second', 'first'],
      'newest first',
    );
    await assertUserSees(ALICE, ALICE_ID, interaction, id, 'second');
    assert.ok(await seenBy(CAROL, id), 'a public follow-up is seen by others');

    const edited = await app.call('PATCH', `${hook}/messages/${id}`, { content: 'second, edited' });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(typeof edited.body!.edited_timestamp, 'string', 'an edit has a timestamp');
    assert.equal((await seenBy(ALICE, id))?.content, 'second, edited');

    const deleted = await app.call('DELETE', `${hook}/messages/${id}`);
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(await seenBy(ALICE, id), undefined, 'a deleted follow-up is gone');
    const gone = await app.call('GET', `${hook}/messages/${id}`);
    assert.equal(gone.status, 404);
    assertErrorBody(404, gone.body);
    assert.equal(gone.body!.code, 10008);

    // The world's message is not this interaction's: its token does not reach it.
    const foreign = await app.call('PATCH', `${hook}/messages/${HELLO_MESSAGE}`, { content: 'hijacked' });
    assert.equal(foreign.status, 404);
    assert.equal((await seenBy(ALICE, HELLO_MESSAGE))?.content, 'hello world');
  });

  test('an ephemeral reply and an ephemeral follow-up are seen by the invoking user only', async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'only for you', flags: EPHEMERAL } } }));
    const { interaction } = await invoke(
      BOB,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'secret' }] }),
      'responded',
    );
    const reply = (await channelMessages(BOB))[0]!;
    await assertUserSees(BOB, BOB_ID, interaction, reply.id, 'only for you');
    assert.equal(reply.flags & EPHEMERAL, EPHEMERAL);
    assert.equal(await seenBy(CAROL, reply.id), undefined, 'carol does not see the ephemeral reply');
    assert.equal(await seenBy(ALICE, reply.id), undefined, 'nor does alice, the owner');

    const followUp = await app.call('POST', `/webhooks/${DEMO_APP_ID}/${interaction.token}`, {
      content: 'psst',
      flags: EPHEMERAL,
    });
    assert.equal(followUp.status, 200, followUp.text);
    assert.equal(followUp.body!.flags & EPHEMERAL, EPHEMERAL);
    await assertUserSees(BOB, BOB_ID, interaction, followUp.body!.id, 'psst');
    assert.equal(await seenBy(CAROL, followUp.body!.id), undefined, 'carol does not see the ephemeral follow-up');
  });

  test('an ephemeral reply through the callback: with_response says it is ephemeral', async () => {
    app.handle(() => ({
      accepted: true,
      after: (interaction, self) =>
        self.callback(interaction, { type: 4, data: { content: 'hidden', flags: EPHEMERAL } }, '?with_response=1'),
    }));
    const { interaction } = await invoke(ALICE, invocation('config', { options: [{ name: 'show', type: 1 }] }));
    const [callback] = (await app.idle()).slice(-1) as [{ status: number; body: Json }];
    assert.equal(callback.status, 200);
    assertMatchesSchema('InteractionCallbackResponse', callback.body);
    assert.equal(callback.body.interaction.response_message_ephemeral, true);
    const id = callback.body.resource.message.id;
    await assertUserSees(ALICE, ALICE_ID, interaction, id, 'hidden');
    assert.equal(await seenBy(BOB, id), undefined, 'bob does not see it');
  });

  test('an ephemeral deferred answer stays ephemeral when @original is edited', async () => {
    app.handle(() => ({ inline: { type: 5, data: { flags: EPHEMERAL } } }));
    const { interaction } = await invoke(
      CAROL,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'q' }] }),
      'acknowledged',
    );
    const edited = await app.call('PATCH', `/webhooks/${DEMO_APP_ID}/${interaction.token}/messages/@original`, {
      content: 'quiet result',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body!.flags & EPHEMERAL, EPHEMERAL);
    await assertUserSees(CAROL, CAROL_ID, interaction, edited.body!.id, 'quiet result');
    assert.equal(await seenBy(BOB, edited.body!.id), undefined, 'bob does not see it');
  });

  test('only the invoking user reads the interaction state', async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'mine' } } }));
    const { accepted } = await invoke(
      ALICE,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 'm' }] }),
      'responded',
    );
    const other = await server.request('GET', `/interactions/${accepted.id}`, { auth: BOB });
    assert.equal(other.status, 404);
    assertErrorBody(404, other.body);
    assert.equal(other.body.code, 10062);
  });

  // Last but one: it fills #general with a hundred messages.
  test("a MESSAGE command on an app's own answer, even one with a hundred newer messages above it", async () => {
    app.handle(() => ({ inline: { type: 4, data: { content: 'the target' } } }));
    const { interaction: first } = await invoke(
      ALICE,
      invocation('echo', { options: [{ name: 'text', type: 3, value: 't' }] }),
      'responded',
    );
    const target = (await channelMessages(ALICE))[0]!;
    assert.equal(target.interaction_metadata.id, first.id);
    for (let i = 0; i < 100; i++) {
      const followUp = await app.call('POST', `/webhooks/${DEMO_APP_ID}/${first.token}`, { content: `filler ${i}` });
      assert.equal(followUp.status, 200, followUp.text);
    }
    app.handle((interaction) => ({
      inline: {
        type: 4,
        data: { content: `quoted: ${interaction.data.resolved.messages[interaction.data.target_id].content}` },
      },
    }));
    const { interaction } = await invoke(BOB, invocation('Quote', { target_id: target.id }), 'responded');
    assert.equal(interaction.data.target_id, target.id);
    const resolved = interaction.data.resolved.messages[target.id];
    assert.equal(resolved.content, 'the target');
    assert.equal(resolved.author.id, DEMO_APP_ID);
    assert.equal(resolved.interaction_metadata?.id, first.id, 'the resolved message is a full message object');
    assert.equal((await channelMessages(BOB))[0]!.content, 'quoted: the target');
  });

  test('every request the app received was signed, and every interaction verified', () => {
    assert.ok(app.interactions().length >= 10);
    assertOnlySignedTraffic(app);
    for (const request of app.received) {
      assert.match(String(request.headers['x-signature-ed25519']), /^[0-9a-f]{128}$/);
      assert.match(String(request.headers['x-signature-timestamp']), /^[0-9]+$/);
    }
  });
});
