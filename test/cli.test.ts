/**
 * The `slashd` command line: usage and exit statuses (2 for a wrong command line, with the usage),
 * and the pieces of `slashd invoke` that need no server (the typed command, option values, the
 * rendering of answers). The whole path against a running server is in newcomer.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseTypedCommand, splitWords } from '../src/cli/invoke/command-line.js';
import { renderMessage, renderResponse } from '../src/cli/invoke/render.js';
import { findCommand, invocationData, type IndexCommand } from '../src/cli/invoke/resolve-command.js';
import { findChannel, findUser } from '../src/cli/invoke/resolve-world.js';
import { main } from '../src/cli/main.js';
import { formatLogLine } from '../src/http/log-format.js';
import { plural, UsageError } from '../src/cli/usage.js';
import type { World } from '../src/core/world/types.js';
import { exampleWorld } from './helpers/world.js';

async function run(...argv: string[]): Promise<{ status: number; log: string[]; error: string[] }> {
  const log: string[] = [];
  const error: string[] = [];
  const status = await main(argv, { log: (line) => log.push(line), error: (line) => error.push(line) });
  return { status, log, error };
}

describe('usage and exit statuses', () => {
  test('slashd alone prints the usage and exits 2', async () => {
    const result = await run();
    assert.equal(result.status, 2);
    assert.match(result.error.join('\n'), /^usage:/);
  });

  test('an unknown command is named, then the usage; exit 2', async () => {
    const result = await run('frobnicate');
    assert.equal(result.status, 2);
    assert.equal(result.error[0], "slashd: unknown command 'frobnicate'");
    assert.match(result.error[1] ?? '', /^usage:/);
  });

  test('a name inherited from Object is no command', async () => {
    assert.equal((await run('toString')).status, 2);
  });

  test('help prints the usage on stdout, with --log-level, and exits 0', async () => {
    const result = await run('--help');
    assert.equal(result.status, 0);
    assert.match(result.log.join('\n'), /--log-level LEVEL/);
    assert.match(result.log.join('\n'), /slashd invoke --as USER --channel CHANNEL/);
  });

  for (const command of ['serve', 'invoke', 'world']) {
    test(`an unknown option of ${command}: the error, then the usage; exit 2`, async () => {
      const result = await run(command, '--bogus');
      assert.equal(result.status, 2);
      assert.match(result.error[0] ?? '', new RegExp(`^slashd ${command}: Unknown option '--bogus'`));
      assert.match(result.error[1] ?? '', /^usage:/);
    });
  }

  for (const [command, first] of [
    ['lint', '  slashd lint FILE'],
    ['invoke', '  slashd invoke --as USER --channel CHANNEL'],
    ['serve', '  slashd serve [--host H]'],
    ['deploy', '  slashd deploy FILE --app ID'],
  ] as const) {
    test(`${command} --help (or -h, anywhere on the line) prints that command's usage on stdout; exit 0`, async () => {
      for (const argv of [
        [command, '--help'],
        [command, 'some-file.json', '-h'],
      ]) {
        const result = await run(...argv);
        assert.equal(result.status, 0, result.error.join('\n'));
        assert.deepEqual(result.error, []);
        const text = result.log.join('\n');
        assert.ok(!text.includes('Unknown option'), text);
        const lines = text.split('\n');
        assert.equal(lines[0], 'usage:');
        assert.ok(lines[1]?.startsWith(first), text);
        // Only that command: no other command's line.
        assert.equal(lines.filter((line) => /^ {2}slashd /.test(line)).length, 1, text);
      }
    });
  }

  test('--version (and -V, version) prints slashd and the package version; exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V', 'version']) {
      const result = await run(flag);
      assert.equal(result.status, 0);
      assert.deepEqual(result.log, [`slashd ${version}`]);
    }
    assert.match((await run('--help')).log.join('\n'), /slashd --version \| --help \| COMMAND --help/);
  });

  test('counts agree with their number: 1 command, 2 commands', () => {
    assert.equal(plural(1, 'command'), '1 command');
    assert.equal(plural(0, 'command'), '0 commands');
    assert.equal(plural(2, 'version bump'), '2 version bumps');
  });

  test('serve refuses an unknown log level before starting', async () => {
    const result = await run('serve', '--db', ':memory:', '--log-level', 'loud');
    assert.equal(result.status, 2);
    assert.match(result.error[0] ?? '', /--log-level is one of fatal, error, warn/);
  });

  test('invoke without --as: exit 2', async () => {
    const result = await run('invoke', '--channel', 'general', '--admin-token', 't', '/hello');
    assert.equal(result.status, 2);
    assert.match(result.error[0] ?? '', /--as is required/);
  });

  test('invoke against a server that is not there: exit 2, saying so', async () => {
    const result = await run(
      'invoke',
      '--as',
      'alice',
      '--channel',
      'general',
      '--url',
      'http://127.0.0.1:1',
      '--admin-token',
      't',
      '/hello',
    );
    assert.equal(result.status, 2);
    assert.match(result.error[0] ?? '', /cannot reach slashd at http:\/\/127\.0\.0\.1:1/);
  });
});

describe('the typed command', () => {
  test('path words, then name:value pairs; quotes and unquoted words continue a value', () => {
    assert.deepEqual(parseTypedCommand('/config set name value:"two words"'), {
      path: ['config', 'set', 'name'],
      options: [{ name: 'value', value: 'two words' }],
    });
    assert.deepEqual(parseTypedCommand('/echo text:hello world count:3'), {
      path: ['echo'],
      options: [
        { name: 'text', value: 'hello world' },
        { name: 'count', value: '3' },
      ],
    });
    assert.deepEqual(splitWords(`a 'b c' "d'e"`), ['a', 'b c', "d'e"]);
  });

  test('an unbalanced quote or an empty command is a usage error', () => {
    assert.throws(() => parseTypedCommand('/echo text:"oops'), UsageError);
    assert.throws(() => parseTypedCommand('/'), UsageError);
  });
});

const world: World = exampleWorld();
const guild = world.guilds[0]!;
const scope = { world, guild };
const ECHO: IndexCommand = {
  id: '10',
  application_id: '1',
  version: '11',
  type: 1,
  name: 'echo',
  options: [
    { type: 3, name: 'text' },
    { type: 4, name: 'count' },
    { type: 10, name: 'ratio' },
    { type: 5, name: 'loud' },
    { type: 6, name: 'who' },
    { type: 7, name: 'where' },
    { type: 8, name: 'role' },
    { type: 9, name: 'anything' },
    { type: 3, name: 'colour', choices: [{ name: 'Red', value: 'red' }] },
  ],
};
const CONFIG: IndexCommand = {
  id: '20',
  application_id: '1',
  version: '21',
  name: 'config',
  options: [
    { type: 2, name: 'set', options: [{ type: 1, name: 'name', options: [{ type: 3, name: 'value' }] }] },
    { type: 1, name: 'show' },
  ],
};
const PROFILE: IndexCommand = { id: '30', application_id: '1', version: '31', type: 2, name: 'Profile' };

describe('option values typed by the definition', () => {
  test('numbers, booleans, users, channels, roles and choices by name', () => {
    const typed = parseTypedCommand(
      '/echo text:hi count:3 ratio:0.5 loud:yes who:bob where:#general role:@Moderator anything:carol colour:Red',
    );
    const data = invocationData(ECHO, typed, scope);
    const values = Object.fromEntries((data.options ?? []).map((o) => [o.name, o.value]));
    assert.deepEqual(values, {
      text: 'hi',
      count: 3,
      ratio: 0.5,
      loud: true,
      who: findUser(world, 'bob').id,
      where: findChannel(world, 'general').channel.id,
      role: guild.roles.find((r) => r.name === 'Moderator')!.id,
      anything: findUser(world, 'carol').id,
      colour: 'red',
    });
    assert.equal(data.version, '11');
  });

  test("a value that is not of the option's type is a usage error naming the option", () => {
    assert.throws(
      () => invocationData(ECHO, parseTypedCommand('/echo count:three'), scope),
      /option count: 'three' is not an integer/,
    );
    assert.throws(() => invocationData(ECHO, parseTypedCommand('/echo count:1.5'), scope), /not an integer/);
    assert.throws(() => invocationData(ECHO, parseTypedCommand('/echo loud:maybe'), scope), /not true or false/);
    assert.throws(() => invocationData(ECHO, parseTypedCommand('/echo who:nobody'), scope), /no user 'nobody'/);
  });

  test('subcommand paths lead down; a missing subcommand lists the choices', () => {
    const data = invocationData(CONFIG, parseTypedCommand('/config set name value:x'), scope);
    assert.deepEqual(data.options, [
      { type: 2, name: 'set', options: [{ type: 1, name: 'name', options: [{ type: 3, name: 'value', value: 'x' }] }] },
    ]);
    assert.throws(
      () => invocationData(CONFIG, parseTypedCommand('/config'), scope),
      /a subcommand is needed; the choices are: set, show/,
    );
  });

  test('a USER command takes its target by name; without --target it is a usage error', () => {
    const command = findCommand([ECHO, PROFILE], 'Profile', true);
    assert.equal(
      invocationData(command, { path: ['Profile'], options: [] }, scope, 'bob').target_id,
      findUser(world, 'bob').id,
    );
    assert.throws(() => invocationData(command, { path: ['Profile'], options: [] }, scope), /needs --target/);
    assert.throws(() => findCommand([ECHO], 'ping', false), /no slash command 'ping' .* they are: echo/);
  });
});

describe('answers rendered as the user sees them', () => {
  test('content, embeds with their fields, and components as text', () => {
    const lines = renderResponse({
      type: 4,
      data: {
        content: 'Sunny',
        embeds: [{ title: 'Paris', description: '3 days', fields: [{ name: 'max', value: '21°' }] }],
        components: [
          {
            type: 1,
            components: [
              { type: 2, label: 'More' },
              { type: 3, custom_id: 'm', placeholder: 'Pick a day' },
            ],
          },
        ],
      },
    });
    assert.deepEqual(lines, ['Sunny', '[embed] Paris', '  3 days', '  max: 21°', '[button: More]  [menu: Pick a day]']);
    assert.deepEqual(renderResponse({ type: 9, data: { title: 'Feedback', components: [] } }), ['[modal: Feedback]']);
    assert.deepEqual(renderMessage({ content: '' }), []);
  });
});

describe('log lines on a terminal', () => {
  test('a pino record becomes one line with the time, level, message and request', () => {
    const line = formatLogLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 1, 12, 0, 1),
        msg: 'request completed',
        reqId: 'req-7',
        req: { method: 'GET', url: '/api/v10/x' },
        res: { statusCode: 200 },
        responseTime: 2.4,
      }),
    );
    assert.equal(line, '12:00:01 INFO  request completed [req-7] GET /api/v10/x 200 (2 ms)');
    const delivery = formatLogLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 1, 12, 0, 2),
        msg: 'interaction delivery failed',
        reqId: 'req-8',
        interactionId: '123',
        outcome: 'bad_status',
        detail: 'the endpoint answered 500',
      }),
    );
    assert.equal(
      delivery,
      '12:00:02 INFO  interaction delivery failed [req-8] interaction 123 bad_status (the endpoint answered 500)',
    );
    assert.equal(formatLogLine('not json'), 'not json');
  });
});
