/**
 * No secret in a log line (issue 39): what `slashd serve --demo` prints, readable or as JSON lines
 * (standard output ends up in logs either way), names no token at all: the generated admin token
 * by its file, no demo user's or bot's token; one given on the command line is never printed back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SERVED_DEMO_WORLD } from '../src/world/demo-world.js';
import { CLI, killAll, startChild } from './helpers/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'slashd-banner-secrets-'));

after(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Every token of the demo world: its users', its bots' and its pre-issued OAuth2 tokens. */
function demoTokens(): string[] {
  const world = SERVED_DEMO_WORLD as unknown as {
    users: { token?: string }[];
    applications: { bot_token: string }[];
    oauth2_tokens?: { access_token: string }[];
  };
  return [
    ...world.users.flatMap((user) => (user.token ? [user.token] : [])),
    ...world.applications.map((app) => app.bot_token),
    ...(world.oauth2_tokens ?? []).map((token) => token.access_token),
  ];
}

/** What `serve` printed up to its last banner line, then stopped. */
async function bannerOf(args: string[]): Promise<{ stdout: string; all: string }> {
  const child = startChild(process.execPath, [CLI, 'serve', '--demo', '--port', '0', ...args]);
  await child.waitForLine(/docs\/invoking\.md/);
  await child.stop();
  return { stdout: child.stdout(), all: child.stdout() + child.stderr() };
}

describe('the serve banner and secrets', () => {
  for (const format of ['json', 'pretty'] as const) {
    test(`--log-format ${format}: no token of any kind, the admin token named by its file`, async () => {
      const db = join(dir, `${format}.sqlite`);
      const { stdout, all: printed } = await bannerOf(['--db', db, '--log-format', format]);
      const adminToken = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
      if (format === 'json') for (const line of stdout.split('\n').filter((l) => l !== '')) JSON.parse(line);
      for (const secret of [adminToken, ...demoTokens()]) assert.ok(!printed.includes(secret), `${secret} printed`);
      assert.match(printed, /admin token: kept in /);
      assert.match(printed, /Demo Bot/, 'the world is still described');
    });
  }

  test('an admin token given with --admin-token is never printed back, not in a suggested command either', async () => {
    const given = 'operator-chosen-admin-token-1234';
    const { all: printed } = await bannerOf(['--db', join(dir, 'given.sqlite'), '--admin-token', given]);
    assert.ok(!printed.includes(given), printed);
    assert.match(printed, /--admin-token '<your admin token>'/);
    for (const secret of demoTokens()) assert.ok(!printed.includes(secret), `${secret} printed`);
  });
});
