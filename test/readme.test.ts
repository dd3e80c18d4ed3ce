/** The README's discord.js example, run as written (only the base URL changes) against a server. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const README_BASE = 'http://127.0.0.1:3210/api';

function readmeExample(): string {
  const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');
  const match = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(match?.[1], 'the README has a js example');
  return match[1];
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
    assert.deepEqual(
      global.body.map((c: { name: string }) => c.name),
      ['ping'],
    );
    assert.deepEqual(
      guild.body.map((c: { name: string }) => c.name),
      ['ping'],
    );
    assert.match(result.stdout, /name: 'ping'/);
  });
});
