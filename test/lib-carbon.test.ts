/**
 * @buape/carbon, unmodified but for its base URL (`requestOptions.baseUrl`), against a real slashd
 * on loopback. carbon calls paths without a version (`/api/users/@me`, `/api/applications/...`),
 * which slashd serves as v10: its command deploy and its fetchers work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Command, type CommandInteraction } from '@buape/carbon';
import { startServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, DEMO_BOT_TOKEN } from './helpers/world.js';

class PingCommand extends Command {
  name = 'ping';
  override description = 'Replies with pong';

  async run(interaction: CommandInteraction): Promise<void> {
    await interaction.reply({ content: 'pong' });
  }
}

describe('@buape/carbon against slashd', () => {
  let server: TestServer;
  let client: Client;
  const requested: string[] = [];

  before(async () => {
    server = await startServer();
    const me = await server.request('GET', '/applications/@me', { auth: BOT });
    assert.equal(me.status, 200, me.text);
    client = new Client(
      {
        baseUrl: 'http://127.0.0.1:1',
        clientId: DEMO_APP_ID,
        publicKey: me.body.verify_key as string,
        token: DEMO_BOT_TOKEN,
        deploySecret: 'unused',
        requestOptions: {
          baseUrl: `${server.url}/api`,
          fetch: (...[input, init]: Parameters<typeof fetch>) => {
            const url = input instanceof Request ? input.url : String(input);
            requested.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
            return fetch(input, init);
          },
        },
      },
      { commands: [new PingCommand()] },
    );
  });
  after(() => server.close());

  test('deployCommands puts its commands through /api/applications/... (unversioned)', async () => {
    await client.deployCommands();
    assert.ok(
      requested.includes(`PUT /api/applications/${DEMO_APP_ID}/commands`),
      `carbon called ${requested.join(', ')}`,
    );
    const listed = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, { auth: BOT });
    assert.deepEqual(
      (listed.body as { name: string }[]).map((command) => command.name),
      ['ping'],
    );
  });

  test('fetchUser("@me") reads /api/users/@me (percent-encoded, as carbon sends it)', async () => {
    const user = await client.fetchUser('@me');
    assert.equal(user.id, DEMO_APP_ID);
    assert.ok(requested.includes('GET /api/users/%40me'), `carbon called ${requested.join(', ')}`);
  });
});
