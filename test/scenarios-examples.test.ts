/**
 * The examples' scenarios replayed as CI replays them (issue 28): the `slashd test` lines of
 * docs/testing.md's GitHub Actions and GitLab CI files run as written (`npx slashd` being this
 * checkout's bin/slashd.js, the JUnit report written to a temporary folder) and pass; the
 * discord.py bot's scenario passes against the bot started by `--bot`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, killAll, ROOT, runToEnd, shellWords } from './helpers/cli-process.js';

const folder = mkdtempSync(join(tmpdir(), 'slashd-ci-'));
after(() => {
  killAll();
  rmSync(folder, { recursive: true, force: true });
});

/** The `npx slashd test …` lines of the doc's fenced YAML blocks, in order. */
function ciCommandLines(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    [...block.matchAll(/^\s*-\s*(?:run:\s*)?(npx slashd test .*)$/gm)].map((m) => m[1]!.trim()),
  );
}

/** A doc line as argv for this checkout: `npx slashd` is bin/slashd.js; the report goes to `report`. */
function argvOf(line: string, report: string): string[] {
  const words = shellWords(line);
  assert.deepEqual(words.slice(0, 3), ['npx', 'slashd', 'test'], line);
  const output = words.indexOf('--output');
  assert.ok(output > 0, `${line} writes its report with --output`);
  words[output + 1] = report;
  return [CLI, ...words.slice(2)];
}

describe('the CI examples of docs/testing.md', () => {
  const lines = ciCommandLines();

  test('there are two: GitHub Actions (the discord.js bot) and GitLab CI (the HTTP app)', () => {
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /ping-bot\.scenario\.yaml --bot 'node examples\/testing\/run-ping-bot\.js'/);
    assert.match(lines[1]!, /hello-app\.scenario\.yaml --bot 'node examples\/hello-app\.js --port 0'/);
  });

  for (const [index, line] of lines.entries()) {
    test(`runs as written and passes: ${line}`, async () => {
      const report = join(folder, `report-${index}.xml`);
      const run = await runToEnd(process.execPath, argvOf(line, report));
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const xml = readFileSync(report, 'utf8');
      assert.match(xml, /<testsuites name="slashd test" tests="[1-9]\d*" failures="0">/);
      assert.doesNotMatch(xml, /<failure|<skipped/);
    });
  }
});

test('the discord.py bot (examples/pytest) passes its scenario', async () => {
  const run = await runToEnd(process.execPath, [
    CLI,
    'test',
    join(ROOT, 'examples/pytest/ping-bot.scenario.yaml'),
    '--bot',
    `cd ${join(ROOT, 'examples/pytest')} && exec /usr/bin/python3 run_ping_bot.py`,
  ]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^PASS the discord\.py ping bot/m);
  assert.match(run.stdout, /PUT \/applications\/\{application\.id\}\/guilds\/\{guild\.id\}\/commands ×1/);
});
