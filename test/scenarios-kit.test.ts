/**
 * `runScenario` of slashd/testing under node:test (issue 28): against the sandbox a test started
 * its discord.js bot on, the example scenario passes and a wrong copy fails with its diff in
 * `report`; users post, react and are refused; a member's roles are checked; a route slashd does
 * not serve, called with the bot's token, is in the coverage.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from 'discord.js';
import { createSandbox, runScenario, type Sandbox } from '../src/testing/index.js';
import { loadPingBot } from './helpers/ping-bot.js';
import { repoRoot } from './helpers/openapi.js';
import { TEST_GUILD_ID } from './helpers/world.js';

const PASSING = join(repoRoot(), 'examples/testing/ping-bot.scenario.yaml');
const folder = mkdtempSync(join(tmpdir(), 'slashd-kit-scenarios-'));

function scenarioFile(name: string, text: string): string {
  const file = join(folder, name);
  writeFileSync(file, text);
  return file;
}

let sandbox: Sandbox;
let client: Client<true>;

before(async () => {
  sandbox = await createSandbox();
  client = await (await loadPingBot()).startBot({ token: sandbox.bot().token, restUrl: sandbox.restUrl });
});
after(async () => {
  await client?.destroy();
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('runScenario against a sandbox', () => {
  test('the example scenario passes', async () => {
    const run = await runScenario(PASSING, { sandbox });
    assert.ok(run.passed, run.report);
    assert.equal(run.results[0]!.steps.length, 5);
  });

  test('a wrong expected reply fails, with the diff in the report', async () => {
    const wrong = scenarioFile(
      'wrong.yaml',
      readFileSync(PASSING, 'utf8').replace("{ matches: '^pressed by bob$' }", "'pressed by alice'"),
    );
    const run = await runScenario(wrong, { sandbox });
    assert.equal(run.passed, false);
    assert.match(
      run.report,
      /✗ bob clicks \{"label":"Press me"\}\n {6}message: none matched; the closest of 1 \(\d+\) \(waited 5000 ms\)\n {8}at content:\n {10}- expected: "pressed by alice"\n {10}\+ observed: "pressed by bob"\n/,
    );
    assert.match(run.report, /- carol invokes \/feedback \(skipped\)/);
  });

  test('users post, react and upload, a user outside the guild is refused, a member has their roles', async () => {
    writeFileSync(join(folder, 'note.txt'), 'hello');
    const file = scenarioFile(
      'users.yaml',
      [
        'name: users act',
        'steps:',
        '  - post: hello bot',
        '    as: alice',
        '    in: general',
        '    expect: [{ message: { content: hello bot, author: alice } }]',
        "  - react: '👍'",
        '    as: alice',
        "    expect: [{ message: { content: hello bot, reactions: [{ emoji: { name: '👍' }, count: 1 }] } }]",
        '  - upload: { file: note.txt, content: see the note }',
        '    as: alice',
        '    expect: [{ message: { content: see the note, author: alice, attachments: [{ filename: note.txt, size: 5 }] } }]',
        '  - invoke: /ping',
        '    as: erin',
        '    expect: [{ refusal: { status: 403, code: 50001 } }]',
        '  - invoke: /ping',
        '    as: alice',
        '    expect:',
        '      - member: { user: alice, has: [Admin], lacks: [Muted] }',
        '      - message: { content: pong }',
      ].join('\n'),
    );
    const run = await runScenario(file, { sandbox });
    assert.ok(run.passed, run.report);
  });

  test(
    'a `matches` pattern runs in time linear in the text (issue 35 item 9), and one that cannot is refused',
    { timeout: 60_000 },
    async () => {
      // 1,990 letters: a backtracking engine takes about 2^1990 steps to refuse `(a+)+$` here.
      const text = `Hello, ${'a'.repeat(1990)}!`;
      const file = scenarioFile(
        'linear.yaml',
        [
          'name: patterns against a long text',
          'steps:',
          `  - post: '${text}'`,
          '    as: alice',
          '    in: general',
          "    expect: [{ message: { content: { matches: '^Hello, (a+)+!$' } } }]",
          `  - post: '${text}'`,
          '    as: alice',
          '    timeout: 200',
          "    expect: [{ message: { content: { matches: '^Hello, (a+)+$' } } }]",
        ].join('\n'),
      );
      const run = await runScenario(file, { sandbox });
      assert.equal(run.passed, false, run.report);
      const [matched, refused] = run.results[0]!.steps;
      assert.deepEqual(matched!.failures, [], run.report);
      assert.equal(refused!.failures.length, 1, run.report);
      assert.match(run.report, /a text matching \/\^Hello, \(a\+\)\+\$\//);

      const backreference = scenarioFile(
        'backreference.yaml',
        "steps:\n  - post: aa\n    as: alice\n    in: general\n    expect: [{ message: { content: { matches: '^(a)\\1$' } } }]\n",
      );
      const refusedFile = await runScenario(backreference, { sandbox });
      assert.equal(refusedFile.passed, false);
      assert.match(refusedFile.report, /runs in time linear in the text/);
    },
  );

  test("a route slashd does not serve, called with the bot's token, is listed in the coverage", async () => {
    const answer = await fetch(`${sandbox.apiUrl}/guilds/${TEST_GUILD_ID}/integrations`, {
      headers: { authorization: `Bot ${sandbox.bot().token}` },
    });
    assert.equal(answer.status, 404);
    const file = scenarioFile('ping.yaml', 'steps:\n  - invoke: /ping\n    as: alice\n    in: general\n');
    const run = await runScenario(file, { sandbox });
    assert.ok(run.passed, run.report);
    assert.deepEqual(run.coverage!.unserved, [{ method: 'GET', route: '/guilds/{guild.id}/integrations', count: 1 }]);
    assert.deepEqual(run.coverage!.never_invoked, ['/button', '/feedback']);
  });
});

describe('an ephemeral answer', () => {
  let whisperSandbox: Sandbox;
  let whisperer: Client<true>;

  before(async () => {
    whisperSandbox = await createSandbox();
    const { Client, Events, GatewayIntentBits, MessageFlags } = await import('discord.js');
    const bot = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: whisperSandbox.restUrl } });
    bot.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand())
        void interaction.reply({ content: `psst ${interaction.user.username}`, flags: MessageFlags.Ephemeral });
    });
    const ready = new Promise((resolve) => bot.once(Events.ClientReady, resolve));
    await bot.login(whisperSandbox.bot().token);
    await ready;
    await bot.application!.commands.set([{ name: 'whisper', description: 'Answers only you' }]);
    whisperer = bot as Client<true>;
  });
  after(async () => {
    await whisperer?.destroy();
    await whisperSandbox?.close();
  });

  test('is seen by the invoker only; a `message` expectation does not take it', async () => {
    const file = scenarioFile(
      'whisper.yaml',
      [
        'steps:',
        '  - invoke: /whisper',
        '    as: alice',
        '    in: general',
        '    expect: [{ ephemeral: { content: psst alice, flags: 64 } }]',
        '  - invoke: /whisper',
        '    as: bob',
        '    timeout: 200',
        '    expect: [{ message: { content: psst bob } }]',
      ].join('\n'),
    );
    const run = await runScenario(file, { sandbox: whisperSandbox });
    assert.equal(run.passed, false);
    assert.deepEqual(
      run.results[0]!.steps.map((step) => step.failures),
      [[], ['message: none was posted (waited 200 ms)']],
    );
  });
});
