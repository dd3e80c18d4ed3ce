/**
 * The scenario format (issue 28) without a server: a file's problems named by path, the example
 * files valid under the shipped JSON schema too, matchers and the diff they report, and the JUnit
 * and TAP reports parsed back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { commandItems, computeCoverage, exercisedItems } from '../src/core/scenarios/coverage.js';
import { diffLines, matchExpected } from '../src/core/scenarios/match.js';
import { junitReport, tapReport, textReport, type ScenarioResult } from '../src/core/scenarios/report.js';
import { describeIssues, validateScenario } from '../src/core/scenarios/validate.js';
import { parseScenarioText, ScenarioFileError } from '../src/testing/scenarios/load.js';
import { repoRoot } from './helpers/openapi.js';

const ROOT = repoRoot();
const EXAMPLES = [
  'examples/testing/ping-bot.scenario.yaml',
  'examples/hello-app.scenario.yaml',
  'examples/pytest/ping-bot.scenario.yaml',
];

function problems(yamlText: string): string[] {
  const checked = validateScenario(parse(yamlText));
  return checked.ok ? [] : describeIssues(checked.issues);
}

describe('scenario files are checked, each problem named by its path', () => {
  test('a valid file has none', () => {
    assert.deepEqual(
      problems(
        'steps:\n  - invoke: /ping\n    as: alice\n    in: general\n    expect: [{ message: { content: pong } }]\n',
      ),
      [],
    );
  });

  test('a step without a user, with two actions, an unknown expectation and a bad pattern', () => {
    const found = problems(
      [
        'steps:',
        '  - invoke: /ping',
        '  - invoke: /ping',
        '    post: hi',
        '    as: bob',
        '  - click: press',
        '    as: bob',
        '    expect:',
        '      - mesage: { content: pong }',
        '      - message: { content: { matches: "(" } }',
        '      - event: { data: {} }',
        '    timeout: 0',
      ].join('\n'),
    );
    assert.deepEqual(found, [
      'steps.0.as: This field is required',
      'steps.1: Must hold only one of {invoke, post}.',
      'steps.2.timeout: Value should be greater than or equal to 1.',
      'steps.2.expect.0: Must hold one of {message, ephemeral, refusal, modal, member, event}.',
      found.find((line) => line.startsWith('steps.2.expect.1.message.content.matches: Not a regular expression'))!,
      'steps.2.expect.2.event.type: This field is required',
    ]);
  });

  test('no steps, an unknown field, a world of the wrong shape', () => {
    assert.deepEqual(problems('world: { snap: x }\ntitle: x\n'), [
      'title: Unknown field; expected one of {name, world, application, timeout, steps}.',
      'world.snapshot: This field is required',
      'steps: This field is required',
    ]);
  });

  test('a file that is not YAML is one error naming the file', () => {
    assert.throws(
      () => parseScenarioText('steps: [', 'broken.yaml'),
      (error: unknown) => {
        assert.ok(error instanceof ScenarioFileError);
        assert.match(error.message, /^broken\.yaml is not a valid scenario:\n {2}not YAML/);
        return true;
      },
    );
  });

  test('the example scenario files are valid, by the validator and by schemas/scenario.schema.json', () => {
    const require = createRequire(import.meta.url);
    const Ajv2020 = require('ajv/dist/2020').default;
    const ajv = new Ajv2020({ allErrors: true });
    const schema = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/scenario.schema.json'), 'utf8')));
    for (const file of EXAMPLES) {
      const value = parse(readFileSync(join(ROOT, file), 'utf8'));
      assert.deepEqual(problems(readFileSync(join(ROOT, file), 'utf8')), [], file);
      assert.ok(schema(value), `${file}: ${JSON.stringify(schema.errors)}`);
    }
    // The schema refuses what the validator refuses: a step with two actions, an expectation with none.
    assert.equal(schema({ steps: [{ invoke: '/a', post: 'b', as: 'x' }] }), false);
    assert.equal(schema({ steps: [{ invoke: '/a', as: 'x', expect: [{ mesage: {} }] }] }), false);
    assert.equal(
      schema({ steps: [{ invoke: '/a', as: 'x', expect: [{ message: { content: { matches: 'p' } } }] }] }),
      true,
    );
  });
});

describe('matching', () => {
  test('fields given must match, extra observed fields are ignored; lists match item by item in any order', () => {
    const observed = {
      content: 'pong',
      id: '1335036896870400001',
      embeds: [{ title: 'b' }, { title: 'a', fields: [{ name: 'x', value: '<#42>' }] }],
    };
    assert.deepEqual(
      matchExpected(
        { content: 'pong', embeds: [{ title: 'a', fields: [{ value: { matches: '^<#\\d+>$' } }] }] },
        observed,
      ),
      [],
    );
    assert.deepEqual(matchExpected({ id: { any: 'id' }, content: { contains: 'on' } }, observed), []);
    assert.deepEqual(matchExpected({ embeds: { equals: [{ title: 'b' }] } }, observed).length, 1);
    assert.deepEqual(
      matchExpected({ timestamp: { any: 'timestamp' } }, { timestamp: '2026-01-02T03:04:05.678000+00:00' }),
      [],
    );
  });

  test('a mismatch reads as a diff: where, expected, observed', () => {
    const lines = diffLines(
      matchExpected({ content: 'pang', embeds: [{ title: 'a' }] }, { content: 'pong', embeds: [{ title: 'c' }] }),
    );
    assert.deepEqual(lines, [
      '  at content:',
      '    - expected: "pang"',
      '    + observed: "pong"',
      '  at embeds.0.title:',
      '    - expected: "a"',
      '    + observed: "c"',
    ]);
  });
});

describe('coverage', () => {
  test('commands, subcommands and options as typed; what no step used is listed', () => {
    const config = {
      name: 'config',
      options: [
        { type: 1, name: 'set', options: [{ type: 3, name: 'key' }] },
        { type: 1, name: 'show' },
      ],
    };
    assert.deepEqual(commandItems(config), ['/config', '/config set', '/config set key', '/config show']);
    const exercised = new Set(exercisedItems({ commandPath: ['config', 'set'], options: ['key'] }));
    const coverage = computeCoverage({
      applicationId: '1',
      commands: [config, { name: 'ping' }],
      exercised,
      componentsSeen: new Set(['a', 'b']),
      componentsUsed: new Set(['a']),
      usage: { routes: [], unserved: [], events: [] },
    });
    assert.deepEqual(coverage.never_invoked, ['/config show', '/ping']);
    assert.deepEqual(coverage.never_clicked, ['b']);
  });
});

describe('reports', () => {
  const results: ScenarioResult[] = [
    {
      name: 'good & "quoted"',
      file: 'a.yaml',
      error: null,
      durationMs: 12,
      steps: [{ name: 'alice invokes /ping', failures: [], durationMs: 10, skipped: false }],
    },
    {
      name: 'bad',
      file: 'b.yaml',
      error: null,
      durationMs: 20,
      steps: [
        {
          name: 'alice invokes /ping',
          failures: ['message: none matched\n  at content:\n    - expected: "pang"\n    + observed: "pong"'],
          durationMs: 5,
          skipped: false,
        },
        { name: 'bob clicks #1', failures: [], durationMs: 0, skipped: true },
      ],
    },
  ];

  test('JUnit XML: a suite per scenario, a case per step, the failure with its diff', () => {
    const xml = junitReport(results);
    assert.match(
      xml,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="slashd test" tests="3" failures="1">/,
    );
    const suites = [
      ...xml.matchAll(/<testsuite name="([^"]*)" file="([^"]*)" tests="(\d+)" failures="(\d+)" skipped="(\d+)"/g),
    ].map((m) => m.slice(1));
    assert.deepEqual(suites, [
      ['good &#38; &#34;quoted&#34;', 'a.yaml', '1', '0', '0'],
      ['bad', 'b.yaml', '2', '1', '1'],
    ]);
    const failure = /<failure message="([^"]*)">([^<]*)<\/failure>/.exec(xml)!;
    assert.equal(failure[1], 'message: none matched');
    assert.match(failure[2]!, /- expected: &#34;pang&#34;\n {4}\+ observed: &#34;pong&#34;/);
    assert.equal((xml.match(/<testcase /g) ?? []).length, 3);
    assert.equal((xml.match(/<skipped /g) ?? []).length, 1);
  });

  test('TAP: a plan, a point per step, the diff in a YAML block', () => {
    const lines = tapReport(results).split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      'TAP version 13',
      '1..3',
      'ok 1 - good & "quoted" › alice invokes /ping',
      'not ok 2 - bad › alice invokes /ping',
      '  ---',
    ]);
    assert.ok(lines.includes('        - expected: "pang"'), lines.join('\n'));
    assert.ok(lines.includes('ok 3 - bad › bob clicks \\#1 # SKIP an earlier step failed'));
  });

  test('text: PASS and FAIL per scenario, and the count', () => {
    const text = textReport(results);
    assert.match(text, /^PASS good & "quoted" \(a\.yaml\)\n/);
    assert.match(text, /\nFAIL bad \(b\.yaml\)\n {2}✗ alice invokes \/ping\n {6}message: none matched\n/);
    assert.match(text, /\n1 passed, 1 failed, 2 scenarios\n$/);
  });
});
