/** The README's discord.js example, run as written (only the base URL changes) against a server. */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from './helpers/openapi.js';
import { readmeBlock } from './helpers/readme.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, ALICE_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

const README_BASE = 'http://127.0.0.1:3210/api';

function readmeExample(): string {
  return readmeBlock('js', 'applicationGuildCommands');
}

describe('the README example', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('deploys guild and global commands to the demo world', async () => {
    const code = readmeExample();
    assert.ok(code.includes(README_BASE), 'the example points at the default address');
    // Asynchronously: the server answering the example runs in this process.
    const result = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', code.replaceAll(README_BASE, `${server.url}/api`)],
      {
        cwd: repoRoot(),
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    const auth = `Bot ${DEMO_BOT_TOKEN}`;
    const global = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, { auth });
    const guild = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth,
    });
    // One scope: the guild's. The same command in both would show twice in the picker.
    assert.deepEqual(global.body, []);
    assert.deepEqual(
      guild.body.map((c: { name: string }) => c.name),
      ['ping'],
    );
    assert.match(result.stdout, /name: 'ping'/);
  });

  it("runs the README's discord.py bot as written: it logs in with privileged intents and answers", async () => {
    const code = readmeBlock('python', 'DEFAULT_GATEWAY');
    assert.ok(code.includes("Route.BASE = 'http://127.0.0.1:3210/api/v10'"));
    assert.ok(code.includes("yarl.URL('ws://127.0.0.1:3210/')"));
    const hello = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: `Bot ${DEMO_BOT_TOKEN}`,
      body: { name: 'hello', description: 'Say hello' },
    });
    assert.equal(hello.status, 201, hello.text);
    const address = server.url.replace('http://', '');
    const bot = spawn('/usr/bin/python3', ['-c', code.replaceAll('127.0.0.1:3210', address)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    bot.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    try {
      // Connected: where Demo Bot's interactions go says so (GET /admin/delivery).
      const admin = { auth: `Bearer ${ADMIN_TOKEN}` };
      for (;;) {
        assert.equal(bot.exitCode, null, `the bot exited: ${stderr}`);
        const routes = await server.request('GET', `${server.url}/admin/delivery`, admin);
        if (routes.body.find((r: { application_id: string }) => r.application_id === DEMO_APP_ID).gateway_connected)
          break;
        await new Promise((next) => setTimeout(next, 50));
      }
      const index = await server.request('GET', `/channels/${GENERAL}/application-command-index`, {
        auth: ALICE_TOKEN,
      });
      const command = index.body.application_commands.find((c: { name: string }) => c.name === 'hello');
      const invoked = await server.request('POST', '/interactions', {
        auth: ALICE_TOKEN,
        body: invocationBody(command),
      });
      assert.equal(invoked.status, 200, invoked.text);
      let status = invoked.body;
      while (status.state === 'pending') {
        await new Promise((next) => setTimeout(next, 50));
        status = (await server.request('GET', `/interactions/${invoked.body.id}`, { auth: ALICE_TOKEN })).body;
      }
      assert.equal(status.state, 'responded', JSON.stringify(status));
      assert.equal(status.response.data.content, 'Hello from discord.py, alice!');
    } finally {
      bot.kill('SIGKILL');
    }
  });
});
