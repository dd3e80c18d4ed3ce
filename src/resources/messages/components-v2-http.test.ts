/**
 * Components V2 on every route that takes a message body, over signed HTTP with a real app built
 * on discord-interactions: the answer (4) is read back as v10's MessageResponse (OpenAPI schema);
 * follow-ups and `@original` edits follow the same rules (a missing `attachment://` file, a dropped
 * flag, content on a v2 message are each refused with their 50035 path); a bot's channel message
 * too. Every refusal leaves the message as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InteractionResponseType } from 'discord-interactions';
import { startRegisteredApp, type AppServer } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

const V2 = 1 << 15;

const CARD: Json[] = [
  {
    type: 17,
    accent_color: 0xeb459e,
    components: [
      { type: 10, content: 'A card' },
      {
        type: 9,
        components: [{ type: 10, content: 'with a section' }],
        accessory: { type: 2, style: 1, label: 'Go', custom_id: 'go' },
      },
      { type: 14 },
    ],
  },
];

/** The `errors` tree of a refusal, with its status and code checked. */
function errorsOf(response: { status: number; body: Json; text: string }): Json {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.code, 50035, response.text);
  return response.body.errors;
}

describe('Components V2 on every route that takes a message', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'card', description: 'A components v2 card' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0];
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function read(id: string): Promise<Json> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** The codes of a 50035 tree by path, e.g. `components.0.file.url`. */
  function codesOf(errors: Json, prefix = ''): [string, string][] {
    return Object.entries(errors as Record<string, Json>).flatMap(([key, value]) =>
      key === '_errors'
        ? (value as Json[]).map((e): [string, string] => [prefix.slice(0, -1), e.code])
        : codesOf(value, `${prefix}${key}.`),
    );
  }

  test('the answer (4) is a v10 MessageResponse with the flag and its components', async () => {
    app.handle(() => ({
      inline: { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { flags: V2, components: CARD } },
    }));
    const response = await server.request('POST', '/interactions', { auth: ALICE, body: invocationBody(command) });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'responded');
    const messages = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: ALICE });
    const card = (messages.body as Json[]).find((m) => m.interaction_metadata?.id === response.body.id);
    assert.ok(card, 'the card is in the channel');
    assertMatchesSchema('MessageResponse', card);
    assert.equal(card.flags, V2);
    assert.deepEqual(
      [
        card.components[0].accent_color,
        card.components[0].components[2].spacing,
        card.components[0].components[2].divider,
      ],
      [0xeb459e, 1, true],
    );
  });

  test('follow-ups and @original edits take the same rules; each refusal names its path', async () => {
    const outcomes: Record<string, Json> = {};
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        const hook = `/webhooks/${DEMO_APP_ID}/${interaction.token}`;
        await self.callback(interaction, {
          type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
          data: { flags: V2, components: CARD },
        });
        const missing = await self.call('POST', hook, {
          flags: V2,
          components: [{ type: 13, file: { url: 'attachment://missing.txt' } }],
        });
        outcomes.missing = codesOf(errorsOf(missing));
        const followUp = await self.call('POST', hook, { flags: V2, components: [{ type: 10, content: 'follow-up' }] });
        assert.equal(followUp.status, 200, followUp.text);
        outcomes.followUp = followUp.body;
        const dropped = await self.call('PATCH', `${hook}/messages/@original`, { flags: 0 });
        outcomes.dropped = codesOf(errorsOf(dropped));
        const legacy = await self.call('PATCH', `${hook}/messages/${outcomes.followUp.id}`, { content: 'plain' });
        outcomes.legacy = codesOf(errorsOf(legacy));
        const edited = await self.call('PATCH', `${hook}/messages/@original`, {
          components: [{ type: 17, components: [{ type: 10, content: 'edited without repeating the flag' }] }],
        });
        assert.equal(edited.status, 200, edited.text);
        outcomes.edited = edited.body;
      },
    }));
    const response = await server.request('POST', '/interactions', { auth: ALICE, body: invocationBody(command) });
    assert.equal(response.status, 200, response.text);
    await app.idle();
    assert.deepEqual(outcomes.missing, [
      ['components.0.file.url', 'UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND'],
    ]);
    assert.deepEqual(outcomes.dropped, [['flags', 'MESSAGE_FLAGS_INVALID']]);
    assert.deepEqual(outcomes.legacy, [['content', 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2']]);
    const followUp = await read(outcomes.followUp.id);
    assert.deepEqual([followUp.flags, followUp.content, followUp.components[0].content], [V2, '', 'follow-up']);
    const original = await read(outcomes.edited.id);
    assert.equal(original.flags, V2, 'the flag stays');
    assert.equal(original.components[0].components[0].content, 'edited without repeating the flag');
  });

  test("a bot's channel message: the flag, its layout, and the same refusals", async () => {
    const refused = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { flags: V2, components: [{ type: 9, components: [{ type: 10, content: 'x' }] }] },
    });
    assert.deepEqual(codesOf(errorsOf(refused)), [['components.0.accessory', 'BASE_TYPE_REQUIRED']]);
    const without = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { components: CARD },
    });
    assert.deepEqual(codesOf(errorsOf(without)), [['components.0', 'UNION_TYPE_CHOICES']]);
    const posted = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { flags: V2, components: CARD },
    });
    assert.equal(posted.status, 200, posted.text);
    assertMatchesSchema('MessageResponse', posted.body);
    const upgrade = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'plain' },
    });
    const upgraded = await server.request('PATCH', `/channels/${GENERAL}/messages/${upgrade.body.id}`, {
      auth: BOT,
      body: { flags: V2, components: CARD },
    });
    assert.deepEqual(codesOf(errorsOf(upgraded)), [['content', 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2']]);
    const cleared = await server.request('PATCH', `/channels/${GENERAL}/messages/${upgrade.body.id}`, {
      auth: BOT,
      body: { flags: V2, content: null, components: CARD },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual([cleared.body.flags, cleared.body.content], [V2, '']);
  });
});
