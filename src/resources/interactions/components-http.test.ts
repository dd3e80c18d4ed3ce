/**
 * Components and modals over signed HTTP ("Must show"), with a real app built on
 * discord-interactions: the app answers a command with buttons and a select; the user clicks
 * (type 3) and the app's UPDATE_MESSAGE (7) changes the message read back from the channel; a
 * select sends its values; a button opens a modal (9) that `GET /interactions/{id}` shows, the
 * user submits it (type 5) and the app's reply is readable. Every refusal reaches no app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InteractionResponseType, InteractionType } from 'discord-interactions';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOB_TOKEN as BOB,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  MODERATOR_ROLE,
  OTHER_APP_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import * as codes from '../../core/io/codes.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const EPHEMERAL = 1 << 6;

/** The panel the app answers `/panel` with: every kind of component a click is checked against. */
const PANEL_COMPONENTS: Json[] = [
  {
    type: 1,
    components: [
      { type: 2, style: 1, label: 'OK', custom_id: 'ok' },
      { type: 2, style: 2, label: 'Off', custom_id: 'off', disabled: true },
      { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
      { type: 2, style: 3, label: 'Form', custom_id: 'form' },
      { type: 2, style: 2, label: 'Later', custom_id: 'later' },
    ],
  },
  {
    type: 1,
    components: [
      {
        type: 3,
        custom_id: 'pick',
        min_values: 1,
        max_values: 2,
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
          { label: 'C', value: 'c' },
        ],
      },
    ],
  },
  { type: 1, components: [{ type: 5, custom_id: 'who', max_values: 2 }] },
  { type: 1, components: [{ type: 6, custom_id: 'role' }] },
];

const FEEDBACK_MODAL: Json = {
  custom_id: 'feedback',
  title: 'Feedback',
  components: [
    { type: 1, components: [{ type: 4, custom_id: 'topic', style: 1, label: 'Topic', max_length: 20 }] },
    { type: 1, components: [{ type: 4, custom_id: 'details', style: 2, label: 'Details', required: false }] },
  ],
};

