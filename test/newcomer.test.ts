/**
 * A newcomer's first hour, as real child processes: `slashd serve --demo` (what `npm start` runs)
 * prints the next step; the printed example app is started as printed, then the printed
 * `slashd invoke` line is run as printed, and the app's answer comes back on its output with exit
 * status 0. A refused invocation exits non-zero with the v10 error. A restart keeps the admin token.
 *
 * Then the README followed literally (the install skipped: the repository is installed): `npm
 * start` and `npm run example` as package.json has them, Ctrl-C on the example, and the README's
 * discord.js bot gets its interaction over the gateway, asking for privileged intents. Before the
 * bot, with neither an endpoint nor a bot, the failure's reason is asserted in `slashd invoke`'s
 * output and in the console's "Why?" (Chromium).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser } from './helpers/browser.js';
import { CLI, killAll, nodeCommand, ROOT, runToEnd, startChild, type RunningChild } from './helpers/cli-process.js';
import { composer, openConsole, openPicker, signInAs } from './helpers/console-page.js';
import { readmeBlock, readmeText } from './helpers/readme.js';

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
    // Never printed: the banner names the file it is kept in.
    assert.match(server.stdout(), new RegExp(`admin token: kept in ${join(dir, 'admin-token')} `));
    adminToken = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
  });

  after(async () => {
    await app?.stop();
    await server.stop();
  });

  test('the banner names the demo users, the channels with ids and where the admin token is: no token in it', async () => {
    const out = server.stdout();
    assert.match(out, /alice +id 1335036896870400001\n/);
    assert.match(out, /#general +id 1345183757107200011/);
    assert.match(out, /"Test Guild" +id 1345183757107200001/);
    assert.match(adminToken, /^[\w-]{20,}$/);
    // Standard output ends up in logs (issue 39): no token of any kind is in it.
    for (const secret of [adminToken, 'alice-user-token', 'demo-bot-token-please-change']) {
      assert.ok(!out.includes(secret), `${secret} printed`);
    }
    // The printed `slashd world` line shows the tokens, to whoever runs it.
    const worldLine = commands.find((line) => / world( |$)/.test(line));
    assert.ok(worldLine, commands.join(' | '));
    const world = nodeCommand(worldLine);
    const printed = await runToEnd(world.command, [...world.args, '--url', url]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /alice +id 1335036896870400001 +token alice-user-token/);
    assert.match(printed.stdout, /bot token demo-bot-token-please-change/);
  });

  test("the printed example app and the printed invoke line give the app's answer, exit 0", async () => {
    assert.equal(commands.length, 3, `three runnable lines: ${commands.join(' | ')}`);
    const [appLine, invokeLine] = commands as [string, string, string];
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
      await server.waitForLine(/admin token: kept in /);
      const [, served] = /listening on (http:\S+)/.exec(server.stdout())!;
      tokens.push(readFileSync(join(dir, 'admin-token'), 'utf8').trim());
      // The token kept is the one the server takes, at each start.
      const world = await fetch(`${served}/admin/world`, { headers: { authorization: `Bearer ${tokens[0]}` } });
      assert.equal(world.status, 200);
      assert.equal(await server.stop(), 0, 'a stopped server exits 0');
    }
    assert.equal(tokens[0], tokens[1]);
    assert.equal(statSync(join(dir, 'admin-token')).mode & 0o777, 0o600);
  });
});

/** `npm run NAME` as package.json has it, as argv for node (every script here is `node ...`). */
function npmScript(name: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const words = scripts[name]!.split(' ');
  assert.equal(words[0], 'node', `npm run ${name} runs node`);
  return words.slice(1);
}

/** The README's address, as the reader's server has it. */
const README_URL = 'http://127.0.0.1:3210';

