/**
 * `slashd test` (issue 28) as CI runs it: the example discord.js bot started by `--bot`, its
 * scenario replayed and passing; a copy with a deliberately wrong reply failing with a readable
 * diff; the JUnit and TAP reports parsed; the coverage listing the commands a scenario never
 * invoked and the routes and gateway events the bot used.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, killAll, ROOT, runToEnd } from './helpers/cli-process.js';

const PASSING = join(ROOT, 'examples/testing/ping-bot.scenario.yaml');
const BOT = `node ${join(ROOT, 'examples/testing/run-ping-bot.js')}`;
const folder = mkdtempSync(join(tmpdir(), 'slashd-scenarios-'));
/** The example's scenario, expecting "pang" where the bot says "pong". */
const WRONG = join(folder, 'wrong-reply.yaml');
writeFileSync(
  WRONG,
  readFileSync(PASSING, 'utf8')
    .replace('content: pong,', 'content: pang,')
    .replace('name: the ping bot', 'name: a wrong reply'),
);

after(() => {
  killAll();
  rmSync(folder, { recursive: true, force: true });
});

describe('slashd test against the example discord.js bot', () => {
  test('JUnit: the example passes, the wrong copy fails with the diff; exit status 1', async () => {
    const report = join(folder, 'report.xml');
    const coverage = join(folder, 'coverage.json');
    const run = await runToEnd(process.execPath, [
      CLI,
      'test',
      PASSING,
      WRONG,
      '--bot',
      BOT,
      '--reporter',
      'junit',
      '--output',
      report,
      '--coverage',
      coverage,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /failed: the report is in .*report\.xml/);
    const xml = readFileSync(report, 'utf8');
    const suites = [
      ...xml.matchAll(/<testsuite name="([^"]*)" file="[^"]*" tests="(\d+)" failures="(\d+)" skipped="(\d+)"/g),
    ].map((m) => m.slice(1));
    assert.deepEqual(suites, [
      ['the ping bot', '5', '0', '0'],
      ['a wrong reply', '5', '1', '4'],
    ]);
    const failure = /<failure message="([^"]*)">([^<]*)<\/failure>/.exec(xml)!;
    assert.match(failure[1]!, /^message: none matched; the closest of 1 \(\d+\) \(waited 5000 ms\)$/);
    assert.match(failure[2]!, /\n {2}at content:\n {4}- expected: &#34;pang&#34;\n {4}\+ observed: &#34;pong&#34;/);

    // Every command of the bot was used by the passing scenario; its routes and events recorded.
    const covered = JSON.parse(readFileSync(coverage, 'utf8'));
    assert.deepEqual(covered.never_invoked, []);
    assert.deepEqual(covered.components, ['press']);
    assert.deepEqual(covered.never_clicked, []);
    assert.ok(
      covered.routes.some(
        (use: { method: string; route: string }) =>
          use.method === 'PUT' && use.route === '/applications/{application.id}/commands',
      ),
      JSON.stringify(covered.routes),
    );
    // The runner's own reads with the bot's token are not the bot's: not in its routes.
    assert.ok(
      !covered.routes.some((use: { route: string }) => use.route.includes('/guilds/{guild.id}/commands')),
      JSON.stringify(covered.routes),
    );
    assert.deepEqual(covered.events.map((event: { type: string }) => event.type).sort(), [
      'GUILD_CREATE',
      'INTERACTION_CREATE',
      'READY',
    ]);
    assert.deepEqual(covered.unserved, []);
  });

  test('TAP on stdout, a readable diff, and the coverage of a run that never reached /button and /feedback', async () => {
    const run = await runToEnd(process.execPath, [CLI, 'test', WRONG, '--bot', BOT, '--reporter', 'tap']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'TAP version 13',
      '1..5',
      'not ok 1 - a wrong reply › alice invokes /ping in general',
    ]);
    assert.deepEqual(lines.filter((line) => /^(not )?ok \d/.test(line)).slice(1), [
      'ok 2 - a wrong reply › alice invokes /button # SKIP an earlier step failed',
      'ok 3 - a wrong reply › bob clicks {"label":"Press me"} # SKIP an earlier step failed',
      'ok 4 - a wrong reply › carol invokes /feedback # SKIP an earlier step failed',
      'ok 5 - a wrong reply › carol submits the modal # SKIP an earlier step failed',
    ]);
    const block = lines.slice(lines.indexOf('  ---'), lines.indexOf('  ...') + 1);
    assert.deepEqual(block.slice(3), [
      '      at content:',
      '        - expected: "pang"',
      '        + observed: "pong"',
      '  ...',
    ]);
    // The coverage goes to stderr, so the TAP stream stays whole: /button and /feedback never invoked.
    assert.match(
      run.stderr,
      /commands, subcommands and options: 1 of 3 exercised\n {4}never: \/button\n {4}never: \/feedback\n/,
    );
  });

  test('a wrong command line exits 2 with the usage; a bot that never gets ready is named', async () => {
    const usage = await runToEnd(process.execPath, [CLI, 'test', PASSING, '--reporter', 'xml']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /slashd test: --reporter takes text, tap, junit, not 'xml'/);
    const silent = await runToEnd(process.execPath, [CLI, 'test', PASSING, '--bot', 'node -e "process.exit(3)"']);
    assert.equal(silent.code, 2);
    assert.match(silent.stderr, /slashd test: the bot under test exited \(exit status 3\) before it was ready/);
  });
});
