/**
 * A newcomer's first hour, as real child processes: `slashd serve --demo` (what `npm start` runs)
 * prints the next step; the printed example app is started as printed, then the printed
 * `slashd invoke` line is run as printed, and the app's answer comes back on its output with exit
 * status 0. A refused invocation exits non-zero with the v10 error. A restart keeps the admin token.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, killAll, nodeCommand, runToEnd, startChild, type RunningChild } from './helpers/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'slashd-newcomer-'));
const db = join(dir, 'slashd.sqlite');

/** The runnable lines of the banner: `     $ node ...`. */
const COMMAND_LINE = /^\s+\$ (node .*)$/;

function printedCommands(stdout: string): string[] {
  return stdout.split('\n').flatMap((line) => {
    const match = COMMAND_LINE.exec(line);
    return match ? [match[1]!] : [];
  });
}

function serve(): RunningChild {
  return startChild(process.execPath, [CLI, 'serve', '--db', db, '--demo', '--port', '0']);
}

after(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start, then the printed next step', () => {
  let server: RunningChild;
  let app: RunningChild | undefined;
  let commands: string[];
  let url: string;
  let adminToken: string;

  before(async () => {
    server = serve();
    await server.waitForLine(/docs\/invoking\.md/);
    commands = printedCommands(server.stdout());
    url = /listening on (http:\S+)/.exec(server.stdout())![1]!;
    adminToken = /admin token: (\S+)/.exec(server.stdout())![1]!;
  });

  after(async () => {
    await app?.stop();
    await server.stop();
  });

  test('the banner names the demo users with their tokens, the channels with ids, and the admin token', () => {
    const out = server.stdout();
    assert.match(out, /alice +id 1335036896870400001 +token alice-user-token/);
    assert.match(out, /#general +id 1345183757107200011/);
    assert.match(out, /"Test Guild" +id 1345183757107200001/);
    assert.match(out, /bot token demo-bot-token-please-change/);
    assert.match(adminToken, /^[\w-]{20,}$/);
  });

  test("the printed example app and the printed invoke line give the app's answer, exit 0", async () => {
    assert.equal(commands.length, 2, `two runnable lines: ${commands.join(' | ')}`);
    const [appLine, invokeLine] = commands as [string, string];
    assert.match(invokeLine, /slashd\.js invoke /);
    const appCommand = nodeCommand(appLine);
    // Port 0: the example's default port may be taken on a shared machine.
    app = startChild(appCommand.command, [...appCommand.args, '--port', '0']);
    await app.waitForLine(/^hello-app ready/);

    const invoke = nodeCommand(invokeLine);
    const result = await runToEnd(invoke.command, invoke.args);
    assert.equal(result.code, 0, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
    assert.match(result.stdout, /Demo Bot answered:/);
    assert.match(result.stdout, /^ {2}Hello, world!$/m);
    assert.match(result.stdout, /\[embed\] Answered by examples\/hello-app\.js/);
  });

  test('a user who is not in the guild is refused: the v10 error, exit 1', async () => {
    const result = await runToEnd(process.execPath, [
      CLI,
      'invoke',
      '--as',
      'erin',
      '--channel',
      'general',
      '--url',
      url,
      '--admin-token',
      adminToken,
      '/hello',
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^refused \(403\): Missing Access \(code 50001\)$/m);
  });

  test('an option the command does not have is a usage error before anything is sent: exit 2', async () => {
    const result = await runToEnd(process.execPath, [
      CLI,
      'invoke',
      '--as',
      'alice',
      '--channel',
      'general',
      '--url',
      url,
      '--admin-token',
      adminToken,
      '/hello nmae:x',
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no option 'nmae'; the options are: name/);
  });

  test('slashd world prints the users with their tokens and the installed apps', async () => {
    const result = await runToEnd(process.execPath, [CLI, 'world', '--url', url, '--admin-token', adminToken]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /bob +id 1335036896870400002 +token bob-user-token/);
    assert.match(result.stdout, /installed apps: Demo Bot, Activity App/);
  });
});

describe('the admin token', () => {
  test('is the same after a restart, and kept in an owner-only file next to the database', async () => {
    const tokens: string[] = [];
    for (let run = 0; run < 2; run++) {
      const server = serve();
      const [, token] = await server.waitForLine(/admin token: (\S+)/);
      tokens.push(token!);
      assert.equal(await server.stop(), 0, 'a stopped server exits 0');
    }
    assert.equal(tokens[0], tokens[1]);
    assert.equal(statSync(join(dir, 'admin-token')).mode & 0o777, 0o600);
  });
});
