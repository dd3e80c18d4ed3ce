/**
 * Who may invoke where, and who may read what (security): an invocation reaches the app only from
 * a channel the invoker can view, names only what they can see, and a "DM" invocation never
 * reaches a guild channel. Messages are read only by those who may read the channel's history: a
 * member, or the app's bot with VIEW_CHANNEL and READ_MESSAGE_HISTORY. Each attack is reproduced
 * over real HTTP against a real signed-interactions app, which is checked to have received nothing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { assertErrorBody } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOB_ID,
  BOB_TOKEN as BOB,
  BOT,
  CAROL_ID,
  CAROL_TOKEN as CAROL,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  DM_CHANNEL,
  ERIN_TOKEN as ERIN,
  GENERAL,
  HELLO_MESSAGE,
  SECRET,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

// Erin is no member of the test guild. SECRET is hidden from carol, and the bot may not read its history.
const SECRET_THREAD = '1345183757107200016';
const SECRET_MESSAGE = '1345183757107200101';
/** A private thread of general that only alice joined. */
const PRIVATE_THREAD = '1345183757107200017';
const VIEW_CHANNEL = String(1 << 10);
const READ_MESSAGE_HISTORY = String(1 << 16);

function accessWorld() {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.channels.push(
    {
      id: SECRET,
      type: 0,
      name: 'secret',
      nsfw: false,
      parent_id: null,
      permission_overwrites: [
        { id: CAROL_ID, type: 1, allow: '0', deny: VIEW_CHANNEL },
        { id: DEMO_APP_ID, type: 1, allow: '0', deny: READ_MESSAGE_HISTORY },
      ],
    },
    { id: SECRET_THREAD, type: 11, name: 'secret-thread', nsfw: false, parent_id: SECRET, permission_overwrites: [] },
    {
      id: PRIVATE_THREAD,
      type: 12,
      name: 'private',
      nsfw: false,
      parent_id: GENERAL,
      permission_overwrites: [],
      thread_member_ids: [ALICE_ID],
    },
  );
  guild.messages.push({
    id: SECRET_MESSAGE,
    channel_id: SECRET,
    author_id: ALICE_ID,
    content: 'the launch codes',
  });
  return world;
}

