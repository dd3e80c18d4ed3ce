/**
 * seyfert, unmodified but for its base URL, against a real slashd on loopback, used as its docs
 * show: command classes in a commands directory (`test/fixtures/seyfert/commands`), a client
 * started with its runtime config, then `client.uploadCommands({ cachePath })`. Its base URL is
 * set the documented way, a REST service of its own `ApiHandler` with `domain` (`setServices`).
 * seyfert declares `contexts: [0,1,2]` with `integration_types: [0]` on every global command (issue
 * 23): the upload must succeed and store them.
 *
 * The bot runs as seyfert's `HttpClient` (interactions endpoint): its gateway `Client` cannot reach
 * slashd on loopback, as seyfert's Node WebSocket always opens TLS to port 443 of the gateway URL's
 * host (docs/v10-behaviour.md#client-libraries). The endpoint's HTTP server is the test's
 * discord-interactions app, which verifies each request and hands it to
 * `client.onInteractionRequest`, as seyfert's HTTP adapters do.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ApiHandler, HttpClient, config, type APIInteraction } from 'seyfert';
import { startRegisteredApp, type AppServer } from './helpers/app-server.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

type Json = any;

/** The compiled command files (dist/test/fixtures/seyfert/commands), relative to the working directory as seyfert wants. */
const FIXTURE_BASE = relative(process.cwd(), join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'seyfert'));

describe('seyfert uploads its commands to slashd and answers them', () => {
  let server: TestServer;
  let client: HttpClient;
  let app: AppServer;
  let dir: string;
  const requests = new Inbox<string>((request) => request);

  before(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'slashd-seyfert-'));
    const me = await server.request('GET', '/applications/@me', { auth: BOT });
    assert.equal(me.status, 200, me.text);
    client = new HttpClient({
      getRC: () =>
        config.http({
          token: DEMO_BOT_TOKEN,
          applicationId: DEMO_APP_ID,
          publicKey: me.body.verify_key as string,
          locations: { base: FIXTURE_BASE, commands: 'commands' },
        }),
    });
    const rest = new ApiHandler({ token: DEMO_BOT_TOKEN, domain: server.url });
    rest.onSuccessRequest = (method, url) => requests.push(`${method} ${url}`);
    client.setServices({ rest });
    await client.start();
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, async (interaction) => {
      const answer = await client.onInteractionRequest(interaction as APIInteraction);
      return { inline: answer.response };
    });
  });

  after(async () => {
    await app?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('uploadCommands succeeds: global and guild commands stored as seyfert sent them', async () => {
    await client.uploadCommands({ cachePath: join(dir, 'commands.json') });
    const global = await server.request('GET', `/applications/${DEMO_APP_ID}/commands?with_localizations=true`, {
      auth: BOT,
    });
    assert.equal(global.status, 200, global.text);
    const byName = new Map((global.body as Json[]).map((command) => [command.name, command]));
    assert.deepEqual([...byName.keys()].sort(), ['User Card', 'fruit', 'ping']);
    for (const command of byName.values()) {
      assert.deepEqual(command.contexts, [0, 1, 2], `${command.name}: seyfert's default contexts`);
      assert.deepEqual(command.integration_types, [0], `${command.name}: seyfert's default integration types`);
    }
    const fruit = byName.get('fruit');
    assert.equal(fruit.default_member_permissions, String(1n << 13n));
    assert.deepEqual(fruit.description_localizations, { fr: 'Choisit un fruit' });
    assert.deepEqual(
      fruit.options.map((option: Json) => [option.name, option.type, option.required ?? false]),
      [
        ['kind', 3, true],
        ['count', 4, false],
      ],
    );
    assert.equal(byName.get('User Card').type, 2);

    const guild = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
    });
    assert.equal(guild.status, 200, guild.text);
    assert.deepEqual(
      (guild.body as Json[]).map((command) => command.name),
      ['note'],
    );
  });

  test('a second upload with the same cache path sends nothing (seyfert compares against what it sent)', async () => {
    const puts = () => requests.all().filter((request) => request.startsWith('PUT')).length;
    const before = puts();
    assert.ok(before >= 2, 'the first upload sent the global and the guild list');
    await client.uploadCommands({ cachePath: join(dir, 'commands.json') });
    assert.equal(puts(), before);
  });

  test("an invocation of /ping reaches seyfert's command class, which answers pong", async () => {
    const listed = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, { auth: BOT });
    const ping = (listed.body as Json[]).find((command) => command.name === 'ping');
    const invoked = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody(ping),
    });
    assert.equal(invoked.status, 200, invoked.text);
    const id = invoked.body.id as string;
    const messages = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: ALICE_TOKEN });
    const answer = (messages.body as Json[]).find((message) => message.interaction_metadata?.id === id);
    assert.equal(answer?.content, 'pong', messages.text);
  });
});
