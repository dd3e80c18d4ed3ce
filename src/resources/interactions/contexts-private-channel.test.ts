/**
 * PRIVATE_CHANNEL (2) in `contexts` without USER_INSTALL (1) in `integration_types` is accepted and
 * stored, and inert: the documented default `contexts` is `[0,1,2]` and libraries (seyfert) send
 * it with `[0]` on every global command. Such a command works where its other contexts say, and a
 * guild install never makes it usable outside the guild and the bot's DM.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { CommandDefinition, StoredCommand } from '../../core/commands/model.js';
import { dmAuthorization } from './rules/dm-access.js';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { globalCommand } from '../../../test/permissions-fixtures.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_TOKEN as BOB,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  DM_CHANNEL,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

describe('contexts [0,1,2] with integration_types [0] over HTTP', () => {
  let server: TestServer;
  let app: AppServer;
  const commands: Record<string, Json> = {};
  let receivedBefore = 0;

  before(async () => {
    server = await startServer();
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'hi' } },
    }));
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  beforeEach(() => {
    receivedBefore = app.received.length;
  });

  function invocation(name: string, channelId: string, guildId: string | null): Json {
    return invocationBody(commands[name]!, { guildId, channelId });
  }

  test('a bulk overwrite of global commands is accepted and stores the contexts as sent', async () => {
    const response = await server.request('PUT', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: [
        { name: 'everywhere', description: 'd', contexts: [0, 1, 2], integration_types: [0] },
        { name: 'elsewhere', description: 'd', contexts: [0, 2], integration_types: [0] },
      ],
    });
    assert.equal(response.status, 200, response.text);
    for (const command of response.body as Json[]) commands[command.name] = command;
    assert.deepEqual(commands.everywhere!.contexts, [0, 1, 2]);
    assert.deepEqual(commands.everywhere!.integration_types, [0]);
    assert.deepEqual(commands.elsewhere!.contexts, [0, 2]);
  });

  test('create and edit accept it too', async () => {
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: { name: 'lone', description: 'd', contexts: [0, 1, 2], integration_types: [0] },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.contexts, [0, 1, 2]);
    const edited = await server.request('PATCH', `/applications/${DEMO_APP_ID}/commands/${created.body.id}`, {
      auth: BOT,
      body: { contexts: [2, 0] },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body.contexts, [2, 0]);
    const read = await server.request('GET', `/applications/${DEMO_APP_ID}/commands/${created.body.id}`, { auth: BOT });
    assert.deepEqual(read.body.contexts, [2, 0]);
  });

  test('in the guild both work', async () => {
    for (const name of ['everywhere', 'elsewhere']) {
      const response = await server.request('POST', '/interactions', {
        auth: BOB,
        body: invocation(name, GENERAL, TEST_GUILD_ID),
      });
      assert.equal(response.status, 200, response.text);
      assert.equal(app.interactions().at(-1)!.context, 0);
    }
    assert.equal(app.received.length, receivedBefore + 2);
  });

  test("in the bot's DM, BOT_DM decides: [0,1,2] answers there as BOT_DM", async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation('everywhere', DM_CHANNEL, null),
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(app.received.length, receivedBefore + 1);
    const delivered = app.interactions().at(-1)!;
    assert.equal(delivered.context, 1);
    assert.deepEqual(delivered.authorizing_integration_owners, { '0': '0' });
  });

  test('PRIVATE_CHANNEL alone opens no place outside the guild: [0,2] is refused in a DM, nothing delivered', async () => {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocation('elsewhere', DM_CHANNEL, null),
    });
    assert.equal(response.status, 403, response.text);
    assert.equal(response.body.code, 50013);
    assert.equal(app.received.length, receivedBefore, 'the app received nothing');
  });
});

describe('dmAuthorization: PRIVATE_CHANNEL without USER_INSTALL is inert', () => {
  function stored(overrides: Partial<CommandDefinition>): StoredCommand {
    return globalCommand({ integration_types: [0], contexts: [0, 2], ...overrides });
  }

  test('even for a user who installed the app, a guild-install-only command never works in their DMs', () => {
    assert.equal(dmAuthorization(stored({}), true), null);
    assert.equal(dmAuthorization(stored({}), false), null);
    assert.equal(dmAuthorization(stored({ contexts: [2] }), true), null);
  });

  test('with USER_INSTALL, PRIVATE_CHANNEL does count for a user install', () => {
    assert.equal(dmAuthorization(stored({ integration_types: [0, 1] }), true), 'user_install');
    assert.equal(dmAuthorization(stored({ integration_types: [0, 1] }), false), null);
  });

  test('BOT_DM with a guild install works as before', () => {
    assert.equal(dmAuthorization(stored({ contexts: [0, 1, 2] }), false), 'guild_install');
  });
});
