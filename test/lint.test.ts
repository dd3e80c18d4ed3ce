/** `slashd lint`: the validation of a bulk overwrite body, offline, with printed issues and exit codes. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runLint } from '../src/cli/lint.js';

const dir = mkdtempSync(join(tmpdir(), 'slashd-lint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function file(content: unknown): string {
  const path = join(dir, `body-${fileCount++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const WORLD = file({
  applications: [
    { id: '1', name: 'Plain', flags: 0, integration_types: [0], discoverable: false },
    { id: '2', name: 'Discoverable', flags: 0, integration_types: [0, 1], discoverable: true },
    { id: '3', name: 'Activity', flags: 131072, integration_types: [0, 1], discoverable: false },
  ],
  users: [],
  guilds: [],
});

async function lint(...args: string[]): Promise<{ status: number; log: string[]; error: string[] }> {
  const log: string[] = [];
  const error: string[] = [];
  const status = await runLint(args, { log: (line) => log.push(line), error: (line) => error.push(line) });
  return { status, log, error };
}

const ping = { name: 'ping', description: 'Replies with pong' };
const profile = { type: 2, name: 'Show Profile' };

describe('valid bodies', () => {
  test('print the count and exit 0', async () => {
    assert.deepEqual(await lint(file([ping, profile])), { status: 0, log: ['ok: 2 commands'], error: [] });
  });

  test('an empty list', async () => {
    assert.deepEqual(await lint(file([])), { status: 0, log: ['ok: 0 commands'], error: [] });
  });

  test('--guild', async () => {
    assert.deepEqual(await lint(file([{ ...ping, dm_permission: false }]), '--guild'), {
      status: 0,
      log: ['ok: 1 command'],
      error: [],
    });
  });
});

describe('invalid bodies', () => {
  test('every issue as "path = value (command "name"): CODE message", then a count; exit 1', async () => {
    const body = [ping, { name: 'Echo', description: 'd', options: [{ type: 3, name: 'Text', description: 'd' }] }];
    assert.deepEqual(await lint(file(body)), {
      status: 1,
      log: [],
      error: [
        '1.name = "Echo" (command "Echo"): APPLICATION_COMMAND_INVALID_NAME Command name is invalid: it must be lower case ("E" is not)',
        '1.options.0.name = "Text" (command "Echo"): APPLICATION_COMMAND_INVALID_NAME Command name is invalid: it must be lower case ("T" is not)',
        '2 errors in 1 command',
      ],
    });
  });

  test('a character outside the pattern is named', async () => {
    const result = await lint(file([{ name: 'say!', description: 'd' }]));
    assert.deepEqual(result.error, [
      '0.name = "say!" (command "say!"): APPLICATION_COMMAND_INVALID_NAME Command name is invalid: "!" is a character that is not allowed (letters, numbers, - _ and \' only)',
      '1 error in 1 command',
    ]);
  });

  test('issues are sorted by path (list indexes as numbers), counted per command', async () => {
    const good = (i: number) => ({ name: `c${i}`, description: 'd' });
    const bad = (name: string) => ({ name, description: '' });
    const body = [
      good(0),
      good(1),
      bad('B2'),
      good(3),
      good(4),
      good(5),
      good(6),
      good(7),
      good(8),
      good(9),
      bad('b10'),
      { type: 2, name: 'Profile', description: 'x' },
    ];
    const result = await lint(file(body));
    assert.equal(result.status, 1);
    const paths = result.error.slice(0, -1).map((line) => line.split(' ')[0]);
    assert.deepEqual(paths, ['2.description', '2.name', '10.description', '11.description']);
    assert.match(result.error[1] ?? '', /^2\.name = "B2" \(command "B2"\): APPLICATION_COMMAND_INVALID_NAME /);
    assert.equal(result.error.at(-1), '4 errors in 3 commands');
  });

  test('a missing field shows no value; an issue at the root belongs to no command', async () => {
    const missing = await lint(file([{ description: 'no name' }]));
    assert.deepEqual(missing.error, [
      '0.name (command 0): BASE_TYPE_REQUIRED This field is required',
      '1 error in 1 command',
    ]);
    assert.deepEqual(await lint(file({ name: 'ping' })), {
      status: 1,
      log: [],
      error: ['(root): LIST_TYPE_CONVERT Only iterables may be used in a ListType', '1 error'],
    });
  });

  test('too many commands of one type (JSON code 30032)', async () => {
    const users = Array.from({ length: 16 }, (_, i) => ({ type: 2, name: `User ${i}` }));
    assert.deepEqual(await lint(file(users)), {
      status: 1,
      log: [],
      error: ['(root): 30032 Maximum number of application commands reached (15 USER commands)', '1 error'],
    });
  });

  test('an entry point in a guild list', async () => {
    const result = await lint(
      file([{ type: 4, name: 'Launch', handler: 2 }]),
      '--guild',
      '--world',
      WORLD,
      '--app',
      '3',
    );
    assert.equal(result.status, 1);
    assert.deepEqual(result.error, [
      '0.type = 4 (command "Launch"): APPLICATION_COMMAND_ENTRY_POINT_GUILD Entry Point commands cannot be guild commands',
      '1 error in 1 command',
    ]);
  });
});

describe('app traits', () => {
  test('without --world: not embedded, guild and user install, not discoverable', async () => {
    assert.equal((await lint(file([{ ...ping, nsfw: true, integration_types: [0, 1] }]))).status, 0);
    assert.equal((await lint(file([{ type: 4, name: 'Launch', handler: 2 }]))).status, 1);
  });

  test('from the world file', async () => {
    const nsfw = file([{ ...ping, nsfw: true }]);
    assert.equal((await lint(nsfw, '--world', WORLD, '--app', '1')).status, 0);
    assert.deepEqual(await lint(nsfw, '--world', WORLD, '--app', '2'), {
      status: 1,
      log: [],
      error: [
        '0.nsfw = true (command "ping"): APPLICATION_COMMAND_NSFW_DISCOVERABLE Applications with discovery enabled cannot have age-restricted commands',
        '1 error in 1 command',
      ],
    });
    const userInstall = file([{ ...ping, integration_types: [0, 1] }]);
    assert.equal(
      (await lint(userInstall, '--world', WORLD, '--app', '1')).error[0]?.split(' ')[0],
      '0.integration_types.1',
    );
    assert.deepEqual(await lint(file([{ type: 4, name: 'Launch', handler: 2 }]), '--world', WORLD, '--app', '3'), {
      status: 0,
      log: ['ok: 1 command'],
      error: [],
    });
  });
});

describe('usage and read errors exit 2', () => {
  const cases: [string, () => string[]][] = [
    ['no FILE', () => []],
    ['two FILEs', () => [file([]), file([])]],
    ['an unknown flag', () => [file([]), '--global']],
    ['--world without --app', () => [file([]), '--world', WORLD]],
    ['--app without --world', () => [file([]), '--app', '1']],
    ['a missing file', () => [join(dir, 'missing.json')]],
    ['a file that is not JSON', () => [file('{"name": ')]],
    ['a missing world file', () => [file([]), '--world', join(dir, 'missing-world.json'), '--app', '1']],
    ['an app the world does not have', () => [file([]), '--world', WORLD, '--app', '99']],
  ];
  for (const [name, args] of cases) {
    test(name, async () => {
      const result = await lint(...args());
      assert.equal(result.status, 2);
      assert.deepEqual(result.log, []);
      assert.ok(result.error.length > 0);
      assert.match(result.error[0] ?? '', /^lint: /);
    });
  }
});