describe('the README, literally: npm start, npm run example, Ctrl-C, then a discord.js bot', () => {
  const readmeDb = join(dir, 'readme.sqlite');
  let server: RunningChild;
  let url: string;
  let adminToken: string;

  async function slashd(...args: string[]) {
    return runToEnd(process.execPath, [CLI, ...args, '--url', url, '--admin-token', adminToken]);
  }

  /** The line under Demo Bot's in `slashd world`: where its interactions go. */
  async function demoBotRoute(): Promise<string> {
    const world = await slashd('world');
    assert.equal(world.code, 0, world.stderr);
    const lines = world.stdout.split('\n');
    const app = lines.findIndex((line) => /^ {2}"Demo Bot" {2}id /.test(line));
    return lines[app + 1]!.trim();
  }

  before(async () => {
    const readme = readmeText();
    assert.match(readme, /npm install && npm start/);
    assert.match(readme, /npm run example/);
    // npm start as package.json has it: its own database, and a free port on a shared machine.
    const start = npmScript('start').map((word) => (word === './data/slashd.sqlite' ? readmeDb : word));
    assert.ok(start.includes(readmeDb), 'npm start names its database');
    server = startChild(process.execPath, [...start, '--port', '0']);
    await server.waitForLine(/docs\/invoking\.md/);
    url = /listening on (http:\S+)/.exec(server.stdout())![1]!;
    adminToken = readFileSync(join(dirname(readmeDb), 'admin-token'), 'utf8').trim();
  });

  after(async () => {
    await server.stop();
  });

  test("the banner says where Demo Bot's interactions go: the gateway, no bot connected", () => {
    assert.match(
      server.stdout(),
      /"Demo Bot" {2}id 1324165260902400001\n {4}interactions → gateway \(no bot connected/,
    );
  });

  test('npm run example sets the endpoint while it runs; Ctrl-C clears it', async () => {
    const example = startChild(process.execPath, [...npmScript('example'), '--url', url, '--port', '0']);
    await example.waitForLine(/^hello-app ready/);
    assert.match(await demoBotRoute(), /^interactions → endpoint http:\/\/127\.0\.0\.1:\d+\/interactions$/);
    assert.equal(await example.interrupt(), 0, 'Ctrl-C ends the example cleanly');
    assert.match(example.stdout(), /cleared "Demo Bot"'s interactions endpoint/);
    assert.match(await demoBotRoute(), /^interactions → gateway \(no bot connected/);
  });

  test("with no endpoint and no bot: slashd invoke and the console's Why? say no bot is logged in", async () => {
    const invoked = await slashd('invoke', '--as', 'alice', '--channel', 'general', '/hello');
    assert.equal(invoked.code, 1, invoked.stdout);
    assert.match(
      invoked.stderr,
      /^failed: delivery_failure: no bot is logged in with this app's token, and the app has no interactions endpoint: start your bot/m,
    );
    assert.doesNotMatch(invoked.stderr, /could not be reached/);

    const browser = await launchBrowser();
    try {
      const alice = await openConsole(browser, url);
      await signInAs(alice, 'alice');
      await openPicker(alice, 'hello');
      await composer(alice).press('Enter');
      await alice.getByRole('button', { name: 'Send /hello' }).click();
      const failure = alice.getByRole('alert').filter({ hasText: 'The application did not respond' });
      await failure.waitFor();
      await failure.getByText("Why? (for the app's developer)").click();
      await failure.getByText(/delivery_failure/).waitFor();
      await failure.getByText(/no bot is logged in with this app's token/).waitFor();
      assert.doesNotMatch((await failure.textContent()) ?? '', /: failed/);
    } finally {
      await browser.close();
    }
  });

  test("the README's discord.js bot logs in with privileged intents and answers /hello", async () => {
    const code = readmeBlock('js', 'client.login');
    assert.ok(code.includes(README_URL), 'the README points the bot at the default address');
    assert.match(code, /GatewayIntentBits\.GuildMembers/);
    const bot = startChild(process.execPath, ['--input-type=module', '-e', code.replaceAll(README_URL, url)]);
    try {
      await bot.waitForLine(/^logged in as Demo Bot/);
      assert.equal(await demoBotRoute(), 'interactions → gateway (a bot is connected)');
      const invoked = await slashd('invoke', '--as', 'alice', '--channel', 'general', '/hello');
      assert.equal(invoked.code, 0, `stdout:\n${invoked.stdout}\nstderr:\n${invoked.stderr}`);
      assert.match(invoked.stdout, /^Demo Bot answered:\n {2}Hello from discord\.js, alice!$/m);
    } finally {
      await bot.stop();
    }
  });
});
