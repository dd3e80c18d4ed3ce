/**
 * A MESSAGE command targeting a world-file message reads it as the API left it (issue 36 item 2):
 * the file's version until the message is edited, the edit once it is (one message in `resolved`,
 * never the file's text), and nothing once it is deleted: the target is then unknown (50035).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

/** A message the demo bot wrote in the world file, in #general. */
const BY_BOT = '1345183757107200177';

function seededWorld() {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.messages.push({ id: BY_BOT, channel_id: GENERAL, author_id: DEMO_APP_ID, content: 'as the file has it' });
  return world;
}

describe('a MESSAGE command on a world-file message the API changed', () => {
  let server: TestServer;
  let app: AppServer;
  let quote: Json;

  before(async () => {
    server = await startServer({ world: seededWorld() });
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ type: 3, name: 'Quote' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    quote = (deployed.body as Json[])[0]!;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'ok' } },
    }));
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function invokeOn(targetId: string) {
    return server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody(quote, { guildId: TEST_GUILD_ID, channelId: GENERAL, data: { target_id: targetId } }),
    });
  }

  function resolvedMessages(): Record<string, Json> {
    return app.interactions().at(-1)!.data.resolved.messages as Record<string, Json>;
  }

  test('before any change: the file’s version', async () => {
    const invoked = await invokeOn(BY_BOT);
    assert.equal(invoked.status, 200, invoked.text);
    assert.equal(resolvedMessages()[BY_BOT]!.content, 'as the file has it');
  });

  test('after the bot edits it: the edit, with its edited_timestamp, and only one message resolved', async () => {
    const edited = await server.request('PATCH', `/channels/${GENERAL}/messages/${BY_BOT}`, {
      auth: BOT,
      body: { content: 'as the bot left it' },
    });
    assert.equal(edited.status, 200, edited.text);
    const invoked = await invokeOn(BY_BOT);
    assert.equal(invoked.status, 200, invoked.text);
    const messages = resolvedMessages();
    assert.deepEqual(Object.keys(messages), [BY_BOT]);
    assert.equal(messages[BY_BOT]!.content, 'as the bot left it');
    assert.notEqual(messages[BY_BOT]!.edited_timestamp, null);
  });

  test('after the bot deletes it: the target is unknown, and the app receives nothing', async () => {
    const deleted = await server.request('DELETE', `/channels/${GENERAL}/messages/${BY_BOT}`, { auth: BOT });
    assert.equal(deleted.status, 204, deleted.text);
    const received = app.received.length;
    const invoked = await invokeOn(BY_BOT);
    assert.equal(invoked.status, 400, invoked.text);
    assert.equal(invoked.body.code, 50035);
    assert.ok(JSON.stringify(invoked.body.errors.data.target_id).includes('INTERACTION_UNKNOWN_MESSAGE'), invoked.text);
    assert.equal(app.received.length, received);
  });
});