describe('invocation and message-read access', () => {
  let server: TestServer;
  let app: AppServer;
  const guildCommands: Record<string, Json> = {};
  const globalCommands: Record<string, Json> = {};
  let receivedBefore = 0;

  before(async () => {
    server = await startServer({ world: accessWorld() });
    const guildDeployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [
        { type: 3, name: 'Quote' },
        { name: 'where', description: 'Pick a channel', options: [{ type: 7, name: 'channel', description: 'Which' }] },
        { name: 'whisper', description: 'Answers ephemerally' },
      ],
    });
    assert.equal(guildDeployed.status, 200, guildDeployed.text);
    for (const command of guildDeployed.body as Json[]) guildCommands[command.name] = command;
    const globalDeployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: [
        { type: 3, name: 'Quote DM', dm_permission: true },
        { name: 'say', description: 'Says hi', dm_permission: true },
      ],
    });
    assert.equal(globalDeployed.status, 200, globalDeployed.text);
    for (const command of globalDeployed.body as Json[]) globalCommands[command.name] = command;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, (interaction) => {
      const secret = interaction.data?.name === 'whisper';
      return {
        inline: { type: 4, data: { content: secret ? 'for your eyes only' : 'bot reply', flags: secret ? 64 : 0 } },
      };
    });
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  beforeEach(() => {
    receivedBefore = app.received.length;
  });

  function invocation(command: Json, channelId: string, guildId: string | null, data: Json = {}): Json {
    return invocationBody(command, { guildId, channelId, data });
  }

  async function messages(auth: string, channelId: string): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${channelId}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    return response.body as Json[];
  }

  async function refused(auth: string, body: Json, status: number, code: number): Promise<void> {
    const response = await server.request('POST', '/interactions', { auth, body });
    assert.equal(response.status, status, response.text);
    assertErrorBody(status, response.body);
    assert.equal(response.body.code, code);
    assert.equal(app.received.length, receivedBefore, 'the app received nothing');
  }

  test('control: bob, who can view the secret channel, quotes its message and the app gets it', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation(guildCommands.Quote!, SECRET, TEST_GUILD_ID, { target_id: SECRET_MESSAGE }),
    });
    assert.equal(response.status, 200, response.text);
    const delivered = app.interactions().at(-1)!;
    assert.equal(delivered.data.resolved.messages[SECRET_MESSAGE].content, 'the launch codes');
  });

  test('defect 1: a member denied VIEW_CHANNEL cannot invoke there: 10003 Unknown Channel, the app gets nothing', async () => {
    const secretBefore = (await messages(BOB, SECRET)).length;
    await refused(
      CAROL,
      invocation(guildCommands.Quote!, SECRET, TEST_GUILD_ID, { target_id: SECRET_MESSAGE }),
      404,
      10003,
    );
    // A thread takes its parent's permissions: hidden too.
    await refused(CAROL, invocation(guildCommands.where!, SECRET_THREAD, TEST_GUILD_ID), 404, 10003);
    assert.equal((await messages(BOB, SECRET)).length, secretBefore, 'no reply was stored in the hidden channel');
    // Nor can she read the channel herself.
    const read = await server.request('GET', `/channels/${SECRET}/messages`, { auth: CAROL });
    assert.equal(read.status, 403, read.text);
    assert.equal(read.body.code, 50001);
  });

  test('a private thread refuses a guild member who has not joined it (10003); its member invokes there', async () => {
    await refused(CAROL, invocation(guildCommands.where!, PRIVATE_THREAD, TEST_GUILD_ID), 404, 10003);
    const joined = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: invocation(guildCommands.where!, PRIVATE_THREAD, TEST_GUILD_ID),
    });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(app.received.length, receivedBefore + 1);
  });

  test('defect 1: a CHANNEL option naming a channel the invoker cannot view is refused as unknown', async () => {
    await refused(
      CAROL,
      invocation(guildCommands.where!, GENERAL, TEST_GUILD_ID, {
        options: [{ name: 'channel', type: 7, value: SECRET }],
      }),
      400,
      50035,
    );
  });

  test('defect 1: GET /interactions/{id} shows the response only to the invoker', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation(guildCommands.where!, SECRET, TEST_GUILD_ID),
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const own = await server.request('GET', `/interactions/${id}`, { auth: BOB });
    assert.equal(own.status, 200, own.text);
    const other = await server.request('GET', `/interactions/${id}`, { auth: CAROL });
    assert.equal(other.status, 404, other.text);
  });

  test('GET /interactions/{id}: once the invoker may no longer view the channel, the interaction is unknown to them', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation(guildCommands.where!, GENERAL, TEST_GUILD_ID),
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    assert.equal((await server.request('GET', `/interactions/${id}`, { auth: BOB })).status, 200);

    const admin = `Bearer ${ADMIN_TOKEN}`;
    const guild = (await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: admin }))
      .body as Json;
    const general = (guild.channels as Json[]).find((c) => c.id === GENERAL)!;
    general.permission_overwrites = [
      ...(general.permission_overwrites ?? []),
      { id: BOB_ID, type: 1, allow: '0', deny: VIEW_CHANNEL },
    ];
    const put = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: admin,
      body: guild,
    });
    assert.equal(put.status, 200, put.text);
    try {
      const hidden = await server.request('GET', `/interactions/${id}`, { auth: BOB });
      assert.equal(hidden.status, 404, hidden.text);
      assert.equal(hidden.body.code, 10062);
    } finally {
      general.permission_overwrites = (general.permission_overwrites as Json[]).filter((o) => o.id !== BOB_ID);
      const restored = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
        auth: admin,
        body: guild,
      });
      assert.equal(restored.status, 200, restored.text);
    }
    assert.equal(
      (await server.request('GET', `/interactions/${id}`, { auth: BOB })).status,
      200,
      'visible again once restored',
    );
  });

  test('defect 2: a DM invocation naming a guild channel is refused (10003) and reaches neither the app nor the channel', async () => {
    const generalBefore = (await messages(ALICE, GENERAL)).length;
    await refused(
      ERIN,
      invocation(globalCommands['Quote DM']!, GENERAL, null, { target_id: HELLO_MESSAGE }),
      404,
      10003,
    );
    const nullGuild = { ...invocation(globalCommands.say!, GENERAL, null), guild_id: null };
    await refused(ERIN, nullGuild, 404, 10003);
    // A member of the guild cannot either: a guild channel is never a DM.
    await refused(BOB, invocation(globalCommands.say!, SECRET, null), 404, 10003);
    assert.equal((await messages(ALICE, GENERAL)).length, generalBefore, 'no reply appeared in the guild channel');
  });

  test('control: a DM invocation in a channel no guild has is delivered as a DM', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: ERIN,
      body: invocation(globalCommands.say!, DM_CHANNEL, null),
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(app.received.length, receivedBefore + 1);
    assert.equal(app.interactions().at(-1)!.context, 1);
  });

  test('a bot reads its reply in a channel with its bot token, but never an ephemeral one', async () => {
    const replied = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation(globalCommands.say!, GENERAL, TEST_GUILD_ID),
    });
    assert.equal(replied.status, 200, replied.text);
    const whispered = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation(guildCommands.whisper!, GENERAL, TEST_GUILD_ID),
    });
    assert.equal(whispered.status, 200, whispered.text);
    const seen = await messages(BOT, GENERAL);
    assert.ok(
      seen.some((m) => m.content === 'bot reply' && m.author?.id === DEMO_APP_ID),
      'the bot sees its reply',
    );
    assert.ok(
      seen.some((m) => m.id === HELLO_MESSAGE),
      'and the world message',
    );
    assert.ok(!seen.some((m) => m.content === 'for your eyes only'), 'not the ephemeral one');
    assert.ok(
      (await messages(BOB, GENERAL)).some((m) => m.content === 'for your eyes only'),
      'which its invoker sees',
    );
  });

  test('a bot without READ_MESSAGE_HISTORY in a channel is refused with 50001 Missing Access', async () => {
    const response = await server.request('GET', `/channels/${SECRET}/messages`, { auth: BOT });
    assert.equal(response.status, 403, response.text);
    assertErrorBody(403, response.body);
    assert.equal(response.body.code, 50001);
  });

  test('a bot whose app is not installed with the bot in the guild is refused with 50001', async () => {
    const response = await server.request('GET', `/channels/${GENERAL}/messages`, { auth: 'Bot activity-bot-token' });
    assert.equal(response.status, 403, response.text);
    assert.equal(response.body.code, 50001);
  });
});