describe('components and modals over signed HTTP, answered by a discord-interactions app', () => {
  let server: TestServer;
  let app: AppServer;
  let panel: Json;
  let panelId: string;

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [
        { name: 'panel', description: 'A panel of components' },
        { name: 'secret', description: 'An ephemeral panel' },
        { name: 'ask', description: 'Opens a modal' },
      ],
    });
    assert.equal(deployed.status, 200, deployed.text);
    panel = Object.fromEntries((deployed.body as Json[]).map((c: Json) => [c.name, c]));
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
    panelId = await postPanel();
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function invokeCommand(name: string, auth = ALICE): Promise<Json> {
    const command = panel[name];
    const response = await server.request('POST', '/interactions', {
      auth,
      body: invocationBody(command),
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** Alice's `/panel`, answered by the app with the panel; the id of the message holding it. */
  async function postPanel(flags = 0, name = 'panel'): Promise<string> {
    app.handle(() => ({
      inline: {
        type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
        data: { content: 'Panel', components: PANEL_COMPONENTS, flags },
      },
    }));
    const accepted = await invokeCommand(name);
    assert.equal(accepted.state, 'responded');
    const message = (await channelMessages(ALICE)).find((m) => m.interaction_metadata?.id === accepted.id);
    assert.ok(message, 'the panel is in the channel');
    return message.id;
  }

  async function channelMessages(auth: string): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    for (const message of response.body as Json[]) assertMatchesSchema('MessageResponse', message);
    return response.body;
  }

  async function messageSeenBy(auth: string, id: string): Promise<Json | undefined> {
    return (await channelMessages(auth)).find((m) => m.id === id);
  }

  /** The panel as v10 stores it: the app's components, each with a numeric id, selects with min/max_values. */
  function assertStoredPanel(components: Json[]): void {
    const ids: number[] = [];
    const strip = (node: Json): Json => {
      assert.equal(typeof node.id, 'number', `component ${JSON.stringify(node)} has an id`);
      ids.push(node.id);
      const { id: _id, ...rest } = node;
      if (Array.isArray(rest.components)) rest.components = rest.components.map(strip);
      return rest;
    };
    const stripped = components.map(strip);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    const expected = structuredClone(PANEL_COMPONENTS);
    for (const row of expected) {
      for (const c of row.components)
        if (c.type !== 2) Object.assign(c, { min_values: c.min_values ?? 1, max_values: c.max_values ?? 1 });
    }
    assert.deepEqual(stripped, expected);
  }

  function click(data: Json, messageId = panelId, extra: Json = {}): Json {
    return {
      type: 3,
      application_id: DEMO_APP_ID,
      guild_id: TEST_GUILD_ID,
      channel_id: GENERAL,
      message_id: messageId,
      data,
      ...extra,
    };
  }

  function submit(customId: string, fields: [string, string][], extra: Json = {}): Json {
    return {
      type: 5,
      application_id: DEMO_APP_ID,
      guild_id: TEST_GUILD_ID,
      channel_id: GENERAL,
      data: {
        custom_id: customId,
        components: fields.map(([id, value]) => ({ type: 1, components: [{ type: 4, custom_id: id, value }] })),
      },
      ...extra,
    };
  }

  /** Sends an interaction the app must receive; returns the accepted body and what the app got. */
  async function send(auth: string, body: Json): Promise<{ accepted: Json; interaction: Json }> {
    const before = app.interactions().length;
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, 200, response.text);
    const received = app.interactions();
    assert.equal(received.length, before + 1, 'the app received exactly one interaction');
    const interaction = received[received.length - 1]!;
    assert.equal(interaction.id, response.body.id);
    return { accepted: response.body, interaction };
  }

  /** A body that must be refused with 50035 at `path` with `code`, and reach no app. */
  async function assertRefused(auth: string, body: Json, path: (string | number)[], code: string): Promise<void> {
    const before = app.interactions().length;
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.code, 50035);
    let node: Json = response.body.errors;
    for (const key of path) {
      node = node?.[key];
      assert.ok(node, `an error at ${path.join('.')}: ${response.text}`);
    }
    assert.equal(node._errors?.[0]?.code, code, response.text);
    assert.equal(app.interactions().length, before, 'the app received nothing');
  }

  test('a click (type 3) reaches the app with the message; UPDATE_MESSAGE (7) edits it', async () => {
    app.handle((interaction) => ({
      inline: {
        type: InteractionResponseType.UPDATE_MESSAGE,
        data: { content: `clicked ${interaction.data.custom_id} by ${interaction.member.user.username}` },
      },
    }));
    const { accepted, interaction } = await send(ALICE, click({ custom_id: 'ok', component_type: 2 }));
    assert.equal(accepted.state, 'responded');
    assert.equal(interaction.type, InteractionType.MESSAGE_COMPONENT);
    assert.deepEqual(interaction.data, { custom_id: 'ok', component_type: 2 });
    assert.equal(interaction.message.id, panelId, 'the message holding the component');
    assert.equal(interaction.message.content, 'Panel');
    assertStoredPanel(interaction.message.components);
    assert.equal(interaction.member.user.id, ALICE_ID);
    assert.equal(interaction.channel_id, GENERAL);
    assert.equal(interaction.guild_id, TEST_GUILD_ID);
    assertMatchesSchema('MessageResponse', interaction.message);

    const message = await messageSeenBy(BOB, panelId);
    assert.ok(message, 'everyone in the channel sees the updated message');
    assert.equal(message.content, 'clicked ok by alice');
    assertStoredPanel(message.components);
    assert.ok(message.edited_timestamp, 'the update is an edit');

    const status = await server.request('GET', `/interactions/${accepted.id}`, { auth: ALICE });
    assert.equal(status.body.response.type, InteractionResponseType.UPDATE_MESSAGE);
  });

  test('a string select sends its values; a user select resolves its users', async () => {
    app.handle((interaction) => ({
      inline: {
        type: InteractionResponseType.UPDATE_MESSAGE,
        data: { content: `picked ${(interaction.data.values as string[]).join(',')}` },
      },
    }));
    const picked = await send(ALICE, click({ custom_id: 'pick', component_type: 3, values: ['a', 'c'] }));
    assert.deepEqual(picked.interaction.data.values, ['a', 'c']);
    assert.equal(picked.interaction.data.component_type, 3);
    assert.equal((await messageSeenBy(ALICE, panelId))?.content, 'picked a,c');

    const who = await send(ALICE, click({ custom_id: 'who', component_type: 5, values: [ALICE_ID] }));
    assert.deepEqual(who.interaction.data.values, [ALICE_ID]);
    assert.equal(who.interaction.data.resolved.users[ALICE_ID].username, 'alice');
    assert.ok(who.interaction.data.resolved.members[ALICE_ID], 'a member of the guild resolves as a member too');
    const role = await send(ALICE, click({ custom_id: 'role', component_type: 6, values: [MODERATOR_ROLE] }));
    assert.equal(role.interaction.data.resolved.roles[MODERATOR_ROLE].name, 'Moderator');
  });

  test('refusals: unknown, disabled, link, wrong type, values that do not fit, another app', async () => {
    await assertRefused(
      ALICE,
      click({ custom_id: 'nope', component_type: 2 }),
      ['data', 'custom_id'],
      codes.INTERACTION_COMPONENT_UNKNOWN,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'off', component_type: 2 }),
      ['data', 'custom_id'],
      codes.INTERACTION_COMPONENT_DISABLED,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'ok', component_type: 3, values: ['a'] }),
      ['data', 'component_type'],
      codes.INTERACTION_COMPONENT_TYPE_MISMATCH,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'pick', component_type: 3, values: ['z'] }),
      ['data', 'values', 0],
      codes.INTERACTION_SELECT_VALUE_INVALID,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'pick', component_type: 3, values: ['a', 'b', 'c'] }),
      ['data', 'values'],
      codes.BASE_TYPE_BAD_LENGTH,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'pick', component_type: 3, values: ['a', 'a'] }),
      ['data', 'values', 1],
      codes.LIST_TYPE_DUPLICATE_VALUE,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'who', component_type: 5, values: ['1335036896870400999'] }),
      ['data', 'values', 0],
      codes.INTERACTION_UNKNOWN_USER,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'ok', component_type: 2, values: ['a'] }),
      ['data', 'values'],
      codes.INTERACTION_COMPONENT_VALUES_NOT_ALLOWED,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'ok', component_type: 2 }, panelId, { application_id: OTHER_APP_ID }),
      ['message_id'],
      codes.INTERACTION_UNKNOWN_MESSAGE,
    );
    await assertRefused(
      ALICE,
      click({ custom_id: 'ok', component_type: 2 }, '1345183757107209999'),
      ['message_id'],
      codes.INTERACTION_UNKNOWN_MESSAGE,
    );
    await assertRefused(ALICE, click({ component_type: 2 }), ['data', 'custom_id'], codes.BASE_TYPE_REQUIRED);
  });

  test('only the user who sees an ephemeral message may click it', async () => {
    const ephemeralPanel = await postPanel(EPHEMERAL, 'secret');
    await assertRefused(
      BOB,
      click({ custom_id: 'ok', component_type: 2 }, ephemeralPanel),
      ['message_id'],
      codes.INTERACTION_UNKNOWN_MESSAGE,
    );
    app.handle(() => ({ inline: { type: InteractionResponseType.UPDATE_MESSAGE, data: { content: 'mine' } } }));
    await send(ALICE, click({ custom_id: 'ok', component_type: 2 }, ephemeralPanel));
    assert.equal((await messageSeenBy(ALICE, ephemeralPanel))?.content, 'mine');
    assert.equal(await messageSeenBy(BOB, ephemeralPanel), undefined, 'still hidden from bob');
  });

  test('DEFERRED_UPDATE_MESSAGE (6), then editing @original edits the message holding the component', async () => {
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        const deferred = await self.callback(interaction, { type: InteractionResponseType.DEFERRED_UPDATE_MESSAGE });
        assert.equal(deferred.status, 204, deferred.text);
        const original = await self.call('GET', `/webhooks/${DEMO_APP_ID}/${interaction.token}/messages/@original`);
        assert.equal(original.status, 200, original.text);
        assert.equal(original.body?.id, panelId, '@original is the message holding the component');
        const edited = await self.call('PATCH', `/webhooks/${DEMO_APP_ID}/${interaction.token}/messages/@original`, {
          content: 'done later',
        });
        assert.equal(edited.status, 200, edited.text);
      },
    }));
    const { accepted } = await send(ALICE, click({ custom_id: 'later', component_type: 2 }));
    await app.idle();
    assert.equal((await messageSeenBy(ALICE, panelId))?.content, 'done later');
    const status = await server.request('GET', `/interactions/${accepted.id}`, { auth: ALICE });
    assert.equal(status.body.state, 'responded', 'editing @original after 6 completes the answer');
  });

  test("a button on a message the bot posted itself (REST) is clicked like an answer's", async () => {
    const posted = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'Posted', components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'p' }] }] },
    });
    assert.equal(posted.status, 200, posted.text);
    app.handle(() => ({
      inline: { type: InteractionResponseType.UPDATE_MESSAGE, data: { content: 'Posted, clicked' } },
    }));
    const { interaction } = await send(BOB, click({ custom_id: 'p', component_type: 2 }, posted.body.id));
    assert.equal(interaction.message.author.id, DEMO_APP_ID);
    assert.equal((await messageSeenBy(ALICE, posted.body.id))?.content, 'Posted, clicked');
    await assertRefused(
      BOB,
      click({ custom_id: 'p', component_type: 2 }, posted.body.id, { application_id: OTHER_APP_ID }),
      ['message_id'],
      codes.INTERACTION_UNKNOWN_MESSAGE,
    );
  });

  test('6 and 7 do not answer a command', async () => {
    const results: Json[] = [];
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        results.push(await self.callback(interaction, { type: InteractionResponseType.UPDATE_MESSAGE, data: {} }));
        results.push(await self.callback(interaction, { type: InteractionResponseType.DEFERRED_UPDATE_MESSAGE }));
        await self.callback(interaction, { type: 4, data: { content: 'fine' } });
      },
    }));
    await invokeCommand('panel');
    await app.idle();
    for (const result of results) {
      assert.equal(result.status, 400, result.text);
      assert.equal(result.body?.errors?.type?._errors?.[0]?.code, codes.INTERACTION_CALLBACK_TYPE_INVALID);
    }
  });

  test('a button opens a modal (9); the user submits it (5) once; the reply is readable', async () => {
    app.handle(() => ({ inline: { type: InteractionResponseType.MODAL, data: FEEDBACK_MODAL } }));
    const opened = await send(ALICE, click({ custom_id: 'form', component_type: 2 }));
    const status = await server.request('GET', `/interactions/${opened.accepted.id}`, { auth: ALICE });
    assert.equal(status.body.response.type, InteractionResponseType.MODAL);
    assert.deepEqual(status.body.response.data, FEEDBACK_MODAL, 'the modal as the app sent it');

    // Another user cannot submit alice's modal; nor can alice submit what the modal does not take.
    await assertRefused(
      BOB,
      submit('feedback', [['topic', 'x']]),
      ['data', 'custom_id'],
      codes.INTERACTION_MODAL_UNKNOWN,
    );
    await assertRefused(
      ALICE,
      submit('feedback', [['details', 'no topic']]),
      ['data', 'components'],
      codes.INTERACTION_MODAL_FIELD_REQUIRED,
    );
    await assertRefused(
      ALICE,
      submit('feedback', [
        ['topic', 'x'],
        ['extra', 'y'],
      ]),
      ['data', 'components', 1, 'components', 0, 'custom_id'],
      codes.INTERACTION_MODAL_FIELD_UNKNOWN,
    );
    await assertRefused(
      ALICE,
      submit('feedback', [['topic', 'x'.repeat(21)]]),
      ['data', 'components', 0, 'components', 0, 'value'],
      codes.BASE_TYPE_MAX_LENGTH,
    );

    const results: Json[] = [];
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        results.push(await self.callback(interaction, { type: InteractionResponseType.MODAL, data: FEEDBACK_MODAL }));
        results.push(
          await self.callback(interaction, {
            type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
            data: { content: `thanks for ${interaction.data.components[0].components[0].value}` },
          }),
        );
      },
    }));
    const submitted = await send(ALICE, submit('feedback', [['topic', 'the docs']]));
    await app.idle();
    const interaction = submitted.interaction;
    assert.equal(interaction.type, InteractionType.MODAL_SUBMIT);
    assert.equal(interaction.data.custom_id, 'feedback');
    assert.deepEqual(interaction.data.components, [
      { type: 1, components: [{ type: 4, custom_id: 'topic', value: 'the docs' }] },
      { type: 1, components: [{ type: 4, custom_id: 'details', value: '' }] },
    ]);
    assert.equal(interaction.message?.id, panelId, 'a modal opened from a component comes with its message');
    assert.equal(results[0]!.status, 400, 'a modal does not answer a modal submission');
    assert.equal(results[0]!.body?.errors?.type?._errors?.[0]?.code, codes.INTERACTION_CALLBACK_TYPE_INVALID);
    assert.equal(results[1]!.status, 204, results[1]!.text);

    const reply = (await channelMessages(ALICE)).find((m) => m.interaction_metadata?.id === submitted.accepted.id);
    assert.ok(reply, 'the reply is in the channel');
    assert.equal(reply.content, 'thanks for the docs');
    assert.equal(reply.interaction_metadata.type, InteractionType.MODAL_SUBMIT);
    assert.equal(reply.interaction_metadata.triggering_interaction_metadata?.id, opened.accepted.id);

    await assertRefused(
      ALICE,
      submit('feedback', [['topic', 'again']]),
      ['data', 'custom_id'],
      codes.INTERACTION_MODAL_UNKNOWN,
    );
  });

  test('a modal opened by a command: no message, so 7 does not answer its submission', async () => {
    app.handle(() => ({
      inline: { type: InteractionResponseType.MODAL, data: { ...FEEDBACK_MODAL, custom_id: 'q' } },
    }));
    await invokeCommand('ask');
    const results: Json[] = [];
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        results.push(await self.callback(interaction, { type: InteractionResponseType.UPDATE_MESSAGE, data: {} }));
        results.push(await self.callback(interaction, { type: 4, data: { content: 'noted' } }));
      },
    }));
    const { interaction } = await send(ALICE, submit('q', [['topic', 'cmd']]));
    await app.idle();
    assert.equal(interaction.message, undefined);
    assert.equal(results[0]!.status, 400, results[0]!.text);
    assert.equal(results[1]!.status, 204, results[1]!.text);
  });
});
